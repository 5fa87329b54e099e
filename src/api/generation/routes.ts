import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { findGeneration } from '../../store/repositories/generations.js';
import { managementReach } from '../../workspaces/management-reach.js';
import { toGenerationRecord } from './generation-record.js';
import { GenerationQuery } from './schemas.js';

export function generationRoutes({ db, auth }: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/generation', { onRequest: auth.requireKey, schema: { querystring: GenerationQuery } }, async (request) => {
      const row = await findGeneration(db, managementReach(callerKey(request)), request.query.id);
      if (!row) throw Errors.notFound('Generation');
      return { data: toGenerationRecord(row) };
    });
  };
}
