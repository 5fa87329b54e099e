import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleMessages } from './anthropic/messages-route.js';
import { handleSpeech } from './audio/speech-route.js';
import { handleTranscription } from './audio/transcription-route.js';
import { handleChatCompletions, hasBearerToken, readBody, type SimContext } from './chat-route.js';
import { handleDecisions } from './decisions/decisions-route.js';
import { sendError, sendJson } from './deliver.js';
import { handleCohereEmbed } from './embeddings/cohere-embed.js';
import { handleGeminiBatchEmbed, matchBatchEmbedCall } from './embeddings/gemini-batch-embed.js';
import { handleJinaEmbeddings } from './embeddings/jina-embeddings.js';
import { handleOpenAIEmbeddings } from './embeddings/openai-embeddings.js';
import { FixtureLibrary, resolveFixturesDir } from './fixtures.js';
import { handleGenerateContent, matchGeminiCall } from './gemini/gemini-route.js';
import { handleImageEdits } from './images/openai-image-edits-route.js';
import { handleImageGenerations, handleSimImage, SIM_IMAGE_PATH } from './images/openai-images-route.js';
import { MODEL_LIST_JSON } from './models.js';
import { handleModerations } from './moderation/moderations-route.js';
import { SimErrors } from './openai-errors.js';
import { handleReceiver, newReceivers, type Receivers } from './receivers/receivers.js';
import { handleCohereRerank } from './rerank/cohere-rerank.js';
import { handleJinaRerank } from './rerank/jina-rerank.js';
import { handleResponses } from './responses/responses-route.js';
import { handleS3, newSimS3, type SimS3 } from './s3/s3-route.js';
import { handleExaSearch } from './search/exa-search-route.js';
import { SimStats } from './stats.js';
import { handleVideoCall, matchVideoCall, type SimVideos } from './video/openai-videos-route.js';
import { handleVeoCall, matchVeoCall, newSimVeo, type SimVeo } from './video/veo-route.js';

export interface SimulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Recorded provider payloads for `fixture:` models; see resolveFixturesDir for the default. */
  fixturesDir?: string;
}

export interface Simulator {
  /** e.g. http://127.0.0.1:PORT; the OpenAI base URL is `${url}/v1`. */
  url: string;
  /** Stops listening and drops every open connection, hanging ones included. */
  close(): Promise<void>;
}

async function route(
  req: IncomingMessage,
  res: ServerResponse,
  context: SimContext & { videos: SimVideos; veo: SimVeo; receivers: Receivers; s3: SimS3 },
): Promise<void> {
  const path = req.url?.split('?', 1)[0] ?? '/';
  const endpoint = `${req.method} ${path}`;
  // The stats endpoints are not counted: reading them must not change them.
  if (endpoint === 'GET /__sim/stats') return sendJson(res, 200, JSON.stringify(context.stats));
  if (endpoint === 'POST /__sim/reset') {
    context.stats.reset();
    return sendJson(res, 200, JSON.stringify(context.stats));
  }

  // The observability receivers' record and fault knob (src/sim/receivers).
  if (endpoint === 'GET /__sim/receivers') return sendJson(res, 200, JSON.stringify(context.receivers.received));
  if (endpoint === 'POST /__sim/receivers/fault') {
    context.receivers.fault = JSON.parse(await readBody(req)) as Receivers['fault'];
    return sendJson(res, 200, '{}');
  }
  if (await handleReceiver(req, res, context.receivers, path)) return;
  // The S3-compatible store (src/sim/s3): files storage and the s3 destination.
  if (await handleS3(req, res, context.s3, path)) return;

  context.stats.countRequest(path);
  if (endpoint === 'POST /v1/chat/completions') return handleChatCompletions(req, res, context);
  if (endpoint === 'POST /v1/responses') return handleResponses(req, res, context);
  if (endpoint === 'POST /v1/messages') return handleMessages(req, res, context);
  if (endpoint === 'POST /v2/rerank') return handleCohereRerank(req, res, context);
  if (endpoint === 'POST /v1/rerank') return handleJinaRerank(req, res, context);
  if (endpoint === 'POST /v1/decisions') return handleDecisions(req, res, context);
  if (endpoint === 'POST /v1/embeddings') return handleOpenAIEmbeddings(req, res, context);
  if (endpoint === 'POST /v2/embed') return handleCohereEmbed(req, res, context);
  if (endpoint === 'POST /v1/images/generations') return handleImageGenerations(req, res, context);
  if (endpoint === 'POST /v1/images/edits') return handleImageEdits(req, res, context);
  if (endpoint === 'POST /v1/audio/speech') return handleSpeech(req, res, context);
  if (endpoint === 'POST /v1/audio/transcriptions') return handleTranscription(req, res, context);
  const simImage = req.method === 'GET' ? SIM_IMAGE_PATH.exec(path) : null;
  if (simImage) return handleSimImage(res, simImage[1]!);
  // Jina's API under /jina: its embeddings path is OpenAI's, so a Jina provider's base URL is {sim}/jina/v1.
  if (endpoint === 'POST /jina/v1/embeddings') return handleJinaEmbeddings(req, res, context);
  if (endpoint === 'POST /jina/v1/rerank') return handleJinaRerank(req, res, context);
  if (endpoint === 'POST /search') return handleExaSearch(req, res, context);
  if (endpoint === 'POST /v1/moderations') return handleModerations(req, res, context);
  if (endpoint === 'GET /v1/models') {
    return hasBearerToken(req.headers.authorization) ? sendJson(res, 200, MODEL_LIST_JSON) : sendError(res, SimErrors.missingApiKey());
  }
  const videoCall = matchVideoCall(req.method ?? '', path);
  if (videoCall) return handleVideoCall(req, res, context, videoCall);
  const veoCall = matchVeoCall(req.method ?? '', path);
  if (veoCall) return handleVeoCall(req, res, context, veoCall);
  const embedModel = req.method === 'POST' ? matchBatchEmbedCall(path) : undefined;
  if (embedModel !== undefined) return handleGeminiBatchEmbed(req, res, context, embedModel);
  const geminiCall = req.method === 'POST' ? matchGeminiCall(path) : undefined;
  if (geminiCall) return handleGenerateContent(req, res, context, geminiCall);
  return sendError(res, SimErrors.invalidUrl(req.method ?? '', path));
}

function answerUnexpected(res: ServerResponse, error: unknown): void {
  if ((error as Error).name === 'AbortError' || res.destroyed) return; // the client left mid-request or during a delay
  console.error('simulator: unexpected error', error);
  if (res.headersSent) res.destroy();
  else sendError(res, SimErrors.serverError());
}

/** Starts the simulated OpenAI-compatible upstream (see DESIGN.md, "The simulator"). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const context = {
    stats: new SimStats(),
    fixtures: new FixtureLibrary(resolveFixturesDir(options.fixturesDir)),
    videos: new Map() as SimVideos,
    veo: newSimVeo(),
    receivers: newReceivers(),
    s3: newSimS3(),
  };
  const server = createServer((req, res) => {
    route(req, res, context).catch((error: unknown) => answerUnexpected(res, error));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;

  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : context.s3.store.close().then(resolve, reject)));
        server.closeAllConnections();
      }),
  };
}
