export { cohereRerankAdapter } from './cohere-rerank-adapter.js';
