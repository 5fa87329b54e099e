import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../protocol/gateway-error.js';
import { type GroupAttributes, patchGroup, readGroup } from './group-attributes.js';

const group: GroupAttributes = { displayName: 'Engineering', externalId: null, members: ['u1', 'u2'] };

describe('readGroup', () => {
  it('reads displayName, externalId and the member ids once each', () => {
    expect(readGroup({ displayName: 'Sales', externalId: 'e', members: [{ value: 'u1' }, { value: 'u1', display: 'x' }] })).toEqual({
      displayName: 'Sales',
      externalId: 'e',
      members: ['u1'],
    });
  });

  it('refuses a group without displayName and too many members', () => {
    expect(() => readGroup({ members: [] })).toThrow(/displayName/);
    const many = Array.from({ length: 1001 }, (_, i) => ({ value: `u${i}` }));
    try {
      readGroup({ displayName: 'x', members: many });
      expect.unreachable();
    } catch (error) {
      expect(isGatewayError(error) && error.metadata?.scimType).toBe('tooMany');
    }
  });
});

describe('patchGroup', () => {
  it('adds and removes members as Entra sends them, and renames', () => {
    const next = patchGroup(group, {
      Operations: [
        { op: 'Add', path: 'members', value: [{ $ref: null, value: 'u3' }] },
        { op: 'Remove', path: 'members', value: [{ $ref: null, value: 'u1' }] },
        { op: 'Replace', path: 'displayName', value: 'Eng' },
      ],
    });
    expect(next).toEqual({ displayName: 'Eng', externalId: null, members: ['u2', 'u3'] });
  });

  it('removes one member named in the path and replaces by a path-less value, as Okta sends them', () => {
    expect(patchGroup(group, { Operations: [{ op: 'remove', path: 'members[value eq "u2"]' }] }).members).toEqual(['u1']);
    expect(patchGroup(group, { Operations: [{ op: 'replace', value: { id: 'g', displayName: 'Renamed' } }] })).toEqual({
      ...group,
      displayName: 'Renamed',
    });
    expect(patchGroup(group, { Operations: [{ op: 'remove', path: 'members' }] }).members).toEqual([]);
  });

  it('ends with each member once, whatever adds and removes come', () => {
    const ids = fc.constantFrom('u1', 'u2', 'u3', 'u4');
    const operation = fc.record({ op: fc.constantFrom('add', 'remove', 'replace'), ids: fc.array(ids, { maxLength: 4 }) });
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 6 }), (operations) => {
        const next = patchGroup(group, {
          Operations: operations.map(({ op, ids }) => ({ op, path: 'members', value: ids.map((value) => ({ value })) })),
        });
        expect(new Set(next.members).size).toBe(next.members.length);
        const last = operations.at(-1);
        if (last?.op === 'add') for (const id of last.ids) expect(next.members).toContain(id);
        if (last?.op === 'remove') for (const id of last.ids) expect(next.members).not.toContain(id);
      }),
    );
  });
});
