/**
 * ## Simulator video knobs
 *
 * Set on the model name after `@`, e.g. `sora-2@render_ms=500,fail=1`, so they
 * travel through any gateway as the upstream model id.
 *
 * | Key              | Value    | Effect |
 * |------------------|----------|--------|
 * | `render_ms`      | ms       | Time from create until the video is completed (default 200); `in_progress` after the first tenth. |
 * | `fail`           | `1`      | The job ends `failed` when rendering would complete. |
 * | `rai`            | `1`      | Veo only: the operation ends done with every video filtered by Responsible AI. |
 * | `status`         | 400–599  | The create call (`POST /videos`, `:predictLongRunning`) answers with this status and the provider's error. |
 * | `content_status` | 400–599  | The download (`GET /videos/{id}/content`, the Veo file) answers with this status. |
 *
 * The same knobs work on OpenAI's Videos API and on Veo's long-running operations.
 */
export interface VideoKnobs {
  renderMs: number;
  fail: boolean;
  rai: boolean;
  status?: number;
  contentStatus?: number;
}

const statusValue = (raw: string) => {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 400 && n <= 599 ? n : undefined;
};

/** The knobs of a model name, or an error message for an unknown or invalid one. */
export function parseVideoKnobs(model: string): { ok: true; model: string; knobs: VideoKnobs } | { ok: false; message: string } {
  const [name = '', suffix] = model.split('@', 2);
  const knobs: VideoKnobs = { renderMs: 200, fail: false, rai: false };
  for (const pair of suffix ? suffix.split(',') : []) {
    const [key, raw = ''] = pair.split('=', 2);
    if (key === 'render_ms' && /^\d+$/.test(raw)) knobs.renderMs = Number(raw);
    else if (key === 'fail' && (raw === '1' || raw === 'true')) knobs.fail = true;
    else if (key === 'rai' && (raw === '1' || raw === 'true')) knobs.rai = true;
    else if (key === 'status' && statusValue(raw) !== undefined) knobs.status = statusValue(raw);
    else if (key === 'content_status' && statusValue(raw) !== undefined) knobs.contentStatus = statusValue(raw);
    else return { ok: false, message: `Invalid simulator video knob: ${pair}` };
  }
  return { ok: true, model: name, knobs };
}
