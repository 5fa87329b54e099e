import { Type } from 'typebox';
import { StringEnum } from '../../http/schema-helpers.js';
import { PluginObject } from './plugin-fields.js';

/** Spec 2.2 rule 1: per pattern array, a limit on the sum of its items' lengths (checked in code). */
export const MODEL_PATTERNS_MAX_TOTAL_CHARS = 65536;

/** The auto-router fields holding model patterns such as `anthropic/*`. */
export const MODEL_PATTERN_FIELDS = ['allowed_models', 'excluded_models'] as const;

const ModelPatterns = Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 1024 });

const routerFields = {
  allowed_models: Type.Optional(ModelPatterns),
  excluded_models: Type.Optional(ModelPatterns),
  cost_tier: Type.Optional(StringEnum(['low', 'medium', 'high', 'xhigh', 'max'])),
  /** Deprecated in favour of cost_tier, still accepted. */
  cost_quality_tradeoff: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
};

export const AutoRouterPlugin = PluginObject('auto-router', { ...routerFields, pin_model: Type.Optional(Type.Boolean()) });

export const AutoBetaRouterPlugin = PluginObject('auto-beta-router', routerFields);
