import type { Model } from './types.js';

/** What a model is called for: chat completions, reranking or video generation jobs. */
export type ModelTask = 'chat' | 'rerank' | 'video';

/**
 * Read from the model's output modalities, the reference's own vocabulary
 * (its OutputModality has "rerank"), so /models shows the same fact the
 * router acts on.
 */
export const modelTask = (model: Pick<Model, 'architecture'>): ModelTask =>
  model.architecture.output_modalities.includes('rerank') ? 'rerank' : model.architecture.output_modalities.includes('video') ? 'video' : 'chat';
