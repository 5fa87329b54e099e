import { Type } from 'typebox';
import { Nullable, NullableStringEnum, PageQuery, StringEnum } from '../../http/schema-helpers.js';
import { SORT_KEYS } from '../chat/provider-preferences-schema.js';

/** The reference's slug rule: lowercase letters and digits in segments joined by single hyphens. */
const Slug = Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' });
const Name = Type.String({ minLength: 1, maxLength: 100 });
const Model = Nullable(Type.String({ minLength: 1, maxLength: 200 }));

/** The settings a create and an update both take (the reference's CreateWorkspaceRequest less name and slug). */
const Settings = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  default_text_model: Type.Optional(Model),
  default_image_model: Type.Optional(Model),
  default_provider_sort: Type.Optional(NullableStringEnum(SORT_KEYS)),
  io_logging_api_key_ids: Type.Optional(Nullable(Type.Array(Type.Integer(), { maxItems: 1000 }))),
  io_logging_sampling_rate: Type.Optional(Type.Number({ minimum: 0.0001, maximum: 1 })),
  is_data_discount_logging_enabled: Type.Optional(Type.Boolean()),
  is_observability_broadcast_enabled: Type.Optional(Type.Boolean()),
  is_observability_io_logging_enabled: Type.Optional(Type.Boolean()),
};

/** The reference's CreateWorkspaceRequest; a field it does not define is refused by name. */
export const CreateWorkspaceBody = Type.Object({ name: Name, slug: Slug, ...Settings }, { additionalProperties: false });

/** The reference's UpdateWorkspaceRequest: the fields given change, the rest stay. */
export const UpdateWorkspaceBody = Type.Object(
  { name: Type.Optional(Name), slug: Type.Optional(Slug), ...Settings },
  { additionalProperties: false },
);

/** `{id}`: the workspace's UUID or its slug. */
export const WorkspaceParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** The query of both lists (workspaces, a workspace's members): the reference's offset and limit (1 to 100). */
export const ListQuery = PageQuery(100);

/** What a list page holds when `limit` is not given (the reference's default). */
export const WORKSPACES_PAGE_SIZE = 50;

/** The reference's maxItems of `user_ids`. */
const UserIds = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100 });

/**
 * The reference's BulkAddWorkspaceMembersRequest. A member gets the role
 * matching their organization role (owner and admin: admin) unless `role`,
 * a gateway extension, names one for all of them.
 */
export const AddMembersBody = Type.Object(
  { user_ids: UserIds, role: Type.Optional(StringEnum(['admin', 'member'])) },
  { additionalProperties: false },
);

/** The reference's BulkRemoveWorkspaceMembersRequest. */
export const RemoveMembersBody = Type.Object({ user_ids: UserIds }, { additionalProperties: false });
