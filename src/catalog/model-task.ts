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

/** Whether the catalog serves a chat model of this id (not a rerank or video one). */
export const servesChat =
  (catalog: { getModel(id: string): Pick<Model, 'architecture'> | undefined }) =>
  (id: string): boolean => {
    const model = catalog.getModel(id);
    return model !== undefined && modelTask(model) === 'chat';
  };
