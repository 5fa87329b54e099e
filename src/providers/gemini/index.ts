export { geminiChatAdapter } from './gemini-chat-adapter.js';
