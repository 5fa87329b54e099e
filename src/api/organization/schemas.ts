import { Type } from 'typebox';
import { PageOffset } from '../../http/schema-helpers.js';

export const ListMembersQuery = Type.Object({
  offset: Type.Optional(PageOffset),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
