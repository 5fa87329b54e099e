import { SafeFetchError, type SafeFetcher } from '../../net/safe-fetch.js';
import { type InternTool, stringArg, ToolError } from './intern-tool.js';

export const NOTIFY_LIMITS = { timeoutMs: 10_000, maxBytes: 64 * 1024 } as const;

export interface NotifyTarget {
  internId: string;
  runId: string;
  /** The intern's configured destination (settings.webhook_url); none means the tool reports that it cannot send. */
  webhookUrl: string | null;
  now: () => Date;
}

/**
 * How the intern reports back (invoke returns no progress, spec 4.3): POSTs
 * a JSON report to the intern's webhook. The destination is the operator's
 * configuration, not the model's choice, but it still goes through the
 * SSRF-safe fetcher so a webhook pointing inside the gateway's network is
 * refused unless the operator opened that range.
 */
export function notifyTool(fetcher: SafeFetcher, target: NotifyTarget): InternTool {
  return {
    needsApproval: true,
    definition: {
      type: 'function',
      function: {
        name: 'notify',
        description: 'Send a report to the person you work for (their webhook).',
        parameters: {
          type: 'object',
          properties: { subject: { type: 'string' }, report: { type: 'string', description: 'What to tell them.' } },
          required: ['report'],
        },
      },
    },
    destination: () => (target.webhookUrl && URL.canParse(target.webhookUrl) ? new URL(target.webhookUrl) : undefined),
    async run(args, signal) {
      const report = stringArg(args, 'report', true);
      const subject = stringArg(args, 'subject') ?? null;
      if (!target.webhookUrl) throw new ToolError('this intern has no webhook_url to notify');
      const payload = {
        type: 'intern.report',
        intern_id: target.internId,
        run_id: target.runId,
        subject,
        report,
        sent_at: target.now().toISOString(),
      };
      try {
        const answer = await fetcher.fetch(target.webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
          maxRedirects: 0,
          ...NOTIFY_LIMITS,
          signal,
        });
        if (answer.status < 200 || answer.status >= 300) throw new ToolError(`the webhook answered HTTP ${answer.status}`);
        return `report delivered (HTTP ${answer.status})`;
      } catch (error) {
        if (error instanceof SafeFetchError) throw new ToolError(`the webhook could not be reached (${error.failure}): ${error.message}`);
        throw error;
      }
    },
  };
}
