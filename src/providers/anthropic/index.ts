export { anthropicChatAdapter } from './anthropic-chat-adapter.js';
