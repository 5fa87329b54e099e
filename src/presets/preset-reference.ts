/**
 * How a chat request names a preset, as OpenRouter documents it:
 * `model: "@preset/<slug>"` (the preset's model), `model: "<model>@preset/<slug>"`
 * (that model with the preset's settings), or a top-level `preset: "<slug>"`.
 */
export interface PresetReference {
  slug: string;
  /** The model the request names beside the preset, if any. */
  model?: string;
}

const MARKER = '@preset/';

export function parsePresetReference(body: { model?: string | undefined; preset?: unknown }): PresetReference | undefined {
  const model = body.model;
  const at = model?.indexOf(MARKER) ?? -1;
  if (model !== undefined && at >= 0) {
    const slug = model.slice(at + MARKER.length);
    return at === 0 ? { slug } : { slug, model: model.slice(0, at) };
  }
  if (typeof body.preset === 'string' && body.preset.length > 0) return { slug: body.preset };
  return undefined;
}

export const isPresetModel = (model: string): boolean => model.includes(MARKER);
