export { geminiVideosAdapter } from './gemini-videos-adapter.js';
