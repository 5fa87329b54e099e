import { computeCost } from '../accounting/compute-cost.js';
import type { Endpoint } from '../catalog/types.js';
import { adapterFor } from '../chat/adapter-for.js';
import { replay } from '../chat/replay.js';
import { type AttemptsResult, runAttempts } from '../chat/run-attempts.js';
import { attemptOptions, noteServed } from '../chat/serve-run.js';
import { type RunEnd, runError, settleRun } from '../chat/settle-run.js';
import { failUnservedStream, startKeepAlive, streamBreak } from '../chat/stream-chat.js';
import type { SseWriter } from '../http/sse-writer.js';
import type { ImageStreamEvent, UpstreamImages } from '../protocol/images.js';
import { UpstreamError } from '../protocol/upstream.js';
import { billedImageTokens, checkImages } from './complete-images.js';
import type { ImageStreamFormat, ImageStreamFrame, ImageStreamTally } from './image-stream-format.js';
import { type ImagesRun, type ImagesServices, imagesAsked } from './images-run.js';

/** What the images flow needs to stream: when to send keep-alive comments. */
export interface ImagesStreamServices extends ImagesServices {
  keepAliveAfterMs: number;
}

/** Whether an endpoint of the plan streams natively: else `stream` is answered whole, as the reference does for such providers. */
export const streamsNatively = (services: ImagesServices, run: ImagesRun): boolean =>
  run.attempts.some((attempt) => adapterFor(services, attempt).adapter.stream !== undefined);

/** A buffered answer (an endpoint whose protocol does not stream) as the completed events of its images. */
async function* completedEvents(upstream: UpstreamImages): AsyncGenerator<ImageStreamEvent> {
  for (const image of upstream.images)
    yield {
      type: 'completed',
      b64_json: image.b64_json!,
      ...(upstream.created !== undefined ? { created: upstream.created } : {}),
      ...(upstream.outputFormat !== undefined ? { outputFormat: upstream.outputFormat } : {}),
    };
}

/** Billed per image: the provider's token figures are shown, never priced. */
const NO_TOKENS = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

const write = (sse: SseWriter, { name, data }: ImageStreamFrame) =>
  name ? sse.event(name, JSON.stringify(data)) : sse.data(JSON.stringify(data));

/**
 * A streamed image request. As for chat, nothing but keep-alive comments
 * reaches the client until an attempt's first event is in hand, so a failure
 * before it falls back to the next endpoint; an endpoint whose protocol does
 * not stream answers whole, its images sent as completed events. Each
 * completed image is counted (never more than `n`) and its event carries the
 * run's tokens and cost so far; the ledger row is written before the end.
 * A stream cut by the client is charged for the images completed, as a
 * cancelled chat stream is for what it delivered; a failure after the start
 * is the format's error event, then the end.
 */
export async function streamImages(
  services: ImagesStreamServices,
  run: ImagesRun,
  sse: SseWriter,
  signal: AbortSignal,
  respondWithError: (error: unknown) => void,
  format: ImageStreamFormat,
): Promise<void> {
  const keepAlive = startKeepAlive(sse, services.keepAliveAfterMs);
  let served: AttemptsResult<Endpoint, AsyncIterator<ImageStreamEvent>>;
  try {
    served = await runAttempts(
      attemptOptions(services, run, signal, async (attempt) => {
        const { adapter, target } = adapterFor(services, attempt);
        const context = { signal, endUserId: run.endUserId };
        const events = adapter.stream
          ? (await adapter.stream(run.request, target, context))[Symbol.asyncIterator]()
          : completedEvents(checkImages(await adapter.generate(run.request, target, context), run));
        // The first event before anything reaches the client: until then a failure can still fall back.
        return replay(await events.next(), events);
      }),
    );
  } catch (error) {
    keepAlive.stop();
    return failUnservedStream(services, run, error, { sse, signal, respondWithError }, (failure) => write(sse, format.error(failure)));
  }
  keepAlive.stop();
  noteServed(services, run, served.attempt);

  const { attempt, outcomes, result: events } = served;
  const asked = imagesAsked(run.request);
  const at = new Date(run.startedAt);
  const tally: ImageStreamTally = { inputTokens: 0, outputTokens: 0, cost: 0, created: Math.floor(run.startedAt / 1000) };
  let images = 0;
  // The input is the same for every image made: the largest count reported for it, not their sum.
  let reportedImageTokens: number | undefined;
  const ttftMs = services.clock().getTime() - run.startedAt;
  const end = (over: Partial<RunEnd>): RunEnd => ({
    status: 'success',
    streamed: true,
    attempt,
    outcomes,
    usage: NO_TOKENS,
    images,
    ...billedImageTokens(reportedImageTokens, run.request),
    ttftMs,
    ...over,
  });

  try {
    for (let next = await events.next(); !next.done; next = await events.next()) {
      if (sse.closed) throw new UpstreamError('aborted', 'the client went away');
      const event = next.value;
      if (event.type === 'partial') {
        await write(sse, format.partial(event, tally));
        continue;
      }
      if (images === asked) throw new UpstreamError('malformed', `upstream streamed more than the ${asked} images asked for`);
      const reported = event.usage?.input_image_tokens;
      // Checked before the image counts: a count the images sent cannot have is malformed.
      if (reported !== undefined)
        reportedImageTokens = billedImageTokens(Math.max(reported, reportedImageTokens ?? 0), run.request).imageTokens;
      images += 1;
      tally.inputTokens += event.usage?.input_tokens ?? 0;
      tally.outputTokens += event.usage?.output_tokens ?? 0;
      const { imageTokens } = billedImageTokens(reportedImageTokens, run.request);
      tally.cost = computeCost(attempt.endpoint.pricing, NO_TOKENS, at, 1, { images, imageTokens }).total;
      await write(sse, format.completed(event, tally));
    }
  } catch (error) {
    const broke = streamBreak(error, signal, sse, attempt.endpoint.provider);
    if (broke.stopped) await events.return?.();
    if (!broke.failure) {
      await settleRun(services, run, end({ status: 'cancelled' }));
      return sse.end();
    }
    await settleRun(services, run, end({ status: 'error', error: runError(broke.failure) }));
    await write(sse, format.error(broke.failure));
    return sse.end();
  }
  await settleRun(services, run, end({}));
  if (format.done) await sse.data('[DONE]');
  sse.end();
}
