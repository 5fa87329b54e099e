export { openAIChatAdapter } from './openai-chat-adapter.js';
export { openAIEmbeddingsAdapter } from './openai-embeddings-adapter.js';
export { openAIImagesAdapter } from './openai-images-adapter.js';
export { openAISpeechAdapter } from './openai-speech-adapter.js';
export { openAITranscriptionAdapter } from './openai-transcription-adapter.js';
