export { openAIChatAdapter } from './openai-chat-adapter.js';
