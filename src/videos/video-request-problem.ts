import type { VideoOptions } from '../protocol/adapters.js';
import { referenceImages, type VideoRequest } from '../protocol/video-request.js';

/** "4, 6 or 8" */
const either = (values: readonly (string | number)[]) =>
  values.length <= 1 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;

/** A value outside the allowed ones, e.g. "duration: google/veo-3.1 makes 4, 6 or 8 second videos, not 5". */
function outside(field: string, value: string | number | undefined, allowed: readonly (string | number)[], model: string, unit = '') {
  if (value === undefined || allowed.includes(value)) return undefined;
  if (allowed.length === 0) return `${field}: ${model} does not take ${field}`;
  return `${field}: ${model} makes ${either(allowed)}${unit} videos, not ${value}`;
}

/**
 * The first thing of a request the model cannot make, as a message naming
 * the field and what is allowed; undefined when it can make it all. Checked
 * before a job is stored, so a request the upstream would refuse is a 400
 * rather than a job that fails later; so are fields of the reference the
 * gateway does not act on, rather than silently dropped. A seed the model cannot honour is
 * dropped, as the reference says determinism is not guaranteed.
 */
export function videoRequestProblem(request: VideoRequest, model: string, options: VideoOptions): string | undefined {
  if (request.callback_url !== undefined) return 'callback_url: this gateway sends no webhooks; poll the polling_url instead';
  if (request.previous_job_id !== undefined) return 'previous_job_id: continuing an earlier job is not supported';
  for (const field of ['creativity', 'upscale_factor'] as const) {
    if (request[field] !== undefined) return `${field}: for video upscaling models only; ${model} generates videos`;
  }
  if (!request.prompt && !request.frame_images?.length) return 'prompt is required unless frame_images are given';
  const problem =
    outside('duration', request.duration, options.durations, model, ' second') ??
    outside('resolution', request.resolution, options.resolutions, model) ??
    outside('aspect_ratio', request.aspect_ratio, options.aspectRatios, model) ??
    outside('size', request.size, options.sizes, model);
  if (problem) return problem;
  if (request.generate_audio === true && !options.generateAudio) return `generate_audio: ${model} makes videos without audio`;
  const seen = new Set<string>();
  for (const [i, frame] of (request.frame_images ?? []).entries()) {
    if (!options.frameImages.includes(frame.frame_type)) {
      const takes = options.frameImages.length ? `only ${either(options.frameImages)}` : 'no frame images';
      return `frame_images[${i}].frame_type: ${model} takes ${takes}, not ${frame.frame_type}`;
    }
    if (seen.has(frame.frame_type)) return `frame_images[${i}]: a second ${frame.frame_type}; give each frame_type once`;
    seen.add(frame.frame_type);
  }
  const images = referenceImages(request).length;
  if (images > options.referenceImages) {
    return options.referenceImages === 0
      ? `input_references: ${model} takes no reference images`
      : `input_references: ${model} takes at most ${options.referenceImages} reference images, not ${images}`;
  }
  return undefined;
}
