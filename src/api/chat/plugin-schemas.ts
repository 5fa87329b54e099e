import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schema-helpers.js';
import { AutoBetaRouterPlugin, AutoRouterPlugin } from './auto-router-plugin-schemas.js';
import { PluginObject } from './plugin-fields.js';
import { SwitchyardRouterPlugin } from './switchyard-plugin-schema.js';
import { DiscriminatedUnion } from './union-schemas.js';

const Strings = Type.Array(Type.String());

/** Settings of a server tool, as its own documentation defines them. */
const ServerToolParameters = Type.Record(Type.String(), Type.Unknown());

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

const WebFetchPlugin = PluginObject('web-fetch', {
  max_uses: Type.Optional(Type.Integer({ minimum: 1 })),
  max_content_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
  allowed_domains: Type.Optional(Strings),
  blocked_domains: Type.Optional(Strings),
});

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

const FusionPlugin = PluginObject('fusion', {
  analysis_models: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: 8 })),
  model: Type.Optional(Type.String()),
  max_tool_calls: Type.Optional(Type.Integer({ minimum: 1, maximum: 16 })),
  preset: Type.Optional(StringEnum(['general-high', 'general-budget', 'general-fast'])),
  tools: Type.Optional(
    Type.Array(Type.Object({ type: Type.String(), parameters: Type.Optional(ServerToolParameters) }), { maxItems: 8 }),
  ),
});

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
