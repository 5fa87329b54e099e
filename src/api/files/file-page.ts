import type { Kysely } from 'kysely';
import { Errors } from '../../http/errors.js';
import type { CreationOrderPage } from '../../store/creation-order-page.js';
import { findFile } from '../../store/repositories/files.js';
import type { Database } from '../../store/schema.js';
import { FILES_PAGE_SIZE } from './schemas.js';

interface PageQuery {
  limit?: number;
  cursor?: string;
  after?: string;
  after_id?: string;
  before_id?: string;
  order?: 'asc' | 'desc';
}

/** The file a `cursor` of a previous page stands for; 400 for one this list did not give. */
function cursorAfter(cursor: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown };
    if (typeof parsed.after === 'string' && parsed.after.length > 0) return parsed.after;
  } catch {
    // not JSON: refused below
  }
  throw Errors.invalidRequest('cursor: not a cursor this list gave; pass the `cursor` of the previous page as it is');
}

/**
 * The page a list asks for: `limit` (100 unless given), `order` (oldest
 * first unless `desc`), and where it starts: after the file an opaque
 * `cursor`, OpenAI's `after` or Anthropic's `after_id` names (one of
 * them); that file must be one of the workspace's. `before_id` pages
 * backwards, which the reference's own storage does not do either.
 */
export async function filePage(db: Kysely<Database>, workspaceId: string, query: PageQuery): Promise<CreationOrderPage> {
  if (query.before_id !== undefined)
    throw Errors.invalidRequest('before_id: paging backwards is not supported; use after (or cursor) with order');
  const given = (['cursor', 'after', 'after_id'] as const).filter((name) => query[name] !== undefined);
  if (given.length > 1) throw Errors.invalidRequest(`${given.join(' and ')}: name where the page starts once`);
  const afterId = query.cursor !== undefined ? cursorAfter(query.cursor) : (query.after ?? query.after_id);
  const page: CreationOrderPage = { limit: query.limit ?? FILES_PAGE_SIZE, order: query.order ?? 'asc' };
  if (afterId === undefined) return page;
  const after = await findFile(db, workspaceId, afterId);
  if (!after) throw Errors.invalidRequest(`${given[0]}: no file ${afterId.slice(0, 128)} in this workspace to list after`);
  return { ...page, after };
}
