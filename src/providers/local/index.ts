export { localRerankAdapter } from './local-rerank-adapter.js';
