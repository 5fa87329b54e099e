import { PageQuery } from '../../http/schema-helpers.js';

export const ListMembersQuery = PageQuery(100);

/** Members a page holds when `limit` is not given. */
export const MEMBERS_PAGE_SIZE = 50;
