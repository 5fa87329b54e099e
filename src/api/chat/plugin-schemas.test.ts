import { describe, expect, it } from 'vitest';
import { chatBodyMessage } from './chat-body-validation.testing.js';

const PLUGIN_IDS =
  '"auto-router", "auto-beta-router", "moderation", "web", "web-fetch", "file-parser", "response-healing", "context-compression", "pareto-router", "fusion", "switchyard-router"';

/** The validation message for a body holding this one plugin. */
const pluginError = (plugin: unknown) => chatBodyMessage({ plugins: [plugin] });

const patterns = (count: number, length = 8) => Array.from({ length: count }, (_, i) => `v${i}/`.padEnd(length, 'x'));

describe('plugins', () => {
  const accepted: [string, unknown][] = [
    ...[
      'auto-router',
      'auto-beta-router',
      'moderation',
      'web',
      'web-fetch',
      'file-parser',
      'response-healing',
      'context-compression',
      'pareto-router',
      'fusion',
      'switchyard-router',
    ].flatMap((id): [string, unknown][] => [
      [`${id} with only its id`, { id }],
      [`${id} disabled`, { id, enabled: false }],
    ]),
    [
      'auto-router with every field',
      {
        id: 'auto-router',
        allowed_models: ['anthropic/*', 'openai/gpt-4o'],
        excluded_models: ['openai/gpt-3.5*'],
        cost_tier: 'xhigh',
        pin_model: true,
      },
    ],
    ['auto-router with the deprecated cost_quality_tradeoff 0', { id: 'auto-router', cost_quality_tradeoff: 0 }],
    ['auto-beta-router with the deprecated cost_quality_tradeoff 10', { id: 'auto-beta-router', cost_quality_tradeoff: 10 }],
    ['auto-router with 1024 patterns', { id: 'auto-router', allowed_models: patterns(1024) }],
    ['auto-router with a pattern of 1024 characters', { id: 'auto-router', excluded_models: patterns(1, 1024) }],
    ['auto-beta-router with patterns and a cost tier', { id: 'auto-beta-router', allowed_models: ['google/*'], cost_tier: 'low' }],
    [
      'fusion with every field',
      {
        id: 'fusion',
        analysis_models: patterns(8),
        model: 'openai/gpt-4o',
        max_tool_calls: 16,
        max_completion_tokens: 16000,
        temperature: 0.7,
        preset: 'general-budget',
        tools: [
          { type: 'service:web_search', parameters: { max_results: 3 } },
          { type: 'service:web_fetch', parameters: { max_uses: 2 } },
        ],
      },
    ],
    ['fusion with max_tool_calls 1', { id: 'fusion', max_tool_calls: 1, preset: 'general-fast' }],
    [
      'web with every field',
      {
        id: 'web',
        engine: 'exa',
        mode: 'deep',
        max_results: 5,
        max_uses: 2,
        search_prompt: 'Sources:',
        include_domains: ['example.com'],
        exclude_domains: ['spam.example'],
        user_location: { type: 'approximate', city: 'Paris', country: 'FR', region: null, timezone: 'Europe/Paris' },
      },
    ],
    ['web with a null user_location', { id: 'web', user_location: null }],
    [
      'web-fetch with every field',
      { id: 'web-fetch', max_uses: 3, max_content_tokens: 4000, allowed_domains: ['docs.example'], blocked_domains: ['x.example'] },
    ],
    ...['mistral-ocr', 'native', 'cloudflare-ai', 'pdf-text'].map((engine): [string, unknown] => [
      `file-parser with pdf engine ${engine}`,
      { id: 'file-parser', pdf: { engine } },
    ]),
    ['context-compression with middle-out', { id: 'context-compression', engine: 'middle-out' }],
    ['pareto-router with every field', { id: 'pareto-router', min_coding_score: 0.8, max_price: 3, price_source: 'weighted_avg' }],
    ...['capability', 'stage', 'auto', 'random', 'composite', 'passthrough'].map((algorithm): [string, unknown] => [
      `switchyard-router with algorithm ${algorithm}`,
      { id: 'switchyard-router', algorithm },
    ]),
    [
      'switchyard-router with rules',
      {
        id: 'switchyard-router',
        rules: [
          { name: 'agents', when: { tools: true, min_prompt_tokens: 1000 }, models: ['anthropic/claude-sonnet-4.5'] },
          {
            when: { images: true, reasoning: false, max_prompt_tokens: 100_000, task: 'coding', min_tool_errors: 2 },
            models: ['google/gemini-2.5-flash', 'openai/gpt-4o'],
          },
          { models: ['openai/gpt-4o-mini'] },
        ],
      },
    ],
    ['several plugins', [{ id: 'web' }, { id: 'response-healing' }]],
  ];

  it.each(accepted)('accepts %s', (_, plugin) => {
    expect(chatBodyMessage({ plugins: Array.isArray(plugin) ? plugin : [plugin] })).toBeNull();
  });

  const refused: [string, unknown, string][] = [
    ['an unknown id', { id: 'auto-sorter' }, `plugins[0].id must be one of ${PLUGIN_IDS}`],
    ['a plugin without id', { enabled: true }, 'plugins[0].id is required'],
    ['a numeric id', { id: 3 }, 'plugins[0].id must be of type string'],
    ['a plugin that is a string', 'web', 'plugins[0] must be of type object'],
    ['enabled as a string', { id: 'moderation', enabled: 'no' }, 'plugins[0].enabled must be of type boolean'],
    [
      '1025 allowed_models',
      { id: 'auto-router', allowed_models: patterns(1025) },
      'plugins[0].allowed_models must have at most 1024 items',
    ],
    [
      '1025 excluded_models',
      { id: 'auto-beta-router', excluded_models: patterns(1025) },
      'plugins[0].excluded_models must have at most 1024 items',
    ],
    [
      'an allowed pattern of 1025 characters',
      { id: 'auto-router', allowed_models: patterns(1, 1025) },
      'plugins[0].allowed_models[0] must be at most 1024 characters long',
    ],
    [
      'an excluded pattern of 1025 characters',
      { id: 'auto-beta-router', excluded_models: patterns(1, 1025) },
      'plugins[0].excluded_models[0] must be at most 1024 characters long',
    ],
    ['a pattern that is not a string', { id: 'auto-router', allowed_models: [1] }, 'plugins[0].allowed_models[0] must be of type string'],
    [
      'an unknown cost_tier',
      { id: 'auto-router', cost_tier: 'cheap' },
      'plugins[0].cost_tier must be one of "low", "medium", "high", "xhigh", "max"',
    ],
    ['cost_quality_tradeoff above 10', { id: 'auto-router', cost_quality_tradeoff: 11 }, 'plugins[0].cost_quality_tradeoff must be <= 10'],
    [
      'cost_quality_tradeoff below 0',
      { id: 'auto-beta-router', cost_quality_tradeoff: -1 },
      'plugins[0].cost_quality_tradeoff must be >= 0',
    ],
    [
      'a fractional cost_quality_tradeoff',
      { id: 'auto-router', cost_quality_tradeoff: 2.5 },
      'plugins[0].cost_quality_tradeoff must be of type integer',
    ],
    ['pin_model as a string', { id: 'auto-router', pin_model: 'yes' }, 'plugins[0].pin_model must be of type boolean'],
    ['no analysis_models', { id: 'fusion', analysis_models: [] }, 'plugins[0].analysis_models must have at least 1 item'],
    ['9 analysis_models', { id: 'fusion', analysis_models: patterns(9) }, 'plugins[0].analysis_models must have at most 8 items'],
    ['max_tool_calls 0', { id: 'fusion', max_tool_calls: 0 }, 'plugins[0].max_tool_calls must be >= 1'],
    ['max_tool_calls 17', { id: 'fusion', max_tool_calls: 17 }, 'plugins[0].max_tool_calls must be <= 16'],
    ['a fractional max_tool_calls', { id: 'fusion', max_tool_calls: 2.5 }, 'plugins[0].max_tool_calls must be of type integer'],
    [
      'an unknown fusion preset',
      { id: 'fusion', preset: 'general-max' },
      'plugins[0].preset must be one of "general-high", "general-budget", "general-fast"',
    ],
    ['a fusion model that is not a string', { id: 'fusion', model: 5 }, 'plugins[0].model must be of type string'],
    ['a fusion tool without type', { id: 'fusion', tools: [{}] }, 'plugins[0].tools[0].type is required'],
    [
      '9 fusion tools',
      { id: 'fusion', tools: Array.from({ length: 9 }, () => ({ type: 't' })) },
      'plugins[0].tools must have at most 8 items',
    ],
    [
      'an unknown web engine',
      { id: 'web', engine: 'bing' },
      'plugins[0].engine must be one of "native", "exa", "firecrawl", "parallel", "perplexity"',
    ],
    [
      'an unknown web mode',
      { id: 'web', mode: 'slow' },
      'plugins[0].mode must be one of "instant", "fast", "auto", "deep-lite", "deep", "deep-reasoning", "turbo", "basic", "advanced"',
    ],
    ['web max_uses as a string', { id: 'web', max_uses: '3' }, 'plugins[0].max_uses must be of type integer'],
    ['a web user_location without type', { id: 'web', user_location: { city: 'Paris' } }, 'plugins[0].user_location.type is required'],
    [
      'web-fetch allowed_domains as a string',
      { id: 'web-fetch', allowed_domains: 'a.example' },
      'plugins[0].allowed_domains must be of type array',
    ],
    [
      'a fractional web-fetch max_content_tokens',
      { id: 'web-fetch', max_content_tokens: 1.5 },
      'plugins[0].max_content_tokens must be of type integer',
    ],
    ['web max_results 0', { id: 'web', max_results: 0 }, 'plugins[0].max_results must be >= 1'],
    ['web max_results 101', { id: 'web', max_results: 101 }, 'plugins[0].max_results must be <= 100'],
    ['web-fetch max_uses 0', { id: 'web-fetch', max_uses: 0 }, 'plugins[0].max_uses must be >= 1'],
    ['web-fetch max_content_tokens 0', { id: 'web-fetch', max_content_tokens: 0 }, 'plugins[0].max_content_tokens must be >= 1'],
    [
      'an unknown pdf engine',
      { id: 'file-parser', pdf: { engine: 'ocr' } },
      'plugins[0].pdf.engine must be one of "mistral-ocr", "native", "cloudflare-ai", "pdf-text"',
    ],
    ['an unknown compression engine', { id: 'context-compression', engine: 'head' }, 'plugins[0].engine must be one of "middle-out"'],
    ['min_coding_score above 1', { id: 'pareto-router', min_coding_score: 1.5 }, 'plugins[0].min_coding_score must be <= 1'],
    ['a negative pareto max_price', { id: 'pareto-router', max_price: -1 }, 'plugins[0].max_price must be >= 0'],
    [
      'an unknown price_source',
      { id: 'pareto-router', price_source: 'list' },
      'plugins[0].price_source must be one of "prompt", "weighted_avg"',
    ],
    [
      'a switchyard algorithm that is not a string',
      { id: 'switchyard-router', algorithm: 1 },
      'plugins[0].algorithm must be of type string',
    ],
    [
      'an unknown switchyard algorithm',
      { id: 'switchyard-router', algorithm: 'judge' },
      'plugins[0].algorithm must be one of "capability", "stage", "auto", "random", "composite", "passthrough"',
    ],
    [
      'min_tool_errors 0',
      { id: 'switchyard-router', rules: [{ when: { min_tool_errors: 0 }, models: ['a/b'] }] },
      'plugins[0].rules[0].when.min_tool_errors must be >= 1',
    ],
    [
      'a switchyard rule without models',
      { id: 'switchyard-router', rules: [{ when: { tools: true } }] },
      'plugins[0].rules[0].models is required',
    ],
    [
      'a switchyard rule with no model',
      { id: 'switchyard-router', rules: [{ models: [] }] },
      'plugins[0].rules[0].models must have at least 1 item',
    ],
    [
      'an unknown switchyard condition',
      { id: 'switchyard-router', rules: [{ when: { audio: true }, models: ['a/b'] }] },
      'plugins[0].rules[0].when has an unknown property "audio"',
    ],
    [
      'a switchyard task no classifier knows',
      { id: 'switchyard-router', rules: [{ when: { task: 'poetry' }, models: ['a/b'] }] },
      'plugins[0].rules[0].when.task must be one of "coding", "math", "creative_writing", "translation", "general"',
    ],
    [
      'a negative switchyard token bound',
      { id: 'switchyard-router', rules: [{ when: { min_prompt_tokens: -1 }, models: ['a/b'] }] },
      'plugins[0].rules[0].when.min_prompt_tokens must be >= 0',
    ],
  ];

  it.each(refused)('refuses %s', (_, plugin, message) => {
    expect(pluginError(plugin)).toBe(message);
  });

  it('names the index of the failing plugin', () => {
    expect(chatBodyMessage({ plugins: [{ id: 'web' }, { id: 'webb' }] })).toBe(`plugins[1].id must be one of ${PLUGIN_IDS}`);
  });

  it('refuses plugins that is not an array', () => {
    expect(chatBodyMessage({ plugins: { id: 'web' } })).toBe('plugins must be of type array');
  });
});
