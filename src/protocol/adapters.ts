/**
 * The adapter interfaces: one per kind of API a provider protocol speaks (chat, rerank,
 * embeddings, images, speech, transcription, moderation, video). Implementations live in providers/<name>/; everything above them
 * calls through these and sees only the canonical shapes and UpstreamError.
 */
import type { Dispatcher } from 'undici';
import type { ChatCompletion, ChatCompletionChunk, ChatRequest } from './chat.js';
import type { DecisionsRequest, UpstreamDecisions } from './decisions.js';
import type { EmbeddingsRequest, UpstreamEmbeddings } from './embeddings.js';
import type { ImageRequest, ImageStreamEvent, UpstreamImages } from './images.js';
import type { MessagesRequest, MessagesResponse, MessagesStreamEvent } from './messages.js';
import type { RerankRequest, UpstreamRerank } from './rerank.js';
import type { ResponseObject, ResponseStreamEvent, ResponsesRequest } from './responses.js';
import type { SpeechRequest, SpeechStreamEvent } from './speech.js';
import type { TranscriptionRequest, TranscriptionStream, UpstreamTranscription } from './transcription.js';
import type { UpstreamTarget } from './upstream.js';
import type { UpstreamVideoRequest, VideoRequest } from './video-request.js';

export interface AdapterContext {
  signal: AbortSignal;
  /** Connection pool (keep-alive) to use; adapters fall back to undici's global one. */
  dispatcher?: Dispatcher;
  /** A stable keyed hash of the end user's `user` value: never the raw value. */
  endUserId?: string;
}

export interface ChatAdapter {
  readonly kind: string;
  /** The body sent upstream for this request (also what debug.echo_upstream_body shows, minus credentials). */
  buildRequestBody(request: ChatRequest, target: UpstreamTarget, options: { stream: boolean; endUserId?: string }): unknown;
  /** Non-streaming call; resolves to the canonical response or rejects with UpstreamError. */
  complete(request: ChatRequest, target: UpstreamTarget, context: AdapterContext): Promise<ChatCompletion>;
  /**
   * Streaming call. Resolves once the upstream accepted the request (2xx and
   * stream headers); rejects with UpstreamError otherwise. The iterable yields
   * canonical chunks as they arrive and throws UpstreamError on a mid-stream
   * failure. Usage must be asked of the upstream even when the client did not.
   */
  stream(request: ChatRequest, target: UpstreamTarget, context: AdapterContext): Promise<AsyncIterable<ChatCompletionChunk>>;
  /** Set when the protocol's upstreams also speak OpenAI's Responses API: POST /responses then goes to them natively. */
  readonly responses?: NativeResponses;
  /** Present when the upstream speaks Anthropic's Messages API: `POST /messages` then goes through untranslated. */
  readonly messages?: NativeMessages;
}

/**
 * OpenAI's Responses API spoken by the upstream itself: the client's body
 * goes up as it is (the target's model in place of the client's), the
 * Response and its typed events come back as they are, for the gateway to
 * read usage from and relay. Failures are UpstreamError, as for chat: an
 * `error` or `response.failed` event is one, thrown mid-stream.
 */
export interface NativeResponses {
  complete(body: ResponsesRequest, target: UpstreamTarget, context: AdapterContext): Promise<ResponseObject>;
  /** Resolves once the upstream accepted the request (2xx and an event stream); the events then come as they arrive. */
  stream(body: ResponsesRequest, target: UpstreamTarget, context: AdapterContext): Promise<AsyncIterable<ResponseStreamEvent>>;
}

/** The client's Anthropic headers, passed on by a native call: the version its body follows, the betas it uses. */
export interface NativeMessagesContext extends AdapterContext {
  anthropicVersion?: string;
  anthropicBeta?: string;
}

/** One event of a native stream, as the upstream sent it, with its canonical reading (none for ping, block ends…). */
export interface NativeMessagesEvent {
  event: MessagesStreamEvent;
  chunk?: ChatCompletionChunk;
}

/**
 * Anthropic's Messages API spoken natively: the client's body goes upstream
 * as it is (with the upstream's model, the stream flag and the hashed end
 * user), and its Message or events come back as they are, each with the
 * canonical reading the gateway checks, bills and records. Fails as the
 * canonical calls do (UpstreamError), an `error` event mid-stream included.
 */
export interface NativeMessages {
  buildRequestBody(body: MessagesRequest, target: UpstreamTarget, options: { stream: boolean; endUserId?: string }): unknown;
  complete(
    body: MessagesRequest,
    target: UpstreamTarget,
    context: NativeMessagesContext,
  ): Promise<{ message: MessagesResponse; completion: ChatCompletion }>;
  stream(body: MessagesRequest, target: UpstreamTarget, context: NativeMessagesContext): Promise<AsyncIterable<NativeMessagesEvent>>;
}

export interface RerankAdapter {
  readonly kind: string;
  /** Resolves to the provider's scores and reported usage, or rejects with UpstreamError. */
  rerank(request: RerankRequest, target: UpstreamTarget, context: AdapterContext): Promise<UpstreamRerank>;
}

/** A decision model's own protocol (the Decisions API): a chat model serves decisions through the chat adapter instead. */
export interface DecisionsAdapter {
  readonly kind: string;
  /** Resolves to what the model said of each question and its reported usage, or rejects with UpstreamError. */
  decide(request: DecisionsRequest, target: UpstreamTarget, context: AdapterContext): Promise<UpstreamDecisions>;
}

export interface EmbeddingsAdapter {
  readonly kind: string;
  /** Whether the protocol takes token arrays as input (OpenAI's does); an endpoint whose protocol does not is left out of such a request's plan. */
  readonly acceptsTokens: boolean;
  /** Resolves to one vector per input item, in order, and the reported usage; rejects with UpstreamError. */
  embed(request: EmbeddingsRequest, target: UpstreamTarget, context: AdapterContext): Promise<UpstreamEmbeddings>;
}

/** What an image request can set on a protocol, as the reference's CapabilityDescriptor describes it (GET /images/models). */
export type ImageCapability =
  | { type: 'enum'; values: readonly string[] }
  | { type: 'range'; min: number; max: number }
  | { type: 'boolean' };

export interface ImagesAdapter {
  readonly kind: string;
  /** The request parameters this protocol takes, by name. */
  readonly supportedParameters: Readonly<Record<string, ImageCapability>>;
  /** Whether it takes images to edit or as references (`ImageRequest.images`); endpoints of other protocols are left out of such a plan. */
  readonly edits: boolean;
  /** Resolves to the generated images, or rejects with UpstreamError. */
  generate(request: ImageRequest, target: UpstreamTarget, context: AdapterContext): Promise<UpstreamImages>;
  /**
   * Where the protocol streams natively: resolves once the upstream accepted
   * the request, to its events as they arrive; the iteration throws
   * UpstreamError when the stream fails or ends before an image completed.
   */
  stream?(request: ImageRequest, target: UpstreamTarget, context: AdapterContext): Promise<AsyncIterable<ImageStreamEvent>>;
}

export interface SpeechAdapter {
  readonly kind: string;
  /** Resolves once the upstream accepted the request, to its audio as it streams; rejects with UpstreamError. */
  speak(request: SpeechRequest, target: UpstreamTarget, context: AdapterContext): Promise<UpstreamVideoContent>;
  /**
   * The same with `stream_format: "sse"`: resolves once the upstream
   * accepted it (2xx and an event stream), to its events as they arrive,
   * ending with speech.audio.done; a failure is UpstreamError, mid-stream too.
   * A host that ignores `stream_format` and answers raw audio (local
   * OpenAI-compatible TTS servers do) resolves to that audio, as `speak`'s.
   */
  speakEvents(request: SpeechRequest, target: UpstreamTarget, context: AdapterContext): Promise<SpeechEventsAnswer>;
}

/** What a request for speech events gets: the events, or the raw audio of a host that ignored `stream_format`. */
export type SpeechEventsAnswer = AsyncIterable<SpeechStreamEvent> | UpstreamVideoContent;

export interface TranscriptionAdapter {
  readonly kind: string;
  /** Resolves to the provider's transcript (with its duration and usage as reported), or rejects with UpstreamError. */
  transcribe(request: TranscriptionRequest, target: UpstreamTarget, context: AdapterContext): Promise<UpstreamTranscription>;
  /**
   * The transcript as the provider streams it, or its whole answer when the
   * provider ignores the ask; rejects with UpstreamError. Absent when the
   * protocol has no streamed transcription.
   */
  stream?(request: TranscriptionRequest, target: UpstreamTarget, context: AdapterContext): Promise<TranscriptionStream>;
}

/** A moderation verdict on one input: flagged or not, the categories that flagged it, and every category's score. */
export interface ModerationVerdict {
  flagged: boolean;
  categories: string[];
  scores: Record<string, number>;
}

export interface ModerationAdapter {
  readonly kind: string;
  /** One verdict per input, in order; rejects with UpstreamError. */
  moderate(inputs: readonly string[], target: UpstreamTarget, context: AdapterContext): Promise<ModerationVerdict[]>;
}

/** What an upstream says of a job, in the gateway's words. */
export type UpstreamVideoState =
  | { status: 'queued' | 'in_progress'; upstreamId: string }
  | { status: 'completed'; upstreamId: string; seconds: number | null; outputs: number }
  | { status: 'failed' | 'cancelled'; upstreamId: string; message: string };

/** A video's (or speech's) bytes as the upstream sends them: read as a stream, never buffered whole. */
export interface UpstreamVideoContent {
  contentType: string;
  contentLength: number | null;
  body: AsyncIterable<Uint8Array> & NodeJS.ReadableStream;
}

export interface VideoAdapterContext {
  signal: AbortSignal;
  dispatcher?: Dispatcher;
}

/** What a model can make through its protocol, shown by GET /videos/models and checked before a job is stored. */
export interface VideoOptions {
  resolutions: readonly string[];
  aspectRatios: readonly string[];
  durations: readonly number[];
  /** Seconds made (and billed) when the request names no duration and the upstream does not say. */
  defaultDuration: number;
  sizes: readonly string[];
  frameImages: readonly ('first_frame' | 'last_frame')[];
  /** How many image input_references one request may carry; 0 when the protocol takes none. */
  referenceImages: number;
  generateAudio: boolean;
  seed: boolean;
  /** Keys of `provider.options[slug]` passed on to the upstream request. */
  passthrough: readonly string[];
}

/** One provider protocol for video jobs; rejects with UpstreamError. */
export interface VideoAdapter {
  readonly kind: string;
  /**
   * The reference's provider slug for this protocol's own service
   * ("openai", "google-ai-studio"): `provider.options` keyed by it reach a
   * provider of this kind, as well as options keyed by the provider's id.
   */
  readonly referenceSlug: string;
  options(upstreamModel: string): VideoOptions;
  /** Why this protocol cannot carry the request (a rule of its own beyond `options`), for a 400; undefined when it can. */
  refusal(request: VideoRequest, upstreamModel: string): string | undefined;
  create(request: UpstreamVideoRequest, target: UpstreamTarget, context: VideoAdapterContext): Promise<UpstreamVideoState>;
  retrieve(upstreamId: string, target: UpstreamTarget, context: VideoAdapterContext): Promise<UpstreamVideoState>;
  content(upstreamId: string, index: number, target: UpstreamTarget, context: VideoAdapterContext): Promise<UpstreamVideoContent>;
}
