import type { Usage } from './types.js';

type Counts = { [field: string]: number | Counts | undefined };

function addCounts(a: Counts, b: Counts): Counts {
  const out: Counts = { ...a };
  for (const [field, value] of Object.entries(b)) {
    const mine = out[field];
    if (typeof value === 'number') out[field] = (typeof mine === 'number' ? mine : 0) + value;
    else if (value !== undefined) out[field] = typeof mine === 'object' ? addCounts(mine, value) : value;
  }
  return out;
}

/**
 * The usage of several model calls billed as one answer (server-tool steps):
 * every count added, the detail objects field by field. A call that reported
 * no usage adds nothing.
 */
export function sumUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a || !b) return b ?? a;
  return addCounts(a as unknown as Counts, b as unknown as Counts) as unknown as Usage;
}

/** The usage with searches the gateway made before the model answered (the web plugin's), so they are billed at `web_search`. */
export function withWebSearches(usage: Usage | undefined, searches: number | undefined): Usage | undefined {
  if (!searches) return usage;
  const base = usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  const details = base.server_tool_use_details ?? { tool_calls_requested: 0, tool_calls_executed: 0, web_search_requests: 0 };
  return { ...base, server_tool_use_details: { ...details, web_search_requests: details.web_search_requests + searches } };
}
