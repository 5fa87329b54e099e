import type { WorkspaceRole } from '../store/schema.js';

/**
 * Which workspace memberships SCIM group mappings grant, and what must change for the table to say
 * so. Pure: the repository reads the rows, this plans, the repository writes the plan.
 */
export interface MappingGrant {
  groupId: string;
  workspaceId: string;
  role: WorkspaceRole;
}

export interface GroupMember {
  groupId: string;
  userId: string;
}

export interface Membership {
  workspaceId: string;
  userId: string;
  role: WorkspaceRole;
}

export interface CurrentMembership extends Membership {
  /** Granted by a mapping (SCIM may change or remove it), or added by hand (SCIM leaves it alone). */
  scimManaged: boolean;
}

export interface MembershipPlan {
  insert: Membership[];
  /** Memberships SCIM granted whose role changes. */
  update: Membership[];
  remove: { workspaceId: string; userId: string }[];
}

const pairKey = (workspaceId: string, userId: string) => `${workspaceId}\n${userId}`;

/** The memberships the mappings grant to the active users among the groups' members; the highest role wins. */
export function grantedMemberships(mappings: MappingGrant[], members: GroupMember[], active: ReadonlySet<string>): Membership[] {
  const byGroup = new Map<string, MappingGrant[]>();
  for (const mapping of mappings) byGroup.set(mapping.groupId, [...(byGroup.get(mapping.groupId) ?? []), mapping]);
  const granted = new Map<string, Membership>();
  for (const member of members) {
    if (!active.has(member.userId)) continue;
    for (const mapping of byGroup.get(member.groupId) ?? []) {
      const key = pairKey(mapping.workspaceId, member.userId);
      if (granted.get(key)?.role === 'admin') continue;
      granted.set(key, { workspaceId: mapping.workspaceId, userId: member.userId, role: mapping.role });
    }
  }
  return [...granted.values()];
}

/**
 * Brings the affected users' memberships to what is granted: a missing one is added, one SCIM
 * granted gets the granted role or goes when no longer granted; one added by hand stays as it is.
 */
export function planMemberships(granted: Membership[], current: CurrentMembership[]): MembershipPlan {
  const now = new Map(current.map((row) => [pairKey(row.workspaceId, row.userId), row]));
  const wanted = new Set(granted.map((row) => pairKey(row.workspaceId, row.userId)));
  const plan: MembershipPlan = { insert: [], update: [], remove: [] };
  for (const grant of granted) {
    const row = now.get(pairKey(grant.workspaceId, grant.userId));
    if (!row) plan.insert.push(grant);
    else if (row.scimManaged && row.role !== grant.role) plan.update.push(grant);
  }
  for (const row of current) {
    if (row.scimManaged && !wanted.has(pairKey(row.workspaceId, row.userId)))
      plan.remove.push({ workspaceId: row.workspaceId, userId: row.userId });
  }
  return plan;
}
