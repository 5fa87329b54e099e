import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { listGenerations } from '../../store/repositories/generations.js';
import { managementReach } from '../../workspaces/management-reach.js';
import { toGenerationRecord } from './generation-record.js';
import { ListGenerationsQuery } from './schemas.js';

const DEFAULT_PAGE = 50;

/** An ISO 8601 time as the ledger writes it (UTC, milliseconds), so that text comparison orders it. */
const ledgerTime = (iso: string | undefined) => (iso === undefined ? undefined : new Date(iso).toISOString());

/** GET /generations: the organization's ledger, newest first, for management keys (the console's generations page). */
export function generationListRoutes({ db, auth }: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/generations', { onRequest: auth.requireManagementKey, schema: { querystring: ListGenerationsQuery } }, async (request) => {
      const { api_key_hash, model, status, offset = 0, limit = DEFAULT_PAGE } = request.query;
      const from = ledgerTime(request.query.from);
      const to = ledgerTime(request.query.to);
      if (from !== undefined && to !== undefined && from >= to) throw Errors.invalidRequest('from must be earlier than to');
      // One row past the page says whether another page follows.
      const rows = await listGenerations(db, {
        reach: managementReach(callerKey(request)),
        ...(api_key_hash !== undefined ? { apiKeyHash: api_key_hash } : {}),
        ...(model !== undefined ? { model } : {}),
        ...(status !== undefined ? { status } : {}),
        ...(from !== undefined ? { from } : {}),
        ...(to !== undefined ? { to } : {}),
        offset,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      return { data: page.map((row) => ({ ...toGenerationRecord(row), api_key_hash: row.api_key_hash })), has_more: rows.length > limit };
    });
  };
}
