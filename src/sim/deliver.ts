import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knobs } from './knobs.js';
import { type OpenAiError, SimErrors } from './openai-errors.js';
import { newRequestId } from './response-identity.js';

/** Waits, or rejects with an AbortError once the client has gone; no timer at all for 0 ms (the benchmark's case). */
export const pause = (ms: number, signal: AbortSignal): Promise<void> => (ms > 0 ? sleep(ms, undefined, { signal }) : Promise.resolve());

const sseFrame = (data: string) => `data: ${data}\n\n`;
const DONE_FRAME = sseFrame('[DONE]');

/** Half of the text: never valid JSON when the text is a JSON object. */
const truncated = (text: string) => text.slice(0, Math.ceil(text.length / 2));

/** Drops the connection once what was written has been flushed, like an upstream crashing mid-response. */
const cutConnection = (res: ServerResponse) => res.socket?.destroySoon();

export function sendJson(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': newRequestId(), ...headers });
  res.end(body);
}

export function sendError(res: ServerResponse, error: OpenAiError, retryAfterSeconds?: number): void {
  sendJson(
    res,
    error.status,
    JSON.stringify(error.body),
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  );
}

/** A non-streaming answer: after `ttft`, whole, truncated (`malformed`), or cut off mid-body (`fail_after`). */
export async function deliverJson(res: ServerResponse, body: string, knobs: Knobs, signal: AbortSignal): Promise<void> {
  await pause(knobs.ttftMs, signal);
  const text = knobs.malformed ? truncated(body) : body;
  if (knobs.failAfterChunks === undefined) return sendJson(res, 200, text);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.write(truncated(text));
  cutConnection(res);
}

/** How a protocol puts its events on the wire. */
export interface SseFraming {
  /** The frame of the event at `index`, whose data may have been truncated by `malformed`. */
  frame(data: string, index: number): string;
  /** What ends a whole stream. */
  end: string;
  /** What ends a stream that fails with `fail_mode=error-event`. */
  errorEnd: string;
}

/** OpenAI's: data-only events, `[DONE]`, and an `{"error": …}` event. */
export const OPENAI_FRAMING: SseFraming = {
  frame: sseFrame,
  end: DONE_FRAME,
  errorEnd: sseFrame(JSON.stringify(SimErrors.serverError().body)),
};

/**
 * An SSE answer: headers at once, the first event after `ttft`, `chunk_delay`
 * between events, then the framing's end (`[DONE]`); or, with `fail_after`,
 * that many events and then a dropped connection or the framing's error end.
 */
export async function deliverStream(
  res: ServerResponse,
  events: string[],
  knobs: Knobs,
  signal: AbortSignal,
  framing: SseFraming = OPENAI_FRAMING,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-request-id': newRequestId(),
  });
  res.flushHeaders();

  const corruptAt = knobs.malformed ? Math.min(1, events.length - 1) : -1;
  const frames = events
    .slice(0, knobs.failAfterChunks ?? events.length)
    .map((event, i) => framing.frame(i === corruptAt ? truncated(event) : event, i));

  await pause(knobs.ttftMs, signal);
  if (knobs.chunkDelayMs === 0) {
    // One write: thousands of streams per second should not cost a syscall per event.
    if (frames.length > 0) res.write(frames.join(''));
  } else {
    for (const [i, frame] of frames.entries()) {
      if (i > 0) await pause(knobs.chunkDelayMs, signal);
      res.write(frame);
    }
  }

  if (knobs.failAfterChunks === undefined) res.end(framing.end);
  else if (knobs.failMode === 'error-event') res.end(framing.errorEnd);
  else cutConnection(res);
}
