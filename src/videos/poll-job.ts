import { UpstreamError } from '../providers/types.js';
import { settleVideoJob, type VideoJobRow } from '../store/repositories/video-jobs.js';
import { advanceJob, type PollOutcome } from './job-state.js';
import type { VideoRequest } from './video-request.js';
import type { VideoServices } from './video-services.js';
import { videoCost } from './video-cost.js';
import { videoLedgerRow } from './video-ledger-row.js';
import { videoTarget } from './video-target.js';

/** Upstream answers that will not change on a retry: the request itself was refused. */
const isPermanent = (error: unknown) =>
  error instanceof UpstreamError && error.failure === 'status' && error.details.status !== undefined && error.details.status < 500 && error.details.status !== 429;

/**
 * One poll of a job this instance holds the lease of: submit it if the
 * upstream has not got it yet, otherwise ask how it is going; then store the
 * next state, with the charge when it just completed. A job submitted but not
 * stored (crash in between) is submitted again: an upstream cost the key never pays.
 */
export async function pollJob(services: VideoServices, job: VideoJobRow, token: string, signal: AbortSignal): Promise<void> {
  const found = videoTarget(services, job);
  let outcome: PollOutcome;
  if (!found) {
    outcome = { ok: false, retryable: false, message: `Model ${job.model} is no longer served by ${job.provider}` };
  } else {
    try {
      const context = { signal };
      const state = job.upstream_id
        ? await found.adapter.retrieve(job.upstream_id, found.target, context)
        : await found.adapter.create(JSON.parse(job.request) as VideoRequest, found.target, context);
      outcome = { ok: true, state };
    } catch (error) {
      if (signal.aborted) return; // stopping: the lease lapses and another poll takes over
      outcome = { ok: false, retryable: !isPermanent(error), message: error instanceof Error ? error.message : String(error) };
    }
  }
  const now = services.clock();
  const change = advanceJob(job, outcome, now, services.policy);
  let charge = null;
  if (change.charge && found) {
    const requested = (JSON.parse(job.request) as VideoRequest).duration;
    const seconds = change.seconds ?? requested ?? 0;
    change.seconds = seconds;
    charge = videoLedgerRow({ ...job, upstream_id: change.upstream_id }, { seconds, cost: videoCost(found.endpoint.pricing, seconds), now });
  }
  await settleVideoJob(services.db, { id: job.id, token, change, charge, now });
}
