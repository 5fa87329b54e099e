import type { VideoJobRow } from '../../store/repositories/video-jobs.js';
import { isTerminal } from '../../videos/job-state.js';

/**
 * A job as the reference's VideoGenerationResponse shows it: the generation id
 * once it ended, and the content URLs (the gateway's own download route: the
 * upstream's need its credentials) and cost once completed.
 */
export function toJobRecord(job: VideoJobRow, apiBase: string) {
  const pollingUrl = `${apiBase}/videos/${job.id}`;
  const completed = job.status === 'completed';
  return {
    id: job.id,
    polling_url: pollingUrl,
    status: job.status,
    ...(job.error !== null && job.status !== 'completed' ? { error: job.error } : {}),
    ...(isTerminal(job.status) ? { generation_id: job.generation_id } : {}),
    ...(completed ? { unsigned_urls: Array.from({ length: job.outputs ?? 1 }, (_, i) => `${pollingUrl}/content?index=${i}`) } : {}),
    ...(completed ? { usage: { cost: job.cost ?? 0, is_byok: job.credential_id !== null } } : {}),
  };
}
