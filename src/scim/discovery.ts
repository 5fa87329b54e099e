import { GROUP_SCHEMA, USER_SCHEMA } from './resources.js';

/** RFC 7644 §4's discovery documents: what this service provider supports, for clients that ask first. */
export function serviceProviderConfig(documentationUri: string, maxResults: number) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'The SCIM token an organization admin creates (POST /api/v1/scim/token)',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig' },
  };
}

export function resourceTypes(base: string) {
  const type = (name: 'User' | 'Group', endpoint: string, schema: string) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: name,
    name,
    endpoint,
    schema,
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${name}` },
  });
  return [type('User', '/Users', USER_SCHEMA), type('Group', '/Groups', GROUP_SCHEMA)];
}
