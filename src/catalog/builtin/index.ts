import type { ModelInfo } from '../types.js';
import { anthropic } from './anthropic.js';
import { deepseek } from './deepseek.js';
import { fireworks } from './fireworks.js';
import { google } from './google.js';
import { groq } from './groq.js';
import { mistral } from './mistral.js';
import { openai } from './openai.js';
import { together } from './together.js';
import type { BuiltinProvider } from './types.js';
import { xai } from './xai.js';

/** In order of preference: a model several providers serve lists their endpoints in this order. */
export const BUILTIN_PROVIDERS: readonly BuiltinProvider[] = [openai, anthropic, google, mistral, deepseek, xai, groq, together, fireworks];

/** Every built-in model's description, by id. */
export const BUILTIN_MODELS: ReadonlyMap<string, ModelInfo> = new Map(
  BUILTIN_PROVIDERS.flatMap((p) => p.offerings.map((o) => [o.model.id, o.model] as const)),
);
