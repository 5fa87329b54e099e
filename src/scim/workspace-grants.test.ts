import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CurrentMembership, grantedMemberships, type Membership, planMemberships } from './workspace-grants.js';

const role = fc.constantFrom('admin' as const, 'member' as const);
const id = (prefix: string) => fc.integer({ min: 1, max: 4 }).map((n) => `${prefix}${n}`);
const current = fc.uniqueArray(fc.record({ workspaceId: id('w'), userId: id('u'), role, scimManaged: fc.boolean() }), {
  selector: (row) => `${row.workspaceId}/${row.userId}`,
});
const granted = fc.uniqueArray(fc.record({ workspaceId: id('w'), userId: id('u'), role }), {
  selector: (row) => `${row.workspaceId}/${row.userId}`,
});

/** The table after the plan is written. */
function apply(rows: CurrentMembership[], plan: ReturnType<typeof planMemberships>): CurrentMembership[] {
  const same = (a: { workspaceId: string; userId: string }, b: { workspaceId: string; userId: string }) =>
    a.workspaceId === b.workspaceId && a.userId === b.userId;
  return [
    ...rows
      .filter((row) => !plan.remove.some((gone) => same(gone, row)))
      .map((row) => ({ ...row, ...plan.update.find((changed) => same(changed, row)) })),
    ...plan.insert.map((row) => ({ ...row, scimManaged: true })),
  ];
}

describe('grantedMemberships', () => {
  it("grants each active member of a mapped group the mapping's workspace, the highest role winning", () => {
    const mappings = [
      { groupId: 'g1', workspaceId: 'w1', role: 'member' as const },
      { groupId: 'g2', workspaceId: 'w1', role: 'admin' as const },
      { groupId: 'g2', workspaceId: 'w2', role: 'member' as const },
    ];
    const members = [
      { groupId: 'g1', userId: 'u1' },
      { groupId: 'g2', userId: 'u1' },
      { groupId: 'g1', userId: 'u2' },
      { groupId: 'g2', userId: 'gone' },
    ];
    expect(
      grantedMemberships(mappings, members, new Set(['u1', 'u2'])).sort((a, b) =>
        (a.workspaceId + a.userId).localeCompare(b.workspaceId + b.userId),
      ),
    ).toEqual([
      { workspaceId: 'w1', userId: 'u1', role: 'admin' },
      { workspaceId: 'w1', userId: 'u2', role: 'member' },
      { workspaceId: 'w2', userId: 'u1', role: 'member' },
    ]);
  });
});

describe('planMemberships', () => {
  it('leaves every granted membership present, SCIM-granted ones with their role, and never touches one added by hand', () => {
    fc.assert(
      fc.property(granted, current, (wanted: Membership[], rows: CurrentMembership[]) => {
        const after = apply(rows, planMemberships(wanted, rows));
        for (const grant of wanted) {
          const row = after.find((r) => r.workspaceId === grant.workspaceId && r.userId === grant.userId);
          expect(row).toBeDefined();
          if (row?.scimManaged) expect(row.role).toBe(grant.role);
        }
        for (const row of after.filter((r) => r.scimManaged))
          expect(wanted.some((g) => g.workspaceId === row.workspaceId && g.userId === row.userId)).toBe(true);
        for (const manual of rows.filter((r) => !r.scimManaged)) expect(after).toContainEqual(manual);
      }),
    );
  });

  it('plans nothing once the table says what is granted', () => {
    fc.assert(
      fc.property(granted, current, (wanted, rows) => {
        const after = apply(rows, planMemberships(wanted, rows));
        expect(planMemberships(wanted, after)).toEqual({ insert: [], update: [], remove: [] });
      }),
    );
  });
});
