import type { SafeFetcher } from '../../net/safe-fetch.js';
import type { FunctionTool } from '../../protocol/chat.js';
import type { InternSettings } from '../intern-settings.js';
import { httpFetchTool } from './http-fetch.js';
import { ASK_QUESTION, askQuestionDefinition, type InternTool } from './intern-tool.js';
import { notifyTool } from './notify.js';

/** The built-in tools an intern's settings enable, for one run: what the model is offered, and the runnable ones by name. */
export function buildInternTools(
  settings: InternSettings,
  context: { fetcher: SafeFetcher; internId: string; runId: string; now: () => Date },
) {
  const byName = new Map<string, InternTool>();
  if (settings.tools.includes('http_fetch')) byName.set('http_fetch', httpFetchTool(context.fetcher, settings.allowed_domains));
  if (settings.tools.includes('notify'))
    byName.set(
      'notify',
      notifyTool(context.fetcher, { internId: context.internId, runId: context.runId, webhookUrl: settings.webhook_url, now: context.now }),
    );
  const definitions: FunctionTool[] = [...byName.values()].map((tool) => tool.definition);
  if (settings.tools.includes(ASK_QUESTION)) definitions.push(askQuestionDefinition);
  return { byName, definitions };
}
