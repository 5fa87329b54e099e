import { type GoogleError, GoogleErrors } from '../gemini/google-errors.js';

/** What the simulator uses of a `:predictLongRunning` body. */
export interface SimVeoRequest {
  /** Videos to make (`parameters.sampleCount`, 1 by default). */
  samples: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Veo's image: base64 bytes and a PNG or JPEG type; Gemini's inlineData and fileData are refused as Google does. */
function imageProblem(field: string, image: unknown): string | undefined {
  if (!isObject(image)) return `${field} must be an object`;
  if ('inlineData' in image) return "`inlineData` isn't supported by this model.";
  if ('fileData' in image || 'fileUri' in image) return "`fileUri` isn't supported by this model.";
  if (typeof image.bytesBase64Encoded !== 'string' || !/^[A-Za-z0-9+/]+=*$/.test(image.bytesBase64Encoded)) {
    return `${field}.bytesBase64Encoded must be base64`;
  }
  if (image.mimeType !== 'image/png' && image.mimeType !== 'image/jpeg') return `${field}.mimeType must be image/png or image/jpeg`;
  return undefined;
}

const oneOf = (field: string, value: unknown, allowed: readonly unknown[]) =>
  value === undefined || allowed.includes(value)
    ? undefined
    : `${field} ${JSON.stringify(value)} is not supported; use one of ${allowed.join(', ')}`;

function instanceProblem(instance: unknown): string | undefined {
  if (!isObject(instance)) return 'instances[0] must be an object';
  if (instance.prompt !== undefined && typeof instance.prompt !== 'string') return 'instances[0].prompt must be a string';
  if (instance.prompt === undefined && instance.image === undefined) return 'instances[0] needs a prompt or an image';
  for (const field of ['image', 'lastFrame'] as const) {
    const problem = instance[field] === undefined ? undefined : imageProblem(`instances[0].${field}`, instance[field]);
    if (problem) return problem;
  }
  if (instance.lastFrame !== undefined && instance.image === undefined) return 'instances[0].lastFrame needs instances[0].image';
  const references = instance.referenceImages;
  if (references === undefined) return undefined;
  if (!Array.isArray(references) || references.length > 3) return 'instances[0].referenceImages must be an array of at most 3 images';
  for (const [i, reference] of references.entries()) {
    if (!isObject(reference) || reference.referenceType !== 'asset')
      return `instances[0].referenceImages[${i}].referenceType must be asset`;
    const problem = imageProblem(`instances[0].referenceImages[${i}].image`, reference.image);
    if (problem) return problem;
  }
  return undefined;
}

function parametersProblem(parameters: Record<string, unknown>): string | undefined {
  const duration = typeof parameters.durationSeconds === 'string' ? Number(parameters.durationSeconds) : parameters.durationSeconds;
  return (
    oneOf('aspectRatio', parameters.aspectRatio, ['16:9', '9:16']) ??
    oneOf('resolution', parameters.resolution, ['720p', '1080p']) ??
    oneOf('durationSeconds', duration, [4, 5, 6, 7, 8]) ??
    oneOf('personGeneration', parameters.personGeneration, ['allow_all', 'allow_adult', 'dont_allow']) ??
    oneOf('sampleCount', parameters.sampleCount, [1, 2, 3, 4]) ??
    (parameters.negativePrompt !== undefined && typeof parameters.negativePrompt !== 'string'
      ? 'negativePrompt must be a string'
      : undefined) ??
    (parameters.resolution === '1080p' && duration !== undefined && duration !== 8 ? '1080p videos are 8 seconds long' : undefined)
  );
}

/**
 * The body of `models/{model}:predictLongRunning` as Veo on the Gemini API
 * takes it: one instance (prompt and/or image, lastFrame, referenceImages)
 * and parameters (aspectRatio, resolution, durationSeconds,
 * personGeneration, negativePrompt, sampleCount); an INVALID_ARGUMENT
 * error for anything else.
 */
export function readVeoRequest(body: unknown): { ok: true; request: SimVeoRequest } | { ok: false; error: GoogleError } {
  const fail = (message: string) => ({ ok: false as const, error: GoogleErrors.invalidArgument(message) });
  if (!isObject(body) || !Array.isArray(body.instances) || body.instances.length !== 1)
    return fail('instances must hold exactly one instance');
  const parameters = body.parameters ?? {};
  if (!isObject(parameters)) return fail('parameters must be an object');
  const problem = instanceProblem(body.instances[0]) ?? parametersProblem(parameters);
  return problem
    ? fail(problem)
    : { ok: true, request: { samples: typeof parameters.sampleCount === 'number' ? parameters.sampleCount : 1 } };
}
