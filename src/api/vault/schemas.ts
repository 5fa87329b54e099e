import { Type } from 'typebox';
import { PageQuery } from '../../http/schema-helpers.js';

/** The SDK's secret name rule: lowercase letters, digits and single underscores, a letter first, no trailing underscore. */
export const SecretName = Type.String({ minLength: 1, maxLength: 255, pattern: '^[a-z](?:_?[a-z0-9])*$' });

export const SecretParams = Type.Object({ name: SecretName });
export const InternSecretParams = Type.Object({ internId: Type.String({ minLength: 1, maxLength: 256 }), name: SecretName });
export const InternVaultParams = Type.Object({ internId: Type.String({ minLength: 1, maxLength: 256 }) });

export const WriteSecretBody = Type.Object(
  {
    value: Type.String({ minLength: 1, maxLength: 65_536 }),
    hosts: Type.Array(Type.String({ maxLength: 253 }), { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);

export const CopySecretsBody = Type.Object(
  { names: Type.Array(SecretName, { minItems: 1, maxItems: 100, uniqueItems: true }) },
  { additionalProperties: false },
);

const WorkspaceId = Type.Optional(Type.String({ minLength: 1, maxLength: 100 }));

/** A workspace's secrets are the key's workspace's, unless a management key names another it reaches. */
export const WorkspaceQuery = Type.Object({ workspace_id: WorkspaceId });

export const ListSecretsQuery = PageQuery(100);
export const ListWorkspaceSecretsQuery = Type.Object({ ...ListSecretsQuery.properties, workspace_id: WorkspaceId });
