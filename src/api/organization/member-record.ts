import type { Member } from '../../store/repositories/members.js';

/** A member in the reference's shape (`GET /organization/members`): it knows two roles, and an owner is an admin there. */
export const toOrganizationMember = (m: Member) => ({
  id: m.id,
  email: m.email,
  first_name: m.first_name,
  last_name: m.last_name,
  role: m.role === 'member' ? 'org:member' : 'org:admin',
});
