import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { CONTAINER_DEFAULTS } from '../../src/containers/container-settings.js';
import { foldSessionCosts } from '../../src/datasets/session-cost-folds.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';
import { SAMPLE_RATE, wav } from '../../src/sim/audio/sim-audio.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { describeErrors, mediaTypeMatches, operationKey, reference } from '../support/reference-schemas.js';

/**
 * The gateway's answers against the reference's response schemas
 * (test/reference/openrouter-openapi.yaml): every operation of the reference
 * that the gateway serves has rows here, each a realistic request to the real
 * gateway (in front of the simulator) and the status it must answer; the
 * answer must be valid against the reference's schema for that status and
 * media type. JSON is validated whole, a stream event by event against the
 * reference's event schema, binary answers by their content type.
 */

/** The reference's operations the gateway does not serve (yet). A route listed here that the gateway starts serving fails the guard until it has rows. */
const NOT_SERVED = ['POST /credits/coinbase'];

/**
 * Groups with no refusal the reference declares that the gateway gives, so
 * no 4xx row to check: by group, why.
 */
const NEVER_REFUSED: Record<string, string> = {
  providers: 'GET /providers declares no 4xx',
  endpoints: "GET /endpoints/zdr declares only 403 (management keys only); here any key may read it, as GET /models's endpoints",
};

/** What the rows' requests use: the gateway, its simulator, and what was made for them before. */
interface World {
  gw: RunningGateway;
  /** A key that is not a management key. */
  plainKey: string;
  /** A chat generation of the management key, with its content stored. */
  generationId: string;
  /** A finished video job. */
  videoJobId: string;
}

interface Row {
  /** The reference's operation, as it writes it: `GET /keys/{hash}`. */
  operation: string;
  /** What is sent, when the operation has several rows. */
  case?: string;
  /** The status the gateway must answer. */
  status: number;
  /** `json` (the default): the whole body; `sse`: each event against the reference's event schema; `binary`: the content type only. */
  body?: 'json' | 'sse' | 'binary';
  send(w: World): Promise<Response>;
}

interface SendOptions {
  /** The bearer key; the management key unless given, none when null. */
  key?: string | null;
  body?: unknown;
  form?: FormData;
}

function send(w: World, method: string, path: string, options: SendOptions = {}): Promise<Response> {
  const key = options.key === undefined ? w.gw.managementKey : options.key;
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const body = options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return fetch(`${w.gw.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
}

/** The JSON answer of a call made to set a row up, which must succeed. */
async function made(w: World, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await call(w.gw, method, path, { key: w.gw.managementKey, ...(body === undefined ? {} : { body }) });
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const newKey = async (w: World) => (await made(w, 'POST', '/keys', { name: `row ${randomBytes(4).toString('hex')}` })).data.hash as string;
const newGuardrail = async (w: World) =>
  (await made(w, 'POST', '/guardrails', { name: `rail ${randomBytes(4).toString('hex')}`, limit_usd: 5, reset_interval: 'monthly' })).data
    .id as string;
/** A BYOK credential for the catalog's `openai` provider; its id. */
const newByok = async (w: World): Promise<string> =>
  (await made(w, 'POST', '/byok', { provider: 'openai', key: `sk-proj-${randomBytes(8).toString('hex')}` })).data.id as string;

const newDestination = async (w: World, type = 'webhook', config: object = { url: 'https://hooks.example/conformance' }) =>
  (await made(w, 'POST', '/observability/destinations', { type, name: `dest ${randomBytes(4).toString('hex')}`, config, enabled: false }))
    .data.id as string;
const langfuseConfig = { publicKey: 'pk-lf-conformance-1', secretKey: 'sk-lf-conformance-1' };
const monthlyBudget = (w: World) => made(w, 'PUT', '/workspaces/default/budgets/monthly', { limit_usd: 1000 });
const ownerId = async (w: World) => (await made(w, 'GET', '/organization/members')).data[0].id as string;
const newWorkspace = async (w: World) => {
  const slug = `ws-${randomBytes(4).toString('hex')}`;
  return (await made(w, 'POST', '/workspaces', { name: slug, slug })).data.id as string;
};
/** A workspace that the organization's owner is a member of. */
const staffedWorkspace = async (w: World) => {
  const id = await newWorkspace(w);
  await made(w, 'POST', `/workspaces/${id}/members/add`, { user_ids: [await ownerId(w)] });
  return id;
};

const messages = [{ role: 'user', content: 'What is the weather like in Paris?' }];
const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};
const chatBody = { model: 'sim/chat', messages, max_tokens: 50 };
const documents = ['Berlin is the capital of Germany.', 'Paris is the capital of France.', 'Bananas are rich in potassium.'];
const SECOND_OF_SILENCE = wav(Buffer.alloc(SAMPLE_RATE * 2));
const MISSING_HASH = 'f'.repeat(64);
const MISSING_UUID = '00000000-0000-4000-8000-000000000000';

/** A group an identity provider pushed over SCIM (with a fresh SCIM token: creating one rotates it). */
async function newScimGroup(w: World): Promise<string> {
  const { token } = await made(w, 'POST', '/scim/token');
  const answer = await call(w.gw, 'POST', '/scim/v2/Groups', {
    headers: { authorization: `Bearer ${token}` },
    body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: `group ${randomBytes(4).toString('hex')}` },
  });
  if (answer.status !== 201) throw new Error(`POST /scim/v2/Groups answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.id as string;
}
const defaultWorkspaceId = async (w: World) =>
  (await w.gw.store.db.selectFrom('workspaces').select('id').where('is_default', '=', 1).executeTakeFirstOrThrow()).id;
const newScimMapping = async (w: World) =>
  (
    await made(w, 'POST', '/scim/group-mappings', {
      scim_group_id: await newScimGroup(w),
      workspace_id: await defaultWorkspaceId(w),
      role: 'member',
    })
  ).data.id as string;

/** A video job of this model, once its status is one of `until`. */
async function videoJob(w: World, model: string, until: string[]): Promise<string> {
  const job = await made(w, 'POST', '/videos', { model, prompt: 'A mountain at sunset', duration: 4 });
  for (let i = 0; ; i++) {
    const { status } = await made(w, 'GET', `/videos/${job.id}`);
    if (until.includes(status)) return job.id;
    if (i > 200) throw new Error(`the video job is still ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An authorization code of the PKCE flow and its verifier. */
async function authCode(w: World) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const code = await made(w, 'POST', '/auth/keys/code', {
    callback_url: 'https://app.example/callback',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return { code: code.data.id as string, verifier };
}

const audioForm = (model: string) => {
  const form = new FormData();
  form.append('model', model);
  form.append('file', new Blob([SECOND_OF_SILENCE], { type: 'audio/wav' }), 'silence.wav');
  return form;
};

/** A form of one file, as OpenAI's files.create sends it. */
const fileForm = (content: string | Uint8Array, filename: string) => {
  const form = new FormData();
  form.append('purpose', 'user_data');
  form.append('file', new Blob([content]), filename);
  return form;
};
/** A file uploaded for a row. */
const newFile = async (w: World) => {
  const response = await send(w, 'POST', '/files', { form: fileForm('Quarterly notes: revenue grew.', 'notes.txt') });
  if (response.status !== 200) throw new Error(`POST /files answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
};

/** The guardrails' assignment routes of one kind of assignee: assign, unassign, one guardrail's list, the list of all. */
function assignmentRows(kind: 'keys' | 'members', field: string, assignee: (w: World) => Promise<string>): Row[] {
  const assigned = async (w: World) => {
    const [id, ids] = [await newGuardrail(w), [await assignee(w)]];
    await made(w, 'POST', `/guardrails/${id}/assignments/${kind}`, { [field]: ids });
    return { id, ids };
  };
  return [
    {
      operation: `POST /guardrails/{id}/assignments/${kind}`,
      status: 200,
      send: async (w) =>
        send(w, 'POST', `/guardrails/${await newGuardrail(w)}/assignments/${kind}`, { body: { [field]: [await assignee(w)] } }),
    },
    {
      operation: `POST /guardrails/{id}/assignments/${kind}/remove`,
      status: 200,
      send: async (w) => {
        const { id, ids } = await assigned(w);
        return send(w, 'POST', `/guardrails/${id}/assignments/${kind}/remove`, { body: { [field]: ids } });
      },
    },
    {
      operation: `GET /guardrails/{id}/assignments/${kind}`,
      status: 200,
      send: async (w) => send(w, 'GET', `/guardrails/${(await assigned(w)).id}/assignments/${kind}`),
    },
    {
      operation: `GET /guardrails/assignments/${kind}`,
      status: 200,
      send: async (w) => (await assigned(w), send(w, 'GET', `/guardrails/assignments/${kind}`)),
    },
  ];
}

/** An inference route's answers to a body: without and with tools, each whole and streamed. */
const answerRows = (operation: string, how: string, body: object, tools: object[]): Row[] =>
  [false, true].flatMap((stream) =>
    [false, true].map((withTools): Row => {
      const sent = { ...body, ...(withTools ? { tools } : {}), ...(stream ? { stream } : {}) };
      return {
        operation,
        case: [how, stream && 'streamed', withTools && 'with a tool'].filter(Boolean).join(', '),
        status: 200,
        ...(stream ? { body: 'sse' as const } : {}),
        send: (w) => send(w, 'POST', operation.split(' ')[1]!, { body: sent }),
      };
    }),
  );

const ROWS: Row[] = [
  // Keys
  { operation: 'GET /key', status: 200, send: (w) => send(w, 'GET', '/key', { key: w.plainKey }) },
  { operation: 'GET /key', case: 'without a key', status: 401, send: (w) => send(w, 'GET', '/key', { key: null }) },
  { operation: 'GET /keys', status: 200, send: (w) => send(w, 'GET', '/keys') },
  { operation: 'GET /keys', case: 'with a plain key', status: 401, send: (w) => send(w, 'GET', '/keys', { key: 'sk-mg-v1-unknown' }) },
  {
    operation: 'POST /keys',
    status: 201,
    send: (w) =>
      send(w, 'POST', '/keys', { body: { name: 'conformance', limit: 10, limit_reset: 'monthly', include_byok_in_limit: true } }),
  },
  { operation: 'POST /keys', case: 'without a name', status: 400, send: (w) => send(w, 'POST', '/keys', { body: {} }) },
  { operation: 'GET /keys/{hash}', status: 200, send: async (w) => send(w, 'GET', `/keys/${await newKey(w)}`) },
  { operation: 'GET /keys/{hash}', case: 'of no key', status: 404, send: (w) => send(w, 'GET', `/keys/${MISSING_HASH}`) },
  {
    operation: 'PATCH /keys/{hash}',
    status: 200,
    send: async (w) => send(w, 'PATCH', `/keys/${await newKey(w)}`, { body: { name: 'renamed', disabled: true, limit: 3 } }),
  },
  { operation: 'DELETE /keys/{hash}', status: 200, send: async (w) => send(w, 'DELETE', `/keys/${await newKey(w)}`) },
  { operation: 'DELETE /keys/{hash}', case: 'of no key', status: 404, send: (w) => send(w, 'DELETE', `/keys/${MISSING_HASH}`) },

  // The PKCE flow
  {
    operation: 'POST /auth/keys/code',
    status: 200,
    send: (w) =>
      send(w, 'POST', '/auth/keys/code', {
        body: { callback_url: 'https://app.example/callback', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256', limit: 5 },
      }),
  },
  {
    operation: 'POST /auth/keys/code',
    case: 'with a plain http callback',
    status: 400,
    send: (w) => send(w, 'POST', '/auth/keys/code', { body: { callback_url: 'http://app.example/callback' } }),
  },
  {
    operation: 'POST /auth/keys',
    status: 200,
    send: async (w) => {
      const { code, verifier } = await authCode(w);
      return send(w, 'POST', '/auth/keys', { key: null, body: { code, code_verifier: verifier, code_challenge_method: 'S256' } });
    },
  },
  {
    operation: 'POST /auth/keys',
    case: 'with the wrong verifier',
    status: 403,
    send: async (w) => {
      const { code } = await authCode(w);
      return send(w, 'POST', '/auth/keys', { key: null, body: { code, code_verifier: 'x'.repeat(43), code_challenge_method: 'S256' } });
    },
  },

  // Inference
  { operation: 'POST /chat/completions', status: 200, send: (w) => send(w, 'POST', '/chat/completions', { body: chatBody }) },
  {
    operation: 'POST /chat/completions',
    case: 'with a tool',
    status: 200,
    send: (w) => send(w, 'POST', '/chat/completions', { body: { ...chatBody, tools: [weatherTool] } }),
  },
  {
    operation: 'POST /chat/completions',
    case: 'streamed, with usage',
    status: 200,
    body: 'sse',
    send: (w) =>
      send(w, 'POST', '/chat/completions', {
        body: { ...chatBody, tools: [weatherTool], stream: true, stream_options: { include_usage: true } },
      }),
  },
  {
    operation: 'POST /chat/completions',
    case: 'streamed, failing midway',
    status: 200,
    body: 'sse',
    send: (w) => send(w, 'POST', '/chat/completions', { body: { ...chatBody, model: 'sim/breaks', stream: true } }),
  },
  {
    operation: 'POST /chat/completions',
    case: 'with a temperature out of range',
    status: 400,
    send: (w) => send(w, 'POST', '/chat/completions', { body: { ...chatBody, temperature: 9 } }),
  },
  {
    operation: 'POST /chat/completions',
    case: 'without a key',
    status: 401,
    send: (w) => send(w, 'POST', '/chat/completions', { key: null, body: chatBody }),
  },
  {
    operation: 'POST /chat/completions',
    case: 'for an unknown model',
    status: 404,
    send: (w) => send(w, 'POST', '/chat/completions', { body: { ...chatBody, model: 'nobody/nothing' } }),
  },
  {
    operation: 'POST /chat/completions',
    case: 'by a key over its limit',
    status: 402,
    send: async (w) => {
      const { key } = await made(w, 'POST', '/keys', { name: 'spent', limit: 0 });
      return send(w, 'POST', '/chat/completions', { key, body: chatBody });
    },
  },
  {
    operation: 'POST /chat/completions',
    case: 'when every endpoint fails',
    status: 502,
    send: (w) => send(w, 'POST', '/chat/completions', { body: { ...chatBody, model: 'sim/down' } }),
  },
  // sim/chat's endpoint has OpenAI's Responses API, whose answer is relayed; sim/claude's answers in chat, translated.
  ...(['sim/chat', 'sim/claude'] as const).flatMap((model) =>
    answerRows('POST /responses', model === 'sim/chat' ? 'relayed' : 'translated', { model, input: 'What is the weather like in Paris?' }, [
      { type: 'function', name: 'get_weather', parameters: weatherTool.function.parameters },
    ]),
  ),
  // The gateway's code_interpreter: its runs as code_interpreter_call items, whole and streamed in OpenAI's events.
  ...[false, true].map(
    (stream): Row => ({
      operation: 'POST /responses',
      case: `running code_interpreter${stream ? ', streamed' : ''}`,
      status: 200,
      ...(stream ? { body: 'sse' as const } : {}),
      send: (w) =>
        send(w, 'POST', '/responses', {
          body: {
            model: 'sim/chat',
            input: 'Run it with code_interpreter:\n```python\nprint(6 * 7)\n```',
            tools: [{ type: 'code_interpreter', container: 'auto' }],
            include: ['code_interpreter_call.outputs'],
            stream,
          },
        }),
    }),
  ),
  {
    operation: 'POST /responses',
    case: 'streamed, failing midway',
    status: 200,
    body: 'sse',
    send: (w) => send(w, 'POST', '/responses', { body: { model: 'sim/breaks', input: 'Hello there', stream: true } }),
  },
  {
    operation: 'POST /responses',
    case: 'without input',
    status: 400,
    send: (w) => send(w, 'POST', '/responses', { body: { model: 'sim/chat' } }),
  },
  // sim/claude's endpoint has Anthropic's Messages API, whose answer is relayed; sim/chat's answers in chat, translated.
  ...(['sim/chat', 'sim/claude'] as const).flatMap((model) =>
    answerRows('POST /messages', model === 'sim/claude' ? 'relayed' : 'translated', { model, max_tokens: 100, messages }, [
      { name: 'get_weather', description: 'The weather in a city', input_schema: weatherTool.function.parameters },
    ]),
  ),
  {
    operation: 'POST /messages',
    case: 'streamed, failing midway',
    status: 200,
    body: 'sse',
    send: (w) => send(w, 'POST', '/messages', { body: { model: 'sim/breaks', max_tokens: 100, messages, stream: true } }),
  },
  {
    operation: 'POST /messages',
    case: 'without max_tokens',
    status: 400,
    send: (w) => send(w, 'POST', '/messages', { body: { model: 'sim/chat', messages } }),
  },
  {
    operation: 'POST /embeddings',
    status: 200,
    send: (w) => send(w, 'POST', '/embeddings', { body: { model: 'sim/embed', input: ['The quick brown fox', 'jumps'] } }),
  },
  {
    operation: 'POST /embeddings',
    case: 'as base64',
    status: 200,
    send: (w) => send(w, 'POST', '/embeddings', { body: { model: 'sim/embed', input: 'The quick brown fox', encoding_format: 'base64' } }),
  },
  {
    operation: 'POST /embeddings',
    case: 'without input',
    status: 400,
    send: (w) => send(w, 'POST', '/embeddings', { body: { model: 'sim/embed' } }),
  },
  { operation: 'GET /embeddings/models', status: 200, send: (w) => send(w, 'GET', '/embeddings/models') },
  {
    operation: 'POST /images',
    status: 200,
    send: (w) => send(w, 'POST', '/images', { body: { model: 'sim/image', prompt: 'a lighthouse at dusk' } }),
  },
  {
    operation: 'POST /images',
    case: 'streamed, with a partial image',
    status: 200,
    body: 'sse',
    send: (w) =>
      send(w, 'POST', '/images', { body: { model: 'sim/image', prompt: 'a lighthouse at dusk', stream: true, partial_images: 1 } }),
  },
  {
    operation: 'POST /images',
    case: 'without a prompt',
    status: 400,
    send: (w) => send(w, 'POST', '/images', { body: { model: 'sim/image' } }),
  },
  { operation: 'GET /images/models', status: 200, send: (w) => send(w, 'GET', '/images/models') },
  {
    operation: 'GET /images/models/{author}/{slug}/endpoints',
    status: 200,
    send: (w) => send(w, 'GET', '/images/models/sim/image/endpoints'),
  },
  {
    operation: 'GET /images/models/{author}/{slug}/endpoints',
    case: 'of no model',
    status: 404,
    send: (w) => send(w, 'GET', '/images/models/nobody/nothing/endpoints'),
  },
  {
    operation: 'POST /audio/speech',
    status: 200,
    body: 'binary',
    send: (w) =>
      send(w, 'POST', '/audio/speech', { body: { model: 'sim/tts', input: 'Hello there.', voice: 'alloy', response_format: 'mp3' } }),
  },
  {
    operation: 'POST /audio/speech',
    case: 'without input',
    status: 400,
    send: (w) => send(w, 'POST', '/audio/speech', { body: { model: 'sim/tts', voice: 'alloy' } }),
  },
  {
    operation: 'POST /audio/transcriptions',
    status: 200,
    send: (w) => send(w, 'POST', '/audio/transcriptions', { form: audioForm('sim/stt') }),
  },
  {
    operation: 'POST /audio/transcriptions',
    case: 'as verbose_json',
    status: 200,
    send: (w) => {
      const form = audioForm('sim/stt');
      form.append('response_format', 'verbose_json');
      form.append('timestamp_granularities[]', 'word');
      return send(w, 'POST', '/audio/transcriptions', { form });
    },
  },
  {
    operation: 'POST /audio/transcriptions',
    case: 'for an unknown model',
    status: 404,
    send: (w) => send(w, 'POST', '/audio/transcriptions', { form: audioForm('nobody/nothing') }),
  },
  {
    operation: 'POST /rerank',
    status: 200,
    send: (w) =>
      send(w, 'POST', '/rerank', { body: { model: 'sim/rerank', query: 'What is the capital of France?', documents, top_n: 2 } }),
  },
  {
    operation: 'POST /rerank',
    case: 'without documents',
    status: 400,
    send: (w) => send(w, 'POST', '/rerank', { body: { model: 'sim/rerank', query: 'capital' } }),
  },

  // Videos
  {
    operation: 'POST /videos',
    status: 202,
    send: (w) =>
      send(w, 'POST', '/videos', { body: { model: 'sim/video', prompt: 'A mountain at sunset', duration: 4, resolution: '720p' } }),
  },
  {
    operation: 'POST /videos',
    case: 'without a prompt',
    status: 400,
    send: (w) => send(w, 'POST', '/videos', { body: { model: 'sim/video' } }),
  },
  { operation: 'GET /videos/{jobId}', status: 200, send: (w) => send(w, 'GET', `/videos/${w.videoJobId}`) },
  {
    operation: 'GET /videos/{jobId}',
    case: 'still rendering',
    status: 200,
    send: async (w) => send(w, 'GET', `/videos/${await videoJob(w, 'sim/video-slow', ['pending', 'in_progress'])}`),
  },
  {
    operation: 'GET /videos/{jobId}',
    case: 'failed',
    status: 200,
    send: async (w) => send(w, 'GET', `/videos/${await videoJob(w, 'sim/video-fails', ['failed'])}`),
  },
  { operation: 'GET /videos/{jobId}', case: 'of no job', status: 404, send: (w) => send(w, 'GET', '/videos/job-missing') },
  {
    operation: 'GET /videos/{jobId}/content',
    status: 200,
    body: 'binary',
    send: (w) => send(w, 'GET', `/videos/${w.videoJobId}/content?index=0`),
  },
  { operation: 'GET /videos/models', status: 200, send: (w) => send(w, 'GET', '/videos/models') },

  // Models
  { operation: 'GET /models', status: 200, send: (w) => send(w, 'GET', '/models') },
  { operation: 'GET /models/{author}/{slug}/endpoints', status: 200, send: (w) => send(w, 'GET', '/models/sim/chat/endpoints') },
  {
    operation: 'GET /models/{author}/{slug}/endpoints',
    case: 'of a router',
    status: 200,
    send: (w) => send(w, 'GET', '/models/service/auto/endpoints'),
  },
  {
    operation: 'GET /models/{author}/{slug}/endpoints',
    case: 'of no model',
    status: 404,
    send: (w) => send(w, 'GET', '/models/nobody/nothing/endpoints'),
  },
  {
    operation: 'GET /models/count',
    status: 200,
    send: (w) => send(w, 'GET', '/models/count?output_modalities=text,embeddings'),
  },
  {
    operation: 'GET /models/count',
    case: 'of an unknown modality',
    status: 400,
    send: (w) => send(w, 'GET', '/models/count?output_modalities=smell'),
  },
  { operation: 'GET /models/user', status: 200, send: (w) => send(w, 'GET', '/models/user', { key: w.plainKey }) },
  {
    operation: 'GET /models/user',
    case: 'paged',
    status: 200,
    send: (w) => send(w, 'GET', '/models/user?offset=1&limit=2', { key: w.plainKey }),
  },
  { operation: 'GET /models/user', case: 'without a key', status: 401, send: (w) => send(w, 'GET', '/models/user', { key: null }) },
  { operation: 'GET /model/{author}/{slug}', status: 200, send: (w) => send(w, 'GET', '/model/sim/chat') },
  { operation: 'GET /model/{author}/{slug}', case: 'of a router', status: 200, send: (w) => send(w, 'GET', '/model/service/auto') },
  { operation: 'GET /model/{author}/{slug}', case: 'of no model', status: 404, send: (w) => send(w, 'GET', '/model/nobody/nothing') },
  { operation: 'GET /endpoints/zdr', status: 200, send: (w) => send(w, 'GET', '/endpoints/zdr') },

  // Providers
  { operation: 'GET /providers', status: 200, send: (w) => send(w, 'GET', '/providers') },

  // Generations
  { operation: 'GET /generation', status: 200, send: (w) => send(w, 'GET', `/generation?id=${w.generationId}`) },
  {
    operation: 'GET /generation',
    case: 'of a stream that failed midway',
    status: 200,
    send: async (w) => {
      const events = await streamEvents(
        await send(w, 'POST', '/chat/completions', { body: { ...chatBody, model: 'sim/breaks', stream: true } }),
      );
      return send(w, 'GET', `/generation?id=${(events.at(-1)!.data as { id: string }).id}`);
    },
  },
  { operation: 'GET /generation', case: 'of no generation', status: 404, send: (w) => send(w, 'GET', '/generation?id=gen-missing') },
  { operation: 'GET /generation/content', status: 200, send: (w) => send(w, 'GET', `/generation/content?id=${w.generationId}`) },
  {
    operation: 'POST /generation/feedback',
    status: 200,
    send: (w) => send(w, 'POST', '/generation/feedback', { body: { generation_id: w.generationId, category: 'latency', comment: 'slow' } }),
  },
  {
    operation: 'POST /generation/feedback',
    case: 'in no category',
    status: 400,
    send: (w) => send(w, 'POST', '/generation/feedback', { body: { generation_id: w.generationId, category: 'mood' } }),
  },

  // Activity, analytics and credits
  { operation: 'GET /activity', status: 200, send: (w) => send(w, 'GET', '/activity') },
  { operation: 'GET /activity', case: 'of a day not completed', status: 400, send: (w) => send(w, 'GET', '/activity?date=2999-01-01') },
  { operation: 'GET /activity', case: 'with a plain key', status: 403, send: (w) => send(w, 'GET', '/activity', { key: w.plainKey }) },
  { operation: 'GET /analytics/meta', status: 200, send: (w) => send(w, 'GET', '/analytics/meta') },

  // Datasets and benchmarks: of the traffic made in beforeAll (yesterday, once the clock moved on a day)
  { operation: 'GET /datasets/app-rankings', status: 200, send: (w) => send(w, 'GET', '/datasets/app-rankings?sort=popular&offset=0') },
  {
    operation: 'GET /datasets/app-rankings',
    case: 'of an unknown sort',
    status: 400,
    send: (w) => send(w, 'GET', '/datasets/app-rankings?sort=newest'),
  },
  {
    operation: 'GET /datasets/app-rankings',
    case: 'without a key',
    status: 401,
    send: (w) => send(w, 'GET', '/datasets/app-rankings', { key: null }),
  },
  {
    operation: 'GET /datasets/rankings-daily',
    status: 200,
    send: (w) => send(w, 'GET', '/datasets/rankings-daily?period=week', { key: w.plainKey }),
  },
  {
    operation: 'GET /datasets/rankings-daily',
    case: 'of an unknown period',
    status: 400,
    send: (w) => send(w, 'GET', '/datasets/rankings-daily?period=year'),
  },
  { operation: 'GET /datasets/session-cost', status: 200, send: (w) => send(w, 'GET', '/datasets/session-cost') },
  {
    operation: 'GET /datasets/session-cost',
    case: 'of an unknown turn range',
    status: 400,
    send: (w) => send(w, 'GET', '/datasets/session-cost?turn_range=3-turns'),
  },
  {
    operation: 'GET /classifications/task',
    status: 200,
    send: (w) => send(w, 'GET', '/classifications/task?window=7d', { key: w.plainKey }),
  },
  {
    operation: 'GET /classifications/task',
    case: 'of a window past the kept data',
    status: 400,
    send: (w) => send(w, 'GET', '/classifications/task?window=365d'),
  },
  {
    operation: 'GET /classifications/task',
    case: 'without a key',
    status: 401,
    send: (w) => send(w, 'GET', '/classifications/task', { key: null }),
  },
  { operation: 'GET /benchmarks', status: 200, send: (w) => send(w, 'GET', '/benchmarks?task_type=intelligence') },
  { operation: 'GET /benchmarks', case: 'of an unknown source', status: 400, send: (w) => send(w, 'GET', '/benchmarks?source=lmarena') },
  {
    operation: 'POST /analytics/query',
    status: 200,
    send: (w) =>
      send(w, 'POST', '/analytics/query', {
        body: { metrics: ['request_count', 'total_usage'], dimensions: ['model'], granularity: 'day', limit: 100 },
      }),
  },
  {
    operation: 'POST /analytics/query',
    case: 'of an unknown metric',
    status: 400,
    send: (w) => send(w, 'POST', '/analytics/query', { body: { metrics: ['app_count'] } }),
  },
  { operation: 'GET /credits', status: 200, send: (w) => send(w, 'GET', '/credits') },
  { operation: 'GET /credits', case: 'with a plain key', status: 403, send: (w) => send(w, 'GET', '/credits', { key: w.plainKey }) },

  // Organization
  { operation: 'GET /organization/members', status: 200, send: (w) => send(w, 'GET', '/organization/members?limit=10') },
  {
    operation: 'GET /organization/members',
    case: 'without a key',
    status: 401,
    send: (w) => send(w, 'GET', '/organization/members', { key: null }),
  },

  // Workspace budgets, on the default workspace by its slug (a monthly budget no row's spend reaches)
  {
    operation: 'PUT /workspaces/{id}/budgets/{interval}',
    status: 200,
    send: (w) => send(w, 'PUT', '/workspaces/default/budgets/monthly', { body: { limit_usd: 1000, include_byok_in_budgets: false } }),
  },
  {
    operation: 'PUT /workspaces/{id}/budgets/{interval}',
    case: 'wider than a wider interval',
    status: 400,
    send: async (w) => (await monthlyBudget(w), send(w, 'PUT', '/workspaces/default/budgets/daily', { body: { limit_usd: 5000 } })),
  },
  {
    operation: 'PUT /workspaces/{id}/budgets/{interval}',
    case: 'of an unknown interval',
    status: 400,
    send: (w) => send(w, 'PUT', '/workspaces/default/budgets/hourly', { body: { limit_usd: 1 } }),
  },
  {
    operation: 'GET /workspaces/{id}/budgets',
    status: 200,
    send: async (w) => (await monthlyBudget(w), send(w, 'GET', '/workspaces/default/budgets')),
  },
  {
    operation: 'GET /workspaces/{id}/budgets',
    case: 'of no workspace',
    status: 404,
    send: (w) => send(w, 'GET', '/workspaces/no-such-workspace/budgets'),
  },
  {
    operation: 'GET /workspaces/{id}/budgets/{interval}',
    status: 200,
    send: async (w) => (await monthlyBudget(w), send(w, 'GET', '/workspaces/default/budgets/monthly')),
  },
  {
    operation: 'GET /workspaces/{id}/budgets/{interval}',
    case: 'of an interval without a budget',
    status: 404,
    send: (w) => send(w, 'GET', '/workspaces/default/budgets/weekly'),
  },
  {
    operation: 'DELETE /workspaces/{id}/budgets/{interval}',
    status: 200,
    send: (w) => send(w, 'DELETE', '/workspaces/default/budgets/lifetime'),
  },

  // SCIM
  {
    operation: 'GET /scim/group-mappings',
    status: 200,
    send: async (w) => (await newScimMapping(w), send(w, 'GET', '/scim/group-mappings?limit=10')),
  },
  {
    operation: 'GET /scim/group-mappings',
    case: 'without a key',
    status: 401,
    send: (w) => send(w, 'GET', '/scim/group-mappings', { key: null }),
  },
  {
    operation: 'POST /scim/group-mappings',
    status: 201,
    send: async (w) =>
      send(w, 'POST', '/scim/group-mappings', {
        body: { scim_group_id: await newScimGroup(w), workspace_id: await defaultWorkspaceId(w), role: 'admin' },
      }),
  },
  {
    operation: 'POST /scim/group-mappings',
    case: 'of a pair already mapped',
    status: 409,
    send: async (w) => {
      const body = { scim_group_id: await newScimGroup(w), workspace_id: await defaultWorkspaceId(w), role: 'member' };
      await made(w, 'POST', '/scim/group-mappings', body);
      return send(w, 'POST', '/scim/group-mappings', { body });
    },
  },
  {
    operation: 'POST /scim/group-mappings',
    case: 'with an unknown role',
    status: 400,
    send: async (w) =>
      send(w, 'POST', '/scim/group-mappings', { body: { scim_group_id: MISSING_UUID, workspace_id: MISSING_UUID, role: 'owner' } }),
  },
  {
    operation: 'POST /scim/group-mappings',
    case: 'to a workspace of no organization of the caller',
    status: 404,
    send: async (w) =>
      send(w, 'POST', '/scim/group-mappings', {
        body: { scim_group_id: await newScimGroup(w), workspace_id: MISSING_UUID, role: 'member' },
      }),
  },
  {
    operation: 'GET /scim/group-mappings/{id}',
    status: 200,
    send: async (w) => send(w, 'GET', `/scim/group-mappings/${await newScimMapping(w)}`),
  },
  {
    operation: 'GET /scim/group-mappings/{id}',
    case: 'of no mapping',
    status: 404,
    send: (w) => send(w, 'GET', `/scim/group-mappings/${MISSING_UUID}`),
  },
  {
    operation: 'PATCH /scim/group-mappings/{id}',
    status: 200,
    send: async (w) => send(w, 'PATCH', `/scim/group-mappings/${await newScimMapping(w)}`, { body: { role: 'admin' } }),
  },
  {
    operation: 'PATCH /scim/group-mappings/{id}',
    case: 'with an unknown role',
    status: 400,
    send: async (w) => send(w, 'PATCH', `/scim/group-mappings/${await newScimMapping(w)}`, { body: { role: 'owner' } }),
  },
  {
    operation: 'PATCH /scim/group-mappings/{id}',
    case: 'of no mapping',
    status: 404,
    send: (w) => send(w, 'PATCH', `/scim/group-mappings/${MISSING_UUID}`, { body: { role: 'admin' } }),
  },
  {
    operation: 'DELETE /scim/group-mappings/{id}',
    status: 200,
    send: async (w) => send(w, 'DELETE', `/scim/group-mappings/${await newScimMapping(w)}?keep_members=false`),
  },
  {
    operation: 'DELETE /scim/group-mappings/{id}',
    case: 'without keep_members',
    status: 400,
    send: async (w) => send(w, 'DELETE', `/scim/group-mappings/${await newScimMapping(w)}`),
  },
  {
    operation: 'DELETE /scim/group-mappings/{id}',
    case: 'of no mapping',
    status: 404,
    send: (w) => send(w, 'DELETE', `/scim/group-mappings/${MISSING_UUID}?keep_members=true`),
  },
  {
    operation: 'GET /scim/groups',
    status: 200,
    send: async (w) => (await newScimGroup(w), send(w, 'GET', '/scim/groups?offset=0&limit=5')),
  },
  { operation: 'GET /scim/groups', case: 'without a key', status: 401, send: (w) => send(w, 'GET', '/scim/groups', { key: null }) },

  // Guardrails
  { operation: 'GET /guardrails', status: 200, send: async (w) => (await newGuardrail(w), send(w, 'GET', '/guardrails')) },
  {
    operation: 'POST /guardrails',
    status: 201,
    send: (w) =>
      send(w, 'POST', '/guardrails', {
        body: {
          name: 'conformance',
          description: 'all of it',
          limit_usd: 10,
          reset_interval: 'weekly',
          allowed_providers: ['openai'],
          allowed_models: ['sim/chat'],
          enforce_zdr: false,
        },
      }),
  },
  { operation: 'POST /guardrails', case: 'without a name', status: 400, send: (w) => send(w, 'POST', '/guardrails', { body: {} }) },
  { operation: 'GET /guardrails/{id}', status: 200, send: async (w) => send(w, 'GET', `/guardrails/${await newGuardrail(w)}`) },
  {
    operation: 'GET /guardrails/{id}',
    case: 'of no guardrail',
    status: 404,
    send: (w) => send(w, 'GET', '/guardrails/00000000-0000-4000-8000-000000000000'),
  },
  {
    operation: 'PATCH /guardrails/{id}',
    status: 200,
    send: async (w) => send(w, 'PATCH', `/guardrails/${await newGuardrail(w)}`, { body: { name: 'renamed', limit_usd: 20 } }),
  },
  { operation: 'DELETE /guardrails/{id}', status: 200, send: async (w) => send(w, 'DELETE', `/guardrails/${await newGuardrail(w)}`) },
  ...assignmentRows('keys', 'key_hashes', newKey),
  ...assignmentRows('members', 'member_user_ids', ownerId),

  // Observability destinations
  {
    operation: 'GET /observability/destinations',
    status: 200,
    send: async (w) => (await newDestination(w), send(w, 'GET', '/observability/destinations')),
  },
  {
    operation: 'POST /observability/destinations',
    status: 201,
    send: (w) =>
      send(w, 'POST', '/observability/destinations', {
        body: {
          type: 'otel-collector',
          name: 'conformance',
          config: { endpoint: 'https://otel.example:4318', headers: { authorization: 'Bearer abcdefghijklmnop' } },
        },
      }),
  },
  {
    operation: 'POST /observability/destinations',
    case: 'of an unsupported type',
    status: 400,
    send: (w) => send(w, 'POST', '/observability/destinations', { body: { type: 'snowflake', name: 'x', config: {} } }),
  },
  {
    operation: 'GET /observability/destinations/{id}',
    status: 200,
    send: async (w) => send(w, 'GET', `/observability/destinations/${await newDestination(w, 'langfuse', langfuseConfig)}`),
  },
  {
    operation: 'PATCH /observability/destinations/{id}',
    status: 200,
    send: async (w) =>
      send(w, 'PATCH', `/observability/destinations/${await newDestination(w, 'langfuse', langfuseConfig)}`, {
        body: { name: 'renamed', sampling_rate: 0.5 },
      }),
  },
  {
    operation: 'DELETE /observability/destinations/{id}',
    status: 200,
    send: async (w) => send(w, 'DELETE', `/observability/destinations/${await newDestination(w, 'langfuse', langfuseConfig)}`),
  },

  // Presets
  {
    operation: 'POST /presets/{slug}/chat/completions',
    status: 200,
    send: (w) =>
      send(w, 'POST', '/presets/from-chat/chat/completions', {
        body: { model: 'sim/chat', temperature: 0.7, messages: [{ role: 'system', content: 'Be brief.' }, ...messages] },
      }),
  },
  {
    operation: 'POST /presets/{slug}/responses',
    status: 200,
    send: (w) =>
      send(w, 'POST', '/presets/from-responses/responses', { body: { model: 'sim/chat', instructions: 'Be brief.', input: 'hi' } }),
  },
  {
    operation: 'POST /presets/{slug}/messages',
    status: 200,
    send: (w) =>
      send(w, 'POST', '/presets/from-messages/messages', { body: { model: 'sim/chat', system: 'Be brief.', max_tokens: 100, messages } }),
  },
  {
    operation: 'POST /presets/{slug}/chat/completions',
    case: 'with a plain key',
    status: 403,
    send: (w) => send(w, 'POST', '/presets/refused/chat/completions', { key: w.plainKey, body: chatBody }),
  },
  { operation: 'GET /presets', status: 200, send: (w) => send(w, 'GET', '/presets') },
  { operation: 'GET /presets/{slug}', status: 200, send: (w) => send(w, 'GET', '/presets/listed') },
  { operation: 'GET /presets/{slug}', case: 'of no preset', status: 404, send: (w) => send(w, 'GET', '/presets/missing') },
  { operation: 'GET /presets/{slug}/versions', status: 200, send: (w) => send(w, 'GET', '/presets/listed/versions') },
  { operation: 'GET /presets/{slug}/versions/{version}', status: 200, send: (w) => send(w, 'GET', '/presets/listed/versions/1') },

  // BYOK credentials
  { operation: 'GET /byok', status: 200, send: async (w) => (await newByok(w), send(w, 'GET', '/byok')) },
  {
    operation: 'POST /byok',
    status: 201,
    send: (w) => send(w, 'POST', '/byok', { body: { provider: 'openai', key: 'sk-proj-conformance-1234', name: 'Production OpenAI Key' } }),
  },
  {
    operation: 'POST /byok',
    case: 'naming a provider the gateway does not know',
    status: 400,
    send: (w) => send(w, 'POST', '/byok', { body: { provider: 'nowhere', key: 'sk-x' } }),
  },
  { operation: 'GET /byok/{id}', status: 200, send: async (w) => send(w, 'GET', `/byok/${await newByok(w)}`) },
  { operation: 'GET /byok/{id}', case: 'of no credential', status: 404, send: (w) => send(w, 'GET', `/byok/${MISSING_UUID}`) },
  {
    operation: 'PATCH /byok/{id}',
    status: 200,
    send: async (w) => send(w, 'PATCH', `/byok/${await newByok(w)}`, { body: { name: 'Updated OpenAI Key', disabled: true } }),
  },
  {
    operation: 'PATCH /byok/{id}',
    case: 'with an empty key',
    status: 400,
    send: async (w) => send(w, 'PATCH', `/byok/${await newByok(w)}`, { body: { key: '' } }),
  },
  {
    operation: 'PATCH /byok/{id}',
    case: 'of no credential',
    status: 404,
    send: (w) => send(w, 'PATCH', `/byok/${MISSING_UUID}`, { body: {} }),
  },
  { operation: 'DELETE /byok/{id}', status: 200, send: async (w) => send(w, 'DELETE', `/byok/${await newByok(w)}`) },
  { operation: 'DELETE /byok/{id}', case: 'of no credential', status: 404, send: (w) => send(w, 'DELETE', `/byok/${MISSING_UUID}`) },

  // Workspaces
  { operation: 'GET /workspaces', status: 200, send: (w) => send(w, 'GET', '/workspaces') },
  {
    operation: 'POST /workspaces',
    status: 201,
    send: (w) =>
      send(w, 'POST', '/workspaces', {
        body: {
          name: 'Production',
          slug: `production-${randomBytes(4).toString('hex')}`,
          description: 'Production traffic',
          default_text_model: 'sim/chat',
          default_provider_sort: 'price',
          io_logging_sampling_rate: 0.5,
        },
      }),
  },
  {
    operation: 'POST /workspaces',
    case: 'with a slug with spaces',
    status: 400,
    send: (w) => send(w, 'POST', '/workspaces', { body: { name: 'x', slug: 'has spaces' } }),
  },
  { operation: 'GET /workspaces/{id}', status: 200, send: (w) => send(w, 'GET', '/workspaces/default') },
  { operation: 'GET /workspaces/{id}', case: 'of no workspace', status: 404, send: (w) => send(w, 'GET', '/workspaces/missing') },
  {
    operation: 'PATCH /workspaces/{id}',
    status: 200,
    send: async (w) =>
      send(w, 'PATCH', `/workspaces/${await newWorkspace(w)}`, { body: { name: 'Renamed', default_provider_sort: 'latency' } }),
  },
  { operation: 'DELETE /workspaces/{id}', status: 200, send: async (w) => send(w, 'DELETE', `/workspaces/${await newWorkspace(w)}`) },
  { operation: 'DELETE /workspaces/{id}', case: 'the default one', status: 403, send: (w) => send(w, 'DELETE', '/workspaces/default') },
  { operation: 'GET /workspaces/{id}/members', status: 200, send: (w) => send(w, 'GET', '/workspaces/default/members') },
  {
    operation: 'GET /workspaces/{id}/members',
    case: 'of a workspace with members',
    status: 200,
    send: async (w) => send(w, 'GET', `/workspaces/${await staffedWorkspace(w)}/members`),
  },
  {
    operation: 'POST /workspaces/{id}/members/add',
    status: 200,
    send: async (w) => send(w, 'POST', `/workspaces/${await newWorkspace(w)}/members/add`, { body: { user_ids: [await ownerId(w)] } }),
  },
  {
    operation: 'POST /workspaces/{id}/members/add',
    case: 'with 101 user ids',
    status: 400,
    send: async (w) =>
      send(w, 'POST', `/workspaces/${await newWorkspace(w)}/members/add`, {
        body: { user_ids: Array.from({ length: 101 }, (_, i) => `user_${i}`) },
      }),
  },
  {
    operation: 'POST /workspaces/{id}/members/remove',
    status: 200,
    send: async (w) =>
      send(w, 'POST', `/workspaces/${await staffedWorkspace(w)}/members/remove`, { body: { user_ids: [await ownerId(w)] } }),
  },
  {
    operation: 'POST /workspaces/{id}/members/remove',
    case: 'of no workspace',
    status: 404,
    send: (w) => send(w, 'POST', '/workspaces/missing/members/remove', { body: { user_ids: ['user_x'] } }),
  },
  // Files
  { operation: 'POST /files', status: 200, send: (w) => send(w, 'POST', '/files', { form: fileForm('# Notes\n\nShip it.', 'notes.md') }) },
  {
    operation: 'POST /files',
    case: 'an empty file',
    status: 400,
    send: (w) => send(w, 'POST', '/files', { form: fileForm('', 'empty.txt') }),
  },
  {
    operation: 'GET /files',
    status: 200,
    send: async (w) => {
      await newFile(w);
      return send(w, 'GET', '/files?limit=1');
    },
  },
  { operation: 'GET /files', case: 'a limit past 1000', status: 400, send: (w) => send(w, 'GET', '/files?limit=1001') },
  { operation: 'GET /files/{file_id}', status: 200, send: async (w) => send(w, 'GET', `/files/${await newFile(w)}`) },
  { operation: 'GET /files/{file_id}', case: 'a missing file', status: 404, send: (w) => send(w, 'GET', '/files/or_file_missing') },
  { operation: 'DELETE /files/{file_id}', status: 200, send: async (w) => send(w, 'DELETE', `/files/${await newFile(w)}`) },
  { operation: 'DELETE /files/{file_id}', case: 'a missing file', status: 404, send: (w) => send(w, 'DELETE', '/files/or_file_missing') },
  {
    operation: 'GET /files/{file_id}/content',
    status: 200,
    body: 'binary',
    send: async (w) => send(w, 'GET', `/files/${await newFile(w)}/content`),
  },
  {
    operation: 'GET /files/{file_id}/content',
    case: 'a missing file',
    status: 404,
    send: (w) => send(w, 'GET', '/files/or_file_missing/content'),
  },
];

/** The catalog: one model of each kind the rows call, all on one simulator. */
function catalogOn(simUrl: string) {
  const yaml = `
providers:
  - id: openai-a
    kind: openai
    base_url: "${simUrl}/v1"
    api_key: sim-key
    timeout_ms: 5000
    privacy_policy_url: https://openai-a.example/privacy
    terms_of_service_url: https://openai-a.example/terms
    status_page_url: https://status.openai-a.example
    headquarters: US
    datacenters: [US, IE]
  - { id: anthropic-a, kind: anthropic, base_url: "${simUrl}/v1", api_key: sim-key, timeout_ms: 5000, zdr: true }
  - { id: cohere-a, kind: cohere, base_url: "${simUrl}/v2", api_key: sim-key, timeout_ms: 5000 }
  # Serves no model: a provider slug of the reference's BYOKProviderSlug, for the BYOK rows.
  - { id: openai, kind: openai, base_url: "${simUrl}/v1", api_key: sim-key, timeout_ms: 5000 }
models:
  - id: sim/chat
    scores: { general: 0.5, coding: 0.4 }
    endpoints: [{ provider: openai-a, upstream_model: sim-model, pricing: { prompt: 0.000001, completion: 0.000002 } }]
  - id: sim/claude
    endpoints: [{ provider: anthropic-a, upstream_model: sim-model, pricing: { prompt: 0.000001, completion: 0.000002 } }]
  - id: sim/breaks
    endpoints: [{ provider: openai-a, upstream_model: "sim-model@chunks=6,fail_after=3", pricing: { prompt: 0.000001, completion: 0.000002 } }]
  - id: sim/down
    endpoints: [{ provider: openai-a, upstream_model: "sim-model@status=500", pricing: { prompt: 0.000001, completion: 0.000002 } }]
  - id: sim/embed
    type: embeddings
    endpoints: [{ provider: openai-a, upstream_model: sim-embed, pricing: { prompt: 0.0000001 } }]
  - id: sim/image
    type: image
    endpoints: [{ provider: openai-a, upstream_model: gpt-image-1, pricing: { image: 0.04 } }]
  - id: sim/tts
    type: speech
    endpoints: [{ provider: openai-a, upstream_model: tts-1, pricing: { character: 0.000015 } }]
  - id: sim/stt
    type: transcription
    endpoints: [{ provider: openai-a, upstream_model: whisper-1, pricing: { audio_second: 0.0001 } }]
  - id: sim/rerank
    type: rerank
    endpoints: [{ provider: cohere-a, upstream_model: sim-rerank, pricing: { request: 0.002 } }]
  - id: sim/video
    type: video
    endpoints: [{ provider: openai-a, upstream_model: "sora-2@render_ms=20", pricing: { video_second: 0.1 } }]
  - id: sim/video-slow
    type: video
    endpoints: [{ provider: openai-a, upstream_model: "sora-2@render_ms=600000", pricing: { video_second: 0.1 } }]
  - id: sim/video-fails
    type: video
    endpoints: [{ provider: openai-a, upstream_model: "sora-2@render_ms=20,fail=1", pricing: { video_second: 0.1 } }]
`;
  const config = parseGatewayConfig(yaml, 'reference-schemas.yaml', { knownKinds: PROVIDER_KINDS }, {});
  return buildCatalog({ config, env: {}, knownKinds: PROVIDER_KINDS });
}

/** The events of a server-sent stream, as the reference's event schemas take them: `{event?, data}`, data parsed; the `[DONE]` sentinel left out. */
async function streamEvents(response: Response): Promise<{ event?: string; data: unknown }[]> {
  const events: { event?: string; data: unknown }[] = [];
  const stream = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const message of stream) {
    if (message.data === '[DONE]') continue;
    events.push({ ...(message.event ? { event: message.event } : {}), data: JSON.parse(message.data) });
  }
  return events;
}

const servedOperations = async (gw: RunningGateway) => {
  const document = (await (await fetch(`${gw.baseUrl}/openapi.json`)).json()) as { paths: Record<string, object> };
  const prefix = new URL(gw.baseUrl).pathname;
  return new Set(
    Object.entries(document.paths).flatMap(([path, item]) =>
      path.startsWith(`${prefix}/`) ? Object.keys(item).map((method) => operationKey(method, path.slice(prefix.length))) : [],
    ),
  );
};

describe.each(testEngines)('answers against the reference’s response schemas on $name', (engine) => {
  let sim: Simulator;
  const w = {} as World;
  // The code_interpreter rows' containers, searchable by the sandbox's own user (docs/containers.md).
  const containersDir = mkdtempSync(join(tmpdir(), 'mg-conformance-containers-'));
  chmodSync(containersDir, 0o711);
  /** Shifts the gateway's clock a day on, once the setup's requests are made: they are then a completed day of activity. */
  let dayShift = 0;

  beforeAll(async () => {
    sim = await startSimulator();
    w.gw = await startGateway(engine, {
      catalog: catalogOn(sim.url),
      clock: () => new Date(Date.now() + dayShift),
      videos: { tickMs: 20, intervalMs: 20 },
      chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } },
      classifications: { rate: 1 },
      containers: { ...CONTAINER_DEFAULTS, directory: containersDir },
    });
    await made(w, 'PATCH', '/organization/settings', { store_content: true });
    w.plainKey = (await made(w, 'POST', '/keys', { name: 'plain' })).key;
    w.generationId = (await made(w, 'POST', '/chat/completions', chatBody)).id;
    // An app's session, for the datasets.
    const appChat = await call(w.gw, 'POST', '/chat/completions', {
      key: w.gw.managementKey,
      headers: { 'http-referer': 'https://conformance.example/', 'x-title': 'Conformance' },
      body: { ...chatBody, session_id: 'conformance-session' },
    });
    if (appChat.status !== 200) throw new Error(`the app's chat answered ${appChat.status}`);
    await made(w, 'POST', '/presets', { slug: 'listed', description: 'A preset', config: { model: 'sim/chat', temperature: 0.2 } });
    w.videoJobId = await videoJob(w, 'sim/video', ['completed']);
    await w.gw.app.classifyTaskSamples();
    dayShift = 24 * 60 * 60 * 1000;
    // As the server's folds do: session-cost reads yesterday once it is folded.
    await foldSessionCosts(w.gw.store, new Date(Date.now() + dayShift));
  });
  afterAll(async () => {
    await w.gw?.close();
    await sim?.close();
    rmSync(containersDir, { recursive: true, force: true });
  });

  it('has rows for every operation of the reference that the gateway serves, and lists the rest as not served', async () => {
    const served = await servedOperations(w.gw);
    const keyOf = (name: string) => operationKey(...(name.split(' ') as [string, string]));
    const notServed = new Set(NOT_SERVED.map(keyOf));
    const rowed = new Set(ROWS.map((row) => keyOf(row.operation)));
    const answered = new Set(ROWS.filter((row) => row.status < 300).map((row) => keyOf(row.operation)));
    const operations = reference().operations.map((op) => ({ name: `${op.method} ${op.path}`, key: operationKey(op.method, op.path) }));
    const named = (keep: (key: string) => boolean) => operations.filter(({ key }) => keep(key)).map(({ name }) => name);

    expect(
      named((key) => served.has(key) && !answered.has(key)),
      'served, with no row that it answers: add one',
    ).toEqual([]);
    expect(
      named((key) => served.has(key) && notServed.has(key)),
      'served now: take it off NOT_SERVED',
    ).toEqual([]);
    expect(
      named((key) => !served.has(key) && !notServed.has(key)),
      'not served: list it in NOT_SERVED',
    ).toEqual([]);
    const known = new Set(operations.map(({ key }) => key));
    expect(
      [...rowed, ...notServed].filter((key) => !known.has(key)),
      'not operations of the reference',
    ).toEqual([]);
    expect(
      [...rowed].filter((key) => !served.has(key)),
      'rows of operations the gateway does not serve',
    ).toEqual([]);
    // A refusal (4xx) among the rows of every group of operations (the path's first segment), but those that cannot refuse.
    const group = (operation: string) => operation.split(' ')[1]!.split('/')[1]!;
    const refused = new Set(ROWS.filter((row) => row.status >= 400).map((row) => group(row.operation)));
    expect(
      [...new Set(ROWS.map((row) => group(row.operation)))].filter((g) => !refused.has(g) && !(g in NEVER_REFUSED)),
      'groups without a refusal',
    ).toEqual([]);
  });

  for (const row of ROWS) {
    it(`${row.operation} → ${row.status}${row.case ? `, ${row.case}` : ''}`, async () => {
      const ref = reference();
      const [method, path] = row.operation.split(' ') as [string, string];
      const operation = ref.find(method, path)!;
      expect(operation, `${row.operation} is not in the reference`).toBeDefined();
      const response = await row.send(w);
      const contentType = response.headers.get('content-type') ?? '';
      if (response.status !== row.status) expect.fail(`answered ${response.status} (${contentType}): ${await response.text()}`);
      const declared = ref.mediaTypes(operation, row.status);

      if (row.body === 'binary') {
        expect(
          declared.some((type) => mediaTypeMatches(type, contentType)),
          `${contentType} is not one of ${declared.join(', ')}`,
        ).toBe(true);
        expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
        return;
      }
      expect(mediaTypeMatches(row.body === 'sse' ? 'text/event-stream' : 'application/json', contentType), contentType).toBe(true);
      const validate = ref.responseSchema(operation, row.status, contentType);
      const bodies = row.body === 'sse' ? await streamEvents(response) : [await response.json()];
      expect(bodies.length).toBeGreaterThan(0);
      // A list validates whatever it holds when it holds nothing: every listing row lists something.
      const [first] = bodies as { data?: unknown }[];
      if (row.body !== 'sse' && Array.isArray(first?.data)) expect(first.data.length, 'the list is empty').toBeGreaterThan(0);
      for (const [index, body] of bodies.entries()) {
        const where = row.body === 'sse' ? `event ${index} ${JSON.stringify(body).slice(0, 300)}` : JSON.stringify(body).slice(0, 600);
        expect(validate(body), `${where}\n${describeErrors(validate)}`).toBe(true);
      }
    });
  }
});
