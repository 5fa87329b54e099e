import { describe, expect, it } from 'vitest';
import { nameUuid } from './name-uuid.js';

describe('nameUuid', () => {
  it('gives the same version-5 UUID for the same names, and another for other names', () => {
    const id = nameUuid('workspace', 'user');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(nameUuid('workspace', 'user')).toBe(id);
    expect(nameUuid('workspaceu', 'ser')).not.toBe(id);
  });
});
