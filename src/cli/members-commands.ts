import { toOrganizationMember } from '../api/organization/member-record.js';
import { ListMembersQuery, MEMBERS_PAGE_SIZE } from '../api/organization/schemas.js';
import type { Store } from '../store/database.js';
import { listMembers } from '../store/repositories/members.js';
import { checkAsApi } from './api-rules.js';
import { formatJson, formatTable } from './output.js';

export interface ListMembersOptions {
  offset?: string;
  limit?: string;
  json: boolean;
}

/** `model-gateway members list`: a page of the default organization's members, as `GET /organization/members` gives it. */
export async function listOrganizationMembers(store: Store, organizationId: string, options: ListMembersOptions): Promise<string> {
  const query = checkAsApi(
    ListMembersQuery,
    {
      ...(options.offset !== undefined ? { offset: options.offset } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
    },
    'querystring',
  );
  const offset = query.offset ?? 0;
  const { members, total } = await listMembers(store.db, organizationId, offset, query.limit ?? MEMBERS_PAGE_SIZE);
  const data = members.map(toOrganizationMember);
  if (options.json) return formatJson({ data, total_count: total });
  const table = formatTable(
    ['ID', 'EMAIL', 'FIRST NAME', 'LAST NAME', 'ROLE'],
    data.map((m) => [m.id, m.email, m.first_name, m.last_name, m.role]),
  );
  const shown = offset + data.length;
  return table + (shown < total ? `(${data.length} of ${total} shown; --offset ${shown} for more)\n` : '');
}
