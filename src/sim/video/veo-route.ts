import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson, readBody, type SimContext } from '../chat-route.js';
import { sendJson } from '../deliver.js';
import { type GoogleError, GoogleErrors } from '../gemini/google-errors.js';
import { fixtureMp4 } from './fixture-mp4.js';
import { readVeoRequest } from './read-veo-request.js';
import { parseVideoKnobs, type VideoKnobs } from './video-knobs.js';

interface SimOperation {
  id: string;
  /** The model without its knobs, as the operation's name shows it. */
  model: string;
  createdAt: number;
  knobs: VideoKnobs;
  /** One file a video, with the token its signed storage URL carries. */
  files: { id: string; token: string }[];
  cancelled: boolean;
}

/** The operations and files of one simulator, kept in memory for its lifetime. */
export interface SimVeo {
  operations: Map<string, SimOperation>;
  files: Map<string, { operation: SimOperation; token: string }>;
}

export const newSimVeo = (): SimVeo => ({ operations: new Map(), files: new Map() });

const RESPONSE_TYPE = 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse';

/**
 * google.longrunning.Operation at `now`: the name alone while rendering (JSON
 * leaves out a false `done`), then done with an error (code 13, or 1 once
 * cancelled), with every video filtered (`rai`), or with one file URI per video.
 */
function operationAt(op: SimOperation, now: number, origin: string) {
  const name = `models/${op.model}/operations/${op.id}`;
  if (op.cancelled) return { name, done: true, error: { code: 1, message: 'Operation cancelled.' } };
  if (now - op.createdAt < op.knobs.renderMs) return { name };
  if (op.knobs.fail) return { name, done: true, error: { code: 13, message: 'The simulated render failed' } };
  const generateVideoResponse = op.knobs.rai
    ? {
        raiMediaFilteredCount: op.files.length,
        raiMediaFilteredReasons: ['The simulated video was filtered by Responsible AI checks.'],
      }
    : { generatedSamples: op.files.map((file) => ({ video: { uri: `${origin}/v1beta/files/${file.id}:download?alt=media` } })) };
  return { name, done: true, response: { '@type': RESPONSE_TYPE, generateVideoResponse } };
}

const PATHS = [
  { op: 'create', method: 'POST', pattern: /^\/v1beta\/models\/([^/]+):predictLongRunning$/ },
  { op: 'operation', method: 'GET', pattern: /^\/v1beta\/models\/[^/]+\/operations\/([^/:]+)$/ },
  { op: 'cancel', method: 'POST', pattern: /^\/v1beta\/models\/[^/]+\/operations\/([^/:]+):cancel$/ },
  { op: 'download', method: 'GET', pattern: /^\/v1beta\/files\/([^/:]+):download$/ },
  { op: 'storage', method: 'GET', pattern: /^\/storage\/veo\/([^/]+)\.mp4$/ },
] as const;

export type VeoCall = { op: (typeof PATHS)[number]['op']; id: string };

/**
 * Whether a request is for Veo on the Gemini API: `:predictLongRunning`, an
 * operation's GET or `:cancel`, a file's `:download`, or the storage the
 * download redirects to.
 */
export function matchVeoCall(method: string, path: string): VeoCall | undefined {
  for (const { op, method: m, pattern } of PATHS) {
    const match = method === m ? pattern.exec(path) : null;
    if (match) return { op, id: decodeURIComponent(match[1] ?? '') };
  }
  return undefined;
}

const sendGoogleError = (res: ServerResponse, error: GoogleError) => sendJson(res, error.status, JSON.stringify(error.body));
const notFound = (what: string) => ({ status: 404, body: { error: { code: 404, message: `${what} not found.`, status: 'NOT_FOUND' } } });

/**
 * Veo's protocol: create answers the operation's name; the operation is
 * done once `render_ms` passed; each video's file downloads (with the key,
 * `alt=media`) through a redirect to a signed storage URL that needs none,
 * as Google's files do.
 */
export async function handleVeoCall(
  req: IncomingMessage,
  res: ServerResponse,
  context: SimContext & { veo: SimVeo },
  call: VeoCall,
): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'sim'}`);
  const raw = req.method === 'POST' ? await readBody(req) : '';
  if (call.op === 'storage') return serveStorage(res, context.veo, call.id, url.searchParams.get('token'));
  if (!(req.headers['x-goog-api-key'] ?? url.searchParams.get('key'))) return sendGoogleError(res, GoogleErrors.missingApiKey());
  const now = Date.now();

  if (call.op === 'create') {
    const body = parseJson(raw);
    context.stats.recordChatRequest(body.ok ? body.value : raw, req.headers);
    if (!body.ok) return sendGoogleError(res, GoogleErrors.invalidJson('Unexpected token.'));
    const parsed = parseVideoKnobs(call.id);
    if (!parsed.ok) return sendGoogleError(res, GoogleErrors.invalidArgument(parsed.message));
    if (parsed.knobs.status) return sendGoogleError(res, GoogleErrors.simulatedStatus(parsed.knobs.status, parsed.model));
    const read = readVeoRequest(body.value);
    if (!read.ok) return sendGoogleError(res, read.error);
    const files = Array.from({ length: read.request.samples }, () => ({
      id: randomBytes(6).toString('hex'),
      token: randomBytes(8).toString('hex'),
    }));
    const op: SimOperation = {
      id: randomBytes(6).toString('hex'),
      model: parsed.model,
      createdAt: now,
      knobs: parsed.knobs,
      files,
      cancelled: false,
    };
    context.veo.operations.set(op.id, op);
    for (const file of files) context.veo.files.set(file.id, { operation: op, token: file.token });
    return sendJson(res, 200, JSON.stringify({ name: `models/${op.model}/operations/${op.id}` }));
  }

  if (call.op === 'download') {
    const file = context.veo.files.get(call.id);
    if (!file || operationAt(file.operation, now, url.origin).done !== true) return sendGoogleError(res, notFound(`File ${call.id}`));
    if (file.operation.knobs.contentStatus)
      return sendGoogleError(res, GoogleErrors.simulatedStatus(file.operation.knobs.contentStatus, file.operation.model));
    if (url.searchParams.get('alt') !== 'media')
      return sendGoogleError(res, GoogleErrors.invalidArgument('sim: files are downloaded with alt=media'));
    res.writeHead(302, { location: `${url.origin}/storage/veo/${call.id}.mp4?token=${file.token}` });
    return void res.end();
  }

  const op = context.veo.operations.get(call.id);
  if (!op) return sendGoogleError(res, notFound(`Operation ${call.id}`));
  if (call.op === 'cancel') {
    if (operationAt(op, now, url.origin).done !== true) op.cancelled = true;
    return sendJson(res, 200, '{}');
  }
  return sendJson(res, 200, JSON.stringify(operationAt(op, now, url.origin)));
}

/** The signed storage URL a download redirects to: the token is the credential, no key. */
function serveStorage(res: ServerResponse, veo: SimVeo, id: string, token: string | null): void {
  const file = veo.files.get(id);
  if (!file || file.token !== token) {
    res.writeHead(403, { 'content-type': 'text/plain' });
    return void res.end('Access denied.');
  }
  const mp4 = fixtureMp4();
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(mp4.length) });
  res.end(mp4);
}
