import { describe, expect, it } from 'vitest';
import { refuseFields } from './lifecycle-body.js';

describe('refuseFields', () => {
  it('takes no body, null or {}, and refuses anything carrying a field', () => {
    for (const none of [undefined, null, {}]) expect(() => refuseFields(none)).not.toThrow();
    for (const some of [{ a: 1 }, [], 'x', 0]) expect(() => refuseFields(some), JSON.stringify(some)).toThrow(/takes no request body/);
  });
});
