import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasBearerToken, isRevokedKey, parseJson, readBody, type SimContext } from '../chat-route.js';
import { sendError, sendJson } from '../deliver.js';
import { SimErrors } from '../openai-errors.js';
import { fixtureMp4 } from './fixture-mp4.js';
import { parseVideoKnobs, type VideoKnobs } from './video-knobs.js';

interface SimVideo {
  id: string;
  model: string;
  seconds: string;
  size: string;
  createdAt: number;
  knobs: VideoKnobs;
  /** The Authorization that made it: as OpenAI's, a video is only seen with the key (the project) that made it. */
  owner: string;
}

/** The jobs of one simulator, kept in memory for its lifetime. */
export type SimVideos = Map<string, SimVideo>;

/** OpenAI's video object at `now`: queued, then in_progress, then completed or failed once render_ms passed. */
function videoObject(video: SimVideo, now: number) {
  const elapsed = now - video.createdAt;
  const done = elapsed >= video.knobs.renderMs;
  const status = done ? (video.knobs.fail ? 'failed' : 'completed') : elapsed >= video.knobs.renderMs / 10 ? 'in_progress' : 'queued';
  return {
    id: video.id,
    object: 'video',
    model: video.model,
    status,
    progress: done ? 100 : Math.floor((100 * elapsed) / Math.max(video.knobs.renderMs, 1)),
    created_at: Math.floor(video.createdAt / 1000),
    completed_at: status === 'completed' ? Math.floor((video.createdAt + video.knobs.renderMs) / 1000) : null,
    expires_at: null,
    seconds: video.seconds,
    size: video.size,
    remixed_from_video_id: null,
    error: status === 'failed' ? { code: 'video_generation_failed', message: 'The simulated render failed' } : null,
  };
}

const SECONDS = ['4', '8', '12'];
const SIZES = ['720x1280', '1280x720', '1024x1792', '1792x1024'];

/** The JSON form of `input_reference`: an image URL (or data URL), or an uploaded file's id. */
const isImageReference = (v: unknown) =>
  typeof v === 'object' &&
  v !== null &&
  (typeof (v as { image_url?: unknown }).image_url === 'string' || typeof (v as { file_id?: unknown }).file_id === 'string');

const PATH = /^\/v1\/videos(?:\/([^/]+)(\/content)?)?$/;

/** Whether a request is for OpenAI's Videos API: `POST /v1/videos`, `GET /v1/videos/{id}`, `GET /v1/videos/{id}/content`. */
export const matchVideoCall = (method: string, path: string) => {
  const m = PATH.exec(path);
  if (!m) return undefined;
  const [, id, content] = m;
  if (method === 'POST' && id === undefined) return { op: 'create' as const };
  if (method === 'GET' && id !== undefined)
    return { op: content ? ('content' as const) : ('retrieve' as const), id: decodeURIComponent(id) };
  return undefined;
};

export async function handleVideoCall(
  req: IncomingMessage,
  res: ServerResponse,
  { stats, videos }: SimContext & { videos: SimVideos },
  call: NonNullable<ReturnType<typeof matchVideoCall>>,
): Promise<void> {
  const raw = call.op === 'create' ? await readBody(req) : '';
  const authorization = req.headers.authorization;
  if (!hasBearerToken(authorization)) return sendError(res, SimErrors.missingApiKey());
  if (isRevokedKey(authorization)) return sendError(res, SimErrors.revokedApiKey());
  const now = Date.now();
  if (call.op === 'create') {
    const body = parseJson(raw);
    stats.recordChatRequest(body.ok ? body.value : raw, req.headers);
    if (!body.ok) return sendError(res, SimErrors.unparseableJson());
    const { model, prompt, seconds = '4', size = '720x1280', input_reference } = body.value as Record<string, unknown>;
    if (typeof model !== 'string') return sendError(res, SimErrors.missingModel());
    if (typeof prompt !== 'string') return sendError(res, SimErrors.missingParameter('prompt'));
    if (!SECONDS.includes(String(seconds))) return sendError(res, SimErrors.invalidValue('seconds', String(seconds), SECONDS));
    if (!SIZES.includes(String(size))) return sendError(res, SimErrors.invalidValue('size', String(size), SIZES));
    if (input_reference !== undefined && !isImageReference(input_reference)) {
      return sendError(res, SimErrors.invalidType('input_reference', 'an object with image_url or file_id', typeof input_reference));
    }
    const parsed = parseVideoKnobs(model);
    if (!parsed.ok) return sendError(res, SimErrors.invalidKnob(parsed.message));
    if (parsed.knobs.status) return sendError(res, SimErrors.simulatedStatus(parsed.knobs.status, parsed.model));
    const video: SimVideo = {
      id: `video_${randomBytes(12).toString('hex')}`,
      model,
      seconds: String(seconds),
      size: String(size),
      createdAt: now,
      knobs: parsed.knobs,
      owner: authorization,
    };
    videos.set(video.id, video);
    return sendJson(res, 200, JSON.stringify(videoObject(video, now)));
  }
  const video = videos.get(call.id);
  if (!video || video.owner !== authorization) return sendError(res, SimErrors.invalidUrl(req.method ?? '', `/v1/videos/${call.id}`));
  if (call.op === 'retrieve') return sendJson(res, 200, JSON.stringify(videoObject(video, now)));
  if (video.knobs.contentStatus) return sendError(res, SimErrors.simulatedStatus(video.knobs.contentStatus, video.model));
  if (videoObject(video, now).status !== 'completed') return sendError(res, SimErrors.invalidUrl('GET', `/v1/videos/${call.id}/content`));
  const mp4 = fixtureMp4();
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(mp4.length) });
  res.end(mp4);
}
