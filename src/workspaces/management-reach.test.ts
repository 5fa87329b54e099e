import { describe, expect, it } from 'vitest';
import { keyInReach, managementReach, newManagementScope, requireOrganizationReach, workspaceInReach } from './management-reach.js';

const organizationKey = { organization_id: 'org', workspace_id: 'w1', is_management: 1, management_scope: null } as const;
const scopedKey = { ...organizationKey, management_scope: 'workspace' } as const;
const org = managementReach(organizationKey);
const w1 = managementReach(scopedKey);

describe('managementReach', () => {
  it('reaches the organization, or one workspace when scoped', () => {
    expect(org).toEqual({ organizationId: 'org', workspaceId: null });
    expect(w1).toEqual({ organizationId: 'org', workspaceId: 'w1' });
  });

  it('names the workspace of a list or a creation: a scoped key its own, another as absent', () => {
    expect(workspaceInReach(org, undefined)).toBeUndefined();
    expect(workspaceInReach(org, 'w2')).toBe('w2');
    expect(workspaceInReach(w1, undefined)).toBe('w1');
    expect(workspaceInReach(w1, 'w1')).toBe('w1');
    expect(() => workspaceInReach(w1, 'w2')).toThrow('Workspace w2 not found');
  });

  it('keeps the organization’s management keys from a scoped key, even in its workspace', () => {
    const worker = { workspace_id: 'w1', is_management: 0, management_scope: null } as const;
    expect(keyInReach(w1, worker)).toBe(worker);
    expect(keyInReach(w1, { ...worker, workspace_id: 'w2' })).toBeUndefined();
    expect(keyInReach(w1, { ...worker, is_management: 1 })).toBeUndefined();
    expect(keyInReach(w1, { ...worker, is_management: 1, management_scope: 'workspace' })).toBeDefined();
    expect(keyInReach(org, { ...worker, is_management: 1, workspace_id: 'w2' })).toBeDefined();
  });

  it('refuses a scoped key the organization’s operations with 403', () => {
    expect(() => requireOrganizationReach(org, 'grant credits')).not.toThrow();
    expect(() => requireOrganizationReach(w1, 'grant credits')).toThrow(
      expect.objectContaining({ statusCode: 403, code: 'GW_ERR_ORGANIZATION_KEY_REQUIRED' }),
    );
  });
});

describe('newManagementScope', () => {
  it('gives the operator’s and an organization admin’s key the organization unless asked for one workspace', () => {
    expect(newManagementScope(false, undefined)).toBeNull();
    expect(newManagementScope(true, undefined)).toBe('workspace');
    expect(newManagementScope(false, { userId: 'u', organizationRole: 'admin', workspaceRole: 'admin' })).toBeNull();
    expect(newManagementScope(false, { userId: 'u', organizationRole: 'owner', workspaceRole: undefined })).toBeNull();
  });

  it('scopes a workspace admin’s key to the workspace, and refuses one for anyone else', () => {
    expect(newManagementScope(false, { userId: 'u', organizationRole: 'member', workspaceRole: 'admin' })).toBe('workspace');
    expect(() => newManagementScope(false, { userId: 'u', organizationRole: 'member', workspaceRole: 'member' })).toThrow(
      "creator_user_id u is not an admin of the key's workspace",
    );
    expect(() => newManagementScope(true, { userId: 'u', organizationRole: 'member', workspaceRole: undefined })).toThrow(/not an admin/);
  });
});
