export { geminiChatAdapter } from './gemini-chat-adapter.js';
export { geminiEmbeddingsAdapter } from './gemini-embeddings-adapter.js';
