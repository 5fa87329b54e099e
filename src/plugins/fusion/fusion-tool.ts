import type { FunctionTool } from '../../protocol/chat.js';
import type { ServerTool } from '../server-tools/server-tool.js';
import { type FusionFields, fusionSettings } from './fusion-settings.js';
import { runFusion } from './run-fusion.js';

export const FUSION_FUNCTION: FunctionTool = {
  type: 'function',
  function: {
    name: 'fusion',
    description:
      "Ask a panel of expert models, each researching the web, to answer a hard question; returns an analyst's JSON summary of their answers " +
      '(consensus, disagreements, unique insights, sources, confidence) to write your answer from.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'The question for the panel, self-contained.' } },
      required: ['query'],
      additionalProperties: false,
    },
  },
};

/**
 * The `service:fusion` server tool: the model calls `fusion` with a
 * question; the panel answers it (runFusion), the analyst (by default the
 * calling model) summarizes, and the analysis is the tool result the model
 * synthesizes its answer from. The fusion plugin's fields are its defaults,
 * the entry's parameters on top; their inner calls' cost is part of the
 * request's.
 */
export function fusionServerTool(served: (model: string) => boolean): ServerTool {
  return {
    name: FUSION_FUNCTION.function.name,
    type: 'service:fusion',
    settings: 'fusion',
    definition: () => FUSION_FUNCTION,
    check: (config, model) => void fusionSettings(config as FusionFields, served, model),
    async execute(args, { config, signal, model, inner }) {
      const query = (args as { query?: unknown } | null)?.query;
      if (typeof query !== 'string' || query.trim() === '') throw new Error('the arguments must be a JSON object with a "query" string');
      const outcome = await runFusion(
        fusionSettings(config as FusionFields, served, model),
        [{ role: 'user', content: query }],
        inner,
        signal,
      );
      return { content: outcome.analysis, innerCost: outcome.innerCost, data: { fusion: outcome.entry.data } };
    },
  };
}
