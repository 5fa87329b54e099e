import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schema-helpers.js';
import { AutoBetaRouterPlugin, AutoRouterPlugin } from './auto-router-plugin-schemas.js';
import { PluginObject } from './plugin-fields.js';
import { ResearchToolEntry, WEB_FETCH_FIELDS } from './server-tool-schemas.js';
import { SwitchyardRouterPlugin } from './switchyard-plugin-schema.js';
import { DiscriminatedUnion } from './union-schemas.js';

const Strings = Type.Array(Type.String());

const WEB_SEARCH_MODES = ['instant', 'fast', 'auto', 'deep-lite', 'deep', 'deep-reasoning', 'turbo', 'basic', 'advanced'] as const;

const WebPlugin = PluginObject('web', {
  engine: Type.Optional(StringEnum(['native', 'exa', 'firecrawl', 'parallel', 'perplexity'])),
  mode: Type.Optional(StringEnum(WEB_SEARCH_MODES)),
  // At least one; Exa's API takes at most 100 results per search.
  max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  max_uses: Type.Optional(Type.Integer({ minimum: 1 })),
  search_prompt: Type.Optional(Type.String()),
  include_domains: Type.Optional(Strings),
  exclude_domains: Type.Optional(Strings),
  user_location: Type.Optional(
    Nullable(
      Type.Object({
        type: Type.Literal('approximate'),
        city: Type.Optional(Nullable(Type.String())),
        region: Type.Optional(Nullable(Type.String())),
        country: Type.Optional(Nullable(Type.String())),
        timezone: Type.Optional(Nullable(Type.String())),
      }),
    ),
  ),
});

const WebFetchPlugin = PluginObject('web-fetch', WEB_FETCH_FIELDS);

const FileParserPlugin = PluginObject('file-parser', {
  pdf: Type.Optional(Type.Object({ engine: Type.Optional(StringEnum(['mistral-ocr', 'native', 'cloudflare-ai', 'pdf-text'])) })),
});

const ContextCompressionPlugin = PluginObject('context-compression', {
  engine: Type.Optional(StringEnum(['middle-out'])),
});

const ParetoRouterPlugin = PluginObject('pareto-router', {
  min_coding_score: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  max_price: Type.Optional(Type.Number({ minimum: 0 })),
  price_source: Type.Optional(StringEnum(['prompt', 'weighted_avg'])),
});

/**
 * fusion's settings (spec 2.2 rules 1-5), as the plugin's fields or a
 * `service:fusion` tool's parameters. Its inner calls may search and fetch,
 * never start another fusion.
 */
export const FUSION_FIELDS = {
  analysis_models: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 8 })),
  model: Type.Optional(Type.String({ minLength: 1 })),
  max_tool_calls: Type.Optional(Type.Integer({ minimum: 1, maximum: 16 })),
  max_completion_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
  preset: Type.Optional(StringEnum(['general-high', 'general-budget', 'general-fast'])),
  tools: Type.Optional(Type.Array(ResearchToolEntry, { maxItems: 8 })),
};

const FusionPlugin = PluginObject('fusion', FUSION_FIELDS);

/** One item of `plugins`, told apart by `id` (spec 2.2). */
export const Plugin = DiscriminatedUnion('id', [
  AutoRouterPlugin,
  AutoBetaRouterPlugin,
  PluginObject('moderation', {}),
  WebPlugin,
  WebFetchPlugin,
  FileParserPlugin,
  PluginObject('response-healing', {}),
  ContextCompressionPlugin,
  ParetoRouterPlugin,
  FusionPlugin,
  SwitchyardRouterPlugin,
]);
