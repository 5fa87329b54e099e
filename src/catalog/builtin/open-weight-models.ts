import type { ModelInfo } from '../types.js';
import { released } from './units.js';

// Open-weight models that several providers host: one description, many endpoints.

export const LLAMA_3_3_70B: ModelInfo = {
  id: 'meta-llama/llama-3.3-70b-instruct',
  name: 'Meta: Llama 3.3 70B Instruct',
  description: 'Multilingual 70B instruction-tuned Llama, close to Llama 3.1 405B on most benchmarks.',
  created: released('2024-12-06'),
  contextLength: 131_072,
  architecture: { input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'Llama3' },
};

export const LLAMA_3_1_8B: ModelInfo = {
  id: 'meta-llama/llama-3.1-8b-instruct',
  name: 'Meta: Llama 3.1 8B Instruct',
  description: 'Small, fast multilingual Llama 3.1 model.',
  created: released('2024-07-23'),
  contextLength: 131_072,
  architecture: { input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'Llama3' },
};

export const LLAMA_4_SCOUT: ModelInfo = {
  id: 'meta-llama/llama-4-scout',
  name: 'Meta: Llama 4 Scout',
  description: 'Mixture-of-experts Llama 4 model (17B active, 16 experts) with image input.',
  created: released('2025-04-05'),
  contextLength: 131_072,
  architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'], tokenizer: 'Llama4' },
};

export const GPT_OSS_120B: ModelInfo = {
  id: 'openai/gpt-oss-120b',
  name: 'OpenAI: gpt-oss-120b',
  description: "OpenAI's open-weight mixture-of-experts reasoning model (117B parameters, 5.1B active).",
  created: released('2025-08-05'),
  contextLength: 131_072,
  architecture: { input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'GPT' },
};

export const QWEN_3_32B: ModelInfo = {
  id: 'qwen/qwen3-32b',
  name: 'Qwen: Qwen3 32B',
  description: 'Dense 32B Qwen3 model that switches between thinking and non-thinking modes.',
  created: released('2025-04-29'),
  contextLength: 131_072,
  architecture: { input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'Qwen3' },
};

export const QWEN_2_5_72B: ModelInfo = {
  id: 'qwen/qwen-2.5-72b-instruct',
  name: 'Qwen: Qwen2.5 72B Instruct',
  description: 'Large Qwen2.5 instruction-tuned model, strong at coding, math and structured output.',
  created: released('2024-09-19'),
  contextLength: 32_768,
  architecture: { input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'Qwen' },
};
