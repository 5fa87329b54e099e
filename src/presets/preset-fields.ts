/**
 * The chat-request fields a preset can set: what the model is and how it is
 * called. Per-call fields (messages, stream, user, session, metadata, trace)
 * never come from a preset; the reference ignores them when saving one.
 */
export const PRESET_FIELDS = [
  'model',
  'models',
  'provider',
  'plugins',
  'temperature',
  'top_p',
  'top_k',
  'top_a',
  'min_p',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
  'max_tokens',
  'max_completion_tokens',
  'logprobs',
  'top_logprobs',
  'logit_bias',
  'seed',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'reasoning',
  'reasoning_effort',
  'modalities',
  'service_tier',
  'route',
] as const;

export type PresetField = (typeof PRESET_FIELDS)[number];

/**
 * Fields that state one setting two ways. A request that sets either one
 * overrides the preset's whole group, so the two never disagree.
 */
export const ALIAS_GROUPS: readonly (readonly PresetField[])[] = [
  ['reasoning', 'reasoning_effort'],
  ['max_tokens', 'max_completion_tokens'],
];

/** What a preset applies to a request: its fields (PRESET_FIELDS) and its system prompt. */
export interface PresetSettings {
  config: Record<string, unknown>;
  systemPrompt: string | null;
}
