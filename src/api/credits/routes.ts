import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CREDITS_TOPIC } from '../../credits/credits-cache.js';
import { creditTotals, grantCredits } from '../../credits/grant-credits.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { listCreditGrants } from '../../store/repositories/credit-grants.js';
import { findOrganization } from '../../store/repositories/organizations.js';
import { managementReach, requireOrganizationReach } from '../../workspaces/management-reach.js';
import { toGrantRecord } from './grant-record.js';
import { GRANTS_PAGE_SIZE, GrantCreditsBody, ListGrantsQuery } from './schemas.js';

/**
 * GET /credits (the reference's: management keys) and this gateway's grants:
 * POST /credits/grants, by the operator (a management key of the default
 * organization) for any organization, and GET /credits/grants, an
 * organization's own. A grant reaches every instance's CreditsCache through
 * the change feed.
 */
export function creditsRoutes({
  db,
  clock,
  auth,
  changes,
}: Pick<Services, 'db' | 'clock' | 'auth' | 'changes'>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/credits', { onRequest: auth.requireManagementKey }, async (request) => ({
      data: await creditTotals(db, managementReach(callerKey(request))),
    }));

    app.post('/credits/grants', { onRequest: auth.requireManagementKey, schema: { body: GrantCreditsBody } }, async (request, reply) => {
      const caller = callerKey(request);
      requireOrganizationReach(managementReach(caller), 'grant credits');
      if ((await findOrganization(db, caller.organization_id))?.is_default !== 1) throw Errors.operatorKeyRequired('grant credits');
      const { amount, note, organization_id } = request.body;
      const organizationId = organization_id ?? caller.organization_id;
      const { grant } = await grantCredits(
        db,
        { organizationId, amountUsd: amount, note: note ?? null, grantedBy: `key:${caller.hash}` },
        clock(),
      );
      await changes.publish(CREDITS_TOPIC, organizationId);
      return reply.code(201).send({ data: toGrantRecord(grant) });
    });

    app.get('/credits/grants', { onRequest: auth.requireManagementKey, schema: { querystring: ListGrantsQuery } }, async (request) => {
      const caller = callerKey(request);
      requireOrganizationReach(managementReach(caller), "list the organization's credit grants");
      const { grants, total } = await listCreditGrants(
        db,
        caller.organization_id,
        request.query.offset ?? 0,
        request.query.limit ?? GRANTS_PAGE_SIZE,
      );
      return { data: grants.map(toGrantRecord), total_count: total };
    });
  };
}
