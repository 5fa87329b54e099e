import { checkVideoSeconds } from '../accounting/check-usage.js';
import { isRefusedCredential } from '../chat/retry-policy.js';
import { UpstreamError } from '../protocol/upstream.js';
import type { VideoRequest } from '../protocol/video-request.js';
import { type JobRoute, releaseVideoJob, type VideoJobRow } from '../store/repositories/video-jobs.js';
import { advanceJob, isTerminal, type PollOutcome } from './job-state.js';
import { settleVideoJob } from './settle-video-job.js';
import { toUpstreamVideoRequest } from './upstream-video-request.js';
import { videoCost } from './video-cost.js';
import { videoLedgerRow } from './video-ledger-row.js';
import type { VideoServices } from './video-services.js';
import { videoTarget } from './video-target.js';

/** Upstream answers that will not change on a retry: the request itself was refused. */
const isPermanent = (error: unknown) =>
  error instanceof UpstreamError &&
  error.failure === 'status' &&
  error.details.status !== undefined &&
  error.details.status < 500 &&
  error.details.status !== 429;

/** A fallback attempt as the job stores it (jobs stored before migration 0049 have no credential_id: the gateway's own). */
type PlannedEndpoint = Pick<JobRoute, 'provider' | 'upstream_model'> & { credential_id?: string | null };

/**
 * One poll of a job this instance holds the lease of: submit it if the
 * upstream has not got it yet, otherwise ask how it is going; then store the
 * next state, with the charge when it just completed, or the next planned
 * endpoint when this one could not take the job. A job submitted but not
 * stored (crash in between) is submitted again: an upstream cost the key
 * never pays.
 */
export async function pollJob(services: VideoServices, job: VideoJobRow, token: string, signal: AbortSignal): Promise<void> {
  const found = videoTarget(services, job);
  const request = JSON.parse(job.request) as VideoRequest;
  const fallbacks = JSON.parse(job.fallbacks) as PlannedEndpoint[];
  let outcome: PollOutcome;
  if (!found) {
    const on = job.credential_id === null ? '' : ' on the BYOK credential it was submitted on';
    outcome = { ok: false, retryable: false, message: `Model ${job.model} is no longer served by ${job.provider}${on}` };
  } else {
    try {
      const context = { signal };
      const state = job.upstream_id
        ? await found.adapter.retrieve(job.upstream_id, found.target, context)
        : await found.adapter.create(
            toUpstreamVideoRequest(request, job.provider, found.adapter.referenceSlug, found.options.passthrough),
            found.target,
            context,
          );
      outcome = { ok: true, state };
    } catch (error) {
      // Stopping: the lease goes back and another instance (or this one restarted) polls the job again.
      if (signal.aborted) return releaseVideoJob(services.db, { id: job.id, token, now: services.clock() });
      // As a chat's: a BYOK credential the provider refuses moves the job on to the plan's next attempt.
      const refused = job.credential_id !== null && fallbacks.length > 0 && isRefusedCredential(error);
      outcome = { ok: false, retryable: refused || !isPermanent(error), message: error instanceof Error ? error.message : String(error) };
    }
  }
  const now = services.clock();
  const change = advanceJob({ ...job, fallbacks }, outcome, now, services.policy);
  let charge = null;
  if (change.charge && found) {
    // The seconds the upstream reported are billed only when they can be what was asked.
    const asked = {
      seconds: request.duration,
      defaultSeconds: found.options.defaultDuration,
      longestSeconds: Math.max(...found.options.durations),
    };
    const { seconds, estimated } = checkVideoSeconds(change.seconds, asked);
    const outputs = change.outputs ?? 1;
    change.seconds = seconds;
    const cost = videoCost(found.endpoint.pricing, seconds * outputs, request);
    const feeRate = services.byokFeeRate ?? 0;
    charge = videoLedgerRow({ ...job, upstream_id: change.upstream_id }, { seconds, outputs, cost, now, estimated, feeRate });
  } else if (isTerminal(change.status)) {
    const failure = { status: change.status === 'cancelled' ? 'cancelled' : 'error', message: change.error ?? change.status } as const;
    charge = videoLedgerRow({ ...job, upstream_id: change.upstream_id }, { seconds: 0, outputs: 0, cost: 0, now, failure });
  }
  const [next, ...rest] = fallbacks;
  const route =
    change.fallback && next
      ? {
          provider: next.provider,
          upstream_model: next.upstream_model,
          credential_id: next.credential_id ?? null,
          fallbacks: JSON.stringify(rest),
        }
      : undefined;
  const settled = await settleVideoJob(services.db, {
    id: job.id,
    token,
    change,
    charge,
    ...(route ? { route } : {}),
    now,
    extra: services.ledgerExtra,
  });
  // The job ended and its row (a charge, or a failure at no cost) is committed: its reservation becomes that cost.
  if (settled && charge) await services.spend.settleById(job.id, charge.total_cost ?? 0, charge.byok_cost ?? 0);
}
