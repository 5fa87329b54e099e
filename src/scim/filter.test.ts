import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFilter } from './filter.js';

const attribute = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,12}(\.[A-Za-z][A-Za-z0-9]{0,8})?$/);
const value = fc.oneof(fc.string({ maxLength: 30 }), fc.boolean(), fc.constant(null), fc.integer());

describe('parseFilter', () => {
  it("reads Okta's and Entra's filters", () => {
    expect(parseFilter('userName eq "test.user@okta.local"')).toEqual({
      ok: true,
      comparisons: [{ attribute: 'userName', value: 'test.user@okta.local' }],
    });
    expect(parseFilter('externalId eq "0a21" and userName EQ "Test_User"')).toEqual({
      ok: true,
      comparisons: [
        { attribute: 'externalId', value: '0a21' },
        { attribute: 'userName', value: 'Test_User' },
      ],
    });
    expect(parseFilter('displayName eq "say \\"hi\\""')).toEqual({
      ok: true,
      comparisons: [{ attribute: 'displayName', value: 'say "hi"' }],
    });
  });

  it('gives back any conjunction of equalities it is written from', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(attribute, value), { minLength: 1, maxLength: 4 }), (pairs) => {
        const text = pairs.map(([a, v]) => `${a} eq ${JSON.stringify(v)}`).join(' and ');
        expect(parseFilter(text)).toEqual({ ok: true, comparisons: pairs.map(([a, v]) => ({ attribute: a, value: v })) });
      }),
    );
  });

  it('refuses other operators, dangling joins and unquoted words, saying where', () => {
    expect(parseFilter('userName co "bob"')).toMatchObject({ ok: false, reason: expect.stringContaining('"co"') });
    expect(parseFilter('userName eq "a" or userName eq "b"')).toMatchObject({ ok: false, reason: expect.stringContaining('or userName') });
    expect(parseFilter('userName eq bob')).toMatchObject({ ok: false });
    expect(parseFilter('userName eq "a" and')).toMatchObject({ ok: false });
    expect(parseFilter('')).toMatchObject({ ok: false });
    expect(parseFilter('x'.repeat(2000))).toMatchObject({ ok: false, reason: expect.stringContaining('longer') });
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const result = parseFilter(text);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });
});
