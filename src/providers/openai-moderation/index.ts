export { openAIModerationAdapter } from './openai-moderation-adapter.js';
