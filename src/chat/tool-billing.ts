import type { ToolBilling } from '../plugins/server-tools/server-tool.js';
import { newGenerationId } from '../util/ids.js';
import type { ChatRun } from './run.js';
import type { ChatServices } from './run-services.js';

/**
 * Billing of a run's server tools' own work (code runs): each piece holds
 * its most possible cost against the run's key before it starts, then is
 * recorded as a ledger row of its own (charged to the same key, linked to
 * the run by parent_generation_id) and the hold settled to its cost, as an
 * inner call is.
 */
export function toolBilling(services: Pick<ChatServices, 'spend' | 'ledger' | 'clock'>, run: ChatRun): ToolBilling {
  const { key } = run;
  return {
    organizationId: key.organization_id,
    workspaceId: key.workspace_id,
    keyHash: key.hash,
    async hold(usd) {
      const startedAt = services.clock();
      const id = newGenerationId(startedAt);
      const reservation = await services.spend.reserve(key, () => ({ usd }), { id });
      return {
        async charge(charge) {
          const now = services.clock();
          await services.ledger.record({
            id,
            organization_id: key.organization_id,
            workspace_id: key.workspace_id,
            api_key_hash: key.hash,
            request_id: run.requestId,
            upstream_id: null,
            model: charge.model,
            provider_name: null,
            upstream_model: null,
            app_id: key.app_id,
            external_user: key.external_user,
            user_hash: run.endUserId,
            session_id: run.request.session_id ?? null,
            api_type: charge.apiType,
            status: charge.status,
            streamed: 0,
            cancelled: 0,
            finish_reason: null,
            native_finish_reason: null,
            service_tier: null,
            total_cost: charge.cost,
            cache_discount: 0,
            latency_ms: now.getTime() - startedAt.getTime(),
            ttft_ms: null,
            generation_time_ms: null,
            error_code: null,
            error_message: charge.errorMessage ?? null,
            routing: JSON.stringify(charge.details),
            origin: run.origin,
            app_title: run.appTitle ?? null,
            user_agent: run.userAgent,
            created_at: startedAt.toISOString(),
            parent_generation_id: run.id,
          });
          // The row is committed: the hold becomes its cost.
          void reservation.settle(charge.cost);
        },
        release: () => reservation.release(),
      };
    },
  };
}
