import type { Usage } from '../protocol/chat.js';
import { reportedCount } from '../protocol/usage-counts.js';
import { isRecord } from '../util/is-record.js';

function addCounts(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [field, value] of Object.entries(b)) {
    const mine = out[field];
    if (isRecord(value) || isRecord(mine)) out[field] = addCounts(isRecord(mine) ? mine : {}, isRecord(value) ? value : {});
    else if (value != null) out[field] = reportedCount(mine) + reportedCount(value);
  }
  return out;
}

/**
 * The usage of several model calls billed as one answer (server-tool steps):
 * every count added, the detail objects field by field. A call that reported
 * no usage adds nothing; a figure that is no count makes its sum none, for
 * checkUsage to replace.
 */
export function sumUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a || !b) return b ?? a;
  return addCounts(a as unknown as Record<string, unknown>, b as unknown as Record<string, unknown>) as unknown as Usage;
}

/** The usage with searches the gateway made before the model answered (the web plugin's), so they are billed at `web_search`. */
export function withWebSearches(usage: Usage, searches: number | undefined): Usage {
  if (!searches) return usage;
  const details = usage.server_tool_use_details ?? { tool_calls_requested: 0, tool_calls_executed: 0, web_search_requests: 0 };
  return { ...usage, server_tool_use_details: { ...details, web_search_requests: details.web_search_requests + searches } };
}
