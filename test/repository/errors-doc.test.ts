import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS_DOC, renderErrorsDoc } from '../../scripts/errors-doc.js';

describe('docs/errors.md', () => {
  it('is what the error catalogue renders', () => {
    const committed = readFileSync(ERRORS_DOC, 'utf8');
    expect(committed === renderErrorsDoc(), 'docs/errors.md is stale: run `npm run docs:errors` and commit it').toBe(true);
  });
});
