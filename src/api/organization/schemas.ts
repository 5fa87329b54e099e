import { Type } from 'typebox';
import { Nullable, PageQuery, StringEnum } from '../../http/schema-helpers.js';

export const ListMembersQuery = PageQuery(100);

/** Members a page holds when `limit` is not given. */
export const MEMBERS_PAGE_SIZE = 50;

const Name = Nullable(Type.String({ maxLength: 100 }));
/** The roles an operator gives; the owner is made at setup, never through these routes. */
const Role = StringEnum(['admin', 'member']);

/** POST /organization/members (beyond the reference): a person added by e-mail address; one already a member is updated. */
export const AddMemberBody = Type.Object(
  {
    email: Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$', maxLength: 254 }),
    role: Type.Optional(Role),
    first_name: Type.Optional(Name),
    last_name: Type.Optional(Name),
  },
  { additionalProperties: false },
);

/** PATCH /organization/members/{id} (beyond the reference): what changes of a member. */
export const UpdateMemberBody = Type.Object(
  { role: Type.Optional(Role), first_name: Type.Optional(Name), last_name: Type.Optional(Name) },
  { additionalProperties: false, minProperties: 1 },
);

export const MemberParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
