export { openAIChatAdapter } from './openai-chat-adapter.js';
export { openAIEmbeddingsAdapter } from './openai-embeddings-adapter.js';
