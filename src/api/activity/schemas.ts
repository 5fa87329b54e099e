import { Type } from 'typebox';
import { StringEnum } from '../../http/schema-helpers.js';

/** GET /activity's query string (the reference's parameters); analytics/activity.ts checks the date against the window. */
export const ActivityQuery = Type.Object({
  date: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  api_key_hash: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
  user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  group_by: Type.Optional(StringEnum(['workspace'])),
  workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
});
