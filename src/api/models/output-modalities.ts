import { Errors } from '../../http/errors.js';

/**
 * The modalities `output_modalities` may name: the reference's (text, image,
 * audio, embeddings) and this catalog's own (routing/defaults.ts); `audio`
 * also covers the speech models, whose output the catalog calls `speech`.
 */
const MODALITIES: Readonly<Record<string, readonly string[]>> = {
  text: ['text'],
  image: ['image'],
  audio: ['audio', 'speech'],
  embeddings: ['embeddings'],
  rerank: ['rerank'],
  speech: ['speech'],
  transcription: ['transcription'],
  video: ['video'],
};

/**
 * The output modalities a comma-separated `output_modalities` asks for,
 * undefined for "all"; "text" when it is absent, as the reference says.
 */
export function readOutputModalities(raw: string | undefined): ReadonlySet<string> | undefined {
  const names = (raw ?? 'text')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (names.includes('all')) return undefined;
  const unknown = names.filter((name) => !(name in MODALITIES));
  if (names.length === 0 || unknown.length > 0) {
    throw Errors.invalidRequest(
      `output_modalities must be "all" or a comma-separated list of ${Object.keys(MODALITIES).join(', ')}` +
        (unknown.length > 0 ? `; got ${unknown.map((name) => JSON.stringify(name)).join(', ')}` : ''),
    );
  }
  return new Set(names.flatMap((name) => MODALITIES[name] ?? []));
}

/** Whether a model puts out any of the modalities asked for (every model when none is: "all"). */
export const outputsAny = (outputs: readonly string[], wanted: ReadonlySet<string> | undefined) =>
  wanted === undefined || outputs.some((modality) => wanted.has(modality));
