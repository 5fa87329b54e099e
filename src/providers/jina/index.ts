export { jinaEmbeddingsAdapter } from './jina-embeddings-adapter.js';
export { jinaRerankAdapter } from './jina-rerank-adapter.js';
