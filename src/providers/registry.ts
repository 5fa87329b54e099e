import { openAIChatAdapter } from './openai/index.js';
import type { ChatAdapter } from './types.js';

/** The chat adapter of each provider kind; a config naming any other kind is refused at start. */
export const CHAT_ADAPTERS: Readonly<Record<string, ChatAdapter>> = {
  openai: openAIChatAdapter,
};

export const PROVIDER_KINDS: readonly string[] = Object.keys(CHAT_ADAPTERS);
