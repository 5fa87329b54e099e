import { Type } from 'typebox';
import { Nullable } from '../../http/schema-helpers.js';

export const ListMembersQuery = Type.Object({
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
