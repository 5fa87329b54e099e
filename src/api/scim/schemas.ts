import { Type } from 'typebox';
import { PageQuery, StringEnum } from '../../http/schema-helpers.js';

const Role = StringEnum(['admin', 'member'] as const);

export const SCIM_PAGE_SIZE = 50;
export const ScimPageQuery = PageQuery(100);

export const CreateMappingBody = Type.Object({
  scim_group_id: Type.String({ format: 'uuid' }),
  workspace_id: Type.String({ format: 'uuid' }),
  role: Role,
});

export const UpdateMappingBody = Type.Object({ role: Role });

export const MappingParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** Required, with no default: `false` removes the members the mapping granted, `true` keeps them as added by hand (the reference's rule). */
export const DeleteMappingQuery = Type.Object({ keep_members: Type.Boolean() });
