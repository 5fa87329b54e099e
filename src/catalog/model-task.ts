import type { Model } from './types.js';

/** What a model is called for: chat completions, reranking, embeddings, image generation, speech, transcription, video generation jobs or decisions. */
export type ModelTask = 'chat' | 'rerank' | 'embeddings' | 'image' | 'speech' | 'transcription' | 'video' | 'decisions';

/** The tasks other than chat, each named by the output modality that marks it. */
const OUTPUT_TASKS = ['rerank', 'embeddings', 'speech', 'transcription', 'video', 'decisions'] as const;

/**
 * Read from the model's output modalities, the reference's own vocabulary
 * (its OutputModality has "rerank", "embeddings", "image", "speech", "transcription" and "video", and allows
 * unknown values: a decision model's is "decisions"), so /models shows the same fact the router acts on.
 */
export const modelTask = (model: Pick<Model, 'architecture'>): ModelTask => {
  const outputs = model.architecture.output_modalities;
  // A chat model may write images among its text; an image model writes images only.
  if (outputs.includes('image') && !outputs.includes('text')) return 'image';
  return OUTPUT_TASKS.find((task) => outputs.includes(task)) ?? 'chat';
};

/** Whether the catalog serves a chat model of this id (not a rerank, embeddings, image, speech, transcription or video one). */
export const servesChat =
  (catalog: { getModel(id: string): Pick<Model, 'architecture'> | undefined }) =>
  (id: string): boolean => {
    const model = catalog.getModel(id);
    return model !== undefined && modelTask(model) === 'chat';
  };
