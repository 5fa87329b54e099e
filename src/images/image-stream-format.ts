import type { GatewayError } from '../protocol/gateway-error.js';
import type { ImageStreamEvent } from '../protocol/images.js';
import { mediaTypeOf } from './media-type.js';

type PartialImage = Extract<ImageStreamEvent, { type: 'partial' }>;
type Completed = Extract<ImageStreamEvent, { type: 'completed' }>;

/** One server-sent event: named (`event:`) where the protocol names its events. */
export interface ImageStreamFrame {
  name?: string;
  data: Record<string, unknown>;
}

/** The run's tokens and cost so far, as a completed event reports them. */
export interface ImageStreamTally {
  inputTokens: number;
  outputTokens: number;
  cost: number;
  /** The run's start, in Unix seconds: the time of an image the provider did not date. */
  created: number;
}

/** How a route's clients read an image stream: its partial and completed events, its error event, and whether `[DONE]` ends it. */
export interface ImageStreamFormat {
  partial(event: PartialImage, tally: ImageStreamTally): ImageStreamFrame;
  completed(event: Completed, tally: ImageStreamTally): ImageStreamFrame;
  error(failure: GatewayError): ImageStreamFrame;
  done: boolean;
}

/** The reference's ImageGenStreamErrorEvent: the gateway's error name as the code, and where the failure came from. */
function errorData(failure: GatewayError) {
  const type = failure.metadata?.provider_name !== undefined ? 'provider_error' : 'gateway_error';
  return {
    type: 'error',
    error: { code: failure.code, message: failure.message, param: null, type, ...(failure.metadata ? { metadata: failure.metadata } : {}) },
  };
}

/** POST /images: the reference's data-only events (ImageStreamingResponse), its usage shape, and `[DONE]`. */
export const REFERENCE_IMAGE_STREAM: ImageStreamFormat = {
  partial: (event) => ({
    data: { type: 'image_generation.partial_image', b64_json: event.b64_json, partial_image_index: event.partialImageIndex },
  }),
  completed(event, tally) {
    const mediaType = mediaTypeOf(event.b64_json);
    return {
      data: {
        type: 'image_generation.completed',
        b64_json: event.b64_json,
        created: event.created ?? tally.created,
        ...(mediaType ? { media_type: mediaType } : {}),
        usage: {
          prompt_tokens: tally.inputTokens,
          completion_tokens: tally.outputTokens,
          total_tokens: tally.inputTokens + tally.outputTokens,
          cost: tally.cost,
        },
      },
    };
  },
  error: (failure) => ({ data: errorData(failure) }),
  done: true,
};

/**
 * POST /images/generations and /images/edits: OpenAI's named events
 * (`image_generation.*`, or `image_edit.*`), which the openai client's
 * stream iterates, with the cost in the completed event's usage.
 */
export function openAIImageStream(prefix: 'image_generation' | 'image_edit'): ImageStreamFormat {
  return {
    partial: (event, tally) => ({
      name: `${prefix}.partial_image`,
      data: {
        type: `${prefix}.partial_image`,
        b64_json: event.b64_json,
        created_at: tally.created,
        partial_image_index: event.partialImageIndex,
      },
    }),
    completed: (event, tally) => ({
      name: `${prefix}.completed`,
      data: {
        type: `${prefix}.completed`,
        b64_json: event.b64_json,
        created_at: event.created ?? tally.created,
        ...(event.outputFormat ? { output_format: event.outputFormat } : {}),
        usage: {
          input_tokens: tally.inputTokens,
          output_tokens: tally.outputTokens,
          total_tokens: tally.inputTokens + tally.outputTokens,
          cost: tally.cost,
        },
      },
    }),
    error: (failure) => ({ name: 'error', data: errorData(failure) }),
    done: false,
  };
}
