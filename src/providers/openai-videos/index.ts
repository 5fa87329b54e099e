export { openAIVideosAdapter } from './openai-videos-adapter.js';
