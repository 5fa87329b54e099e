import { Type } from 'typebox';
import { StringEnum } from '../../http/schema-helpers.js';
import { TASK_TYPES } from '../../protocol/routing-vocabulary.js';
import { PluginObject } from './plugin-fields.js';

/** What a switchyard rule can look at; every field given must hold (routing/switchyard-router/). */
const SwitchyardCondition = Type.Object(
  {
    /** The request offers tools. */
    tools: Type.Optional(Type.Boolean()),
    /** A message carries an image. */
    images: Type.Optional(Type.Boolean()),
    /** Reasoning is asked for (an effort other than none, enabled, or a token budget). */
    reasoning: Type.Optional(Type.Boolean()),
    /** Estimated prompt size, inclusive bounds. */
    min_prompt_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
    max_prompt_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
    /** The auto-router's local classification of the latest user message. */
    task: Type.Optional(StringEnum(TASK_TYPES)),
    /** At least this many tool results since the latest user message report an error (the "stage" signal). */
    min_tool_errors: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

/** One rule: when its condition holds (no condition always holds), its models are tried in order. */
const SwitchyardRule = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    when: Type.Optional(SwitchyardCondition),
    models: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 16 }),
  },
  { additionalProperties: false },
);

/** The SDK's algorithms (SwitchyardRouterPlugin.algorithm). */
export const SWITCHYARD_ALGORITHMS = ['capability', 'stage', 'auto', 'random', 'composite', 'passthrough'] as const;

/**
 * The reference shows no fields beyond `algorithm` (the SDK's enum); here the
 * router is a rule switch on request features, its rules kept in the
 * organization's default plugins (PATCH /organization/settings) or sent with
 * the request. How each algorithm uses them: routing/switchyard-router/.
 */
export const SwitchyardRouterPlugin = PluginObject('switchyard-router', {
  algorithm: Type.Optional(StringEnum(SWITCHYARD_ALGORITHMS)),
  rules: Type.Optional(Type.Array(SwitchyardRule, { maxItems: 64 })),
});
