import { Type } from 'typebox';
import { PageQuery } from '../../http/schema-helpers.js';

/** The largest grant (or correction) one call makes, in USD. */
export const MAX_GRANT_USD = 1_000_000_000;

/** POST /credits/grants (this gateway's; the reference buys credits in its web app). */
export const GrantCreditsBody = Type.Object(
  {
    amount: Type.Number({ minimum: -MAX_GRANT_USD, maximum: MAX_GRANT_USD }),
    note: Type.Optional(Type.String({ maxLength: 500 })),
    organization_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
);

export const ListGrantsQuery = PageQuery(100);

/** Grants a page holds when `limit` is not given. */
export const GRANTS_PAGE_SIZE = 50;
