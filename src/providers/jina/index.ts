export { jinaRerankAdapter } from './jina-rerank-adapter.js';
