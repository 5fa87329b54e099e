import { PageQuery } from '../../http/schema-helpers.js';

export const ListMembersQuery = PageQuery(100);
