export { jinaRerankAdapter } from './jina-rerank-adapter.js';
export { jinaEmbeddingsAdapter } from './jina-embeddings-adapter.js';
