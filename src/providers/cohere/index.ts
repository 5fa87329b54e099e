export { cohereRerankAdapter } from './cohere-rerank-adapter.js';
export { cohereEmbeddingsAdapter } from './cohere-embeddings-adapter.js';
