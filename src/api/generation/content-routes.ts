import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { findGenerationContent, insertGenerationFeedback } from '../../store/repositories/generation-contents.js';
import { findGeneration } from '../../store/repositories/generations.js';
import { findOrganizationSettings } from '../../store/repositories/organization-settings.js';
import { newUuid } from '../../util/ids.js';
import { managementReach } from '../../workspaces/management-reach.js';
import { toGenerationContent } from './content-record.js';
import { GenerationFeedbackBody, GenerationQuery } from './schemas.js';

/**
 * GET /generation/content: a generation's stored prompt and completion, only
 * while its organization stores content (organization settings'
 * store_content, off by default); a management key reads any generation of
 * the organization, another key only its own. POST /generation/feedback
 * (management keys, as the reference): feedback on a generation, kept.
 */
export function generationContentRoutes({ db, clock, auth }: Pick<Services, 'db' | 'clock' | 'auth'>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/generation/content', { onRequest: auth.requireKey, schema: { querystring: GenerationQuery } }, async (request) => {
      const key = callerKey(request);
      const { id } = request.query;
      if ((await findOrganizationSettings(db, key.organization_id))?.store_content !== 1) throw Errors.contentNotStored();
      const row = await findGeneration(db, managementReach(key), id);
      if (!row || (!key.is_management && row.api_key_hash !== key.hash)) throw Errors.notFound('Generation');
      const content = await findGenerationContent(db, key.organization_id, id);
      if (!content) throw Errors.noStoredContent(id);
      return { data: toGenerationContent(row, content) };
    });

    app.post(
      '/generation/feedback',
      { onRequest: auth.requireManagementKey, schema: { body: GenerationFeedbackBody } },
      async (request) => {
        const key = callerKey(request);
        const { generation_id, category, comment } = request.body;
        if (!(await findGeneration(db, managementReach(key), generation_id))) throw Errors.notFound(`Generation ${generation_id}`);
        await insertGenerationFeedback(db, {
          id: newUuid(),
          organization_id: key.organization_id,
          generation_id,
          api_key_hash: key.hash,
          category,
          comment: comment ?? null,
          created_at: clock().toISOString(),
        });
        return { data: { success: true } };
      },
    );
  };
}
