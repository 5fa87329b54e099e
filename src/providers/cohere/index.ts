export { cohereEmbeddingsAdapter } from './cohere-embeddings-adapter.js';
export { cohereRerankAdapter } from './cohere-rerank-adapter.js';
