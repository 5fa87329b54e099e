import type { RoutedRequest, Run } from '../chat/run.js';
import type { ApplicableGuardrail } from '../guardrails/compiled-guardrail.js';
import { guardrailExclusion } from '../guardrails/endpoint-rules.js';
import { type ScannedText, scanContent } from '../guardrails/scan-content.js';
import { Errors } from '../http/errors.js';
import type { GatewayError } from '../protocol/gateway-error.js';
import { endpointKey } from '../routing/plan-attempts.js';
import type { PipelineEntry } from './pipeline-entry.js';
import type { RequestStage, StageResult } from './request-stage.js';

/**
 * How the guardrail stage reads and rewrites one API's request: its texts
 * (chat messages; a rerank's query and documents) and, where the API has
 * them, its token figures.
 */
export interface GuardedRequestView<R> {
  texts(request: R): ScannedText[];
  withTexts(request: R, texts: readonly ScannedText[]): R;
  promptTokens?(request: R): number;
  maxCompletionTokens?: { get(request: R): number | null | undefined; set(request: R, value: number): R };
}

interface Verdict<R extends RoutedRequest> {
  run: Run<R>;
  entry: PipelineEntry;
  blocked?: GatewayError;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** One guardrail applied to the run: content rules, token ceilings, then the endpoints it allows. */
function applyGuardrail<R extends RoutedRequest>(
  view: GuardedRequestView<R>,
  run: Run<R>,
  { guardrail, scope }: ApplicableGuardrail,
  /** The completion limit the client asked for, before any guardrail filled one in. */
  clientLimit: number | null | undefined,
): Verdict<R> {
  const { rules } = guardrail;
  const entry = (summary: string, data: Record<string, unknown>): PipelineEntry => ({
    type: 'guardrail',
    name: 'guardrail',
    guardrail_id: guardrail.id,
    guardrail_scope: scope,
    summary,
    data: { guardrail_name: guardrail.name, ...data },
  });
  const block = (detail: string, patterns: string[], data: Record<string, unknown>): Verdict<R> => ({
    run,
    entry: entry(`Blocked: ${detail}`, { action: 'blocked', patterns, ...data }),
    blocked: Errors.guardrailBlocked({ patterns, guardrail_id: guardrail.id, guardrail_scope: scope }, guardrail.name, detail),
  });

  let request = run.request;
  const data: Record<string, unknown> = {};
  const notes: string[] = [];
  if (guardrail.content.length > 0) {
    const scan = scanContent(guardrail.content, view.texts(request));
    if (scan.matched.block.length > 0) {
      return block(`${plural(scan.matched.block.length, 'blocked pattern')} matched`, scan.matched.block, {
        detected: true,
        engines: ['re2'],
      });
    }
    if (scan.redactions > 0) {
      request = view.withTexts(request, scan.texts);
      notes.push(`${plural(scan.redactions, 'match')} redacted (${scan.matched.redact.join(', ')})`);
      data.redacted = { patterns: scan.matched.redact, count: scan.redactions };
    }
    if (scan.matched.flag.length > 0) {
      notes.push(`flagged ${scan.matched.flag.join(', ')}`);
      data.flagged = scan.matched.flag;
    }
  }

  if (rules.max_prompt_tokens !== null && view.promptTokens) {
    const tokens = view.promptTokens(request);
    if (tokens > rules.max_prompt_tokens)
      return block(`prompt of about ${tokens} tokens exceeds max_prompt_tokens ${rules.max_prompt_tokens}`, [], { prompt_tokens: tokens });
  }
  const ceiling = rules.max_completion_tokens;
  if (ceiling !== null && view.maxCompletionTokens) {
    if (clientLimit != null && clientLimit > ceiling)
      return block(`max_completion_tokens ${clientLimit} exceeds the guardrail's ceiling of ${ceiling}`, [], {});
    // A limit an earlier guardrail filled in is lowered to this one's, so the lowest ceiling wins.
    const current = view.maxCompletionTokens.get(request);
    if (current == null || current > ceiling) {
      request = view.maxCompletionTokens.set(request, ceiling);
      notes.push(`max_completion_tokens set to ${ceiling}`);
      data.max_completion_tokens = ceiling;
    }
  }

  const dropped = new Map<string, string>();
  const attempts = run.attempts.filter((attempt) => {
    const reason = guardrailExclusion(rules, attempt.modelId, attempt.endpoint);
    if (reason) dropped.set(endpointKey(attempt.modelId, attempt.endpoint.provider), `guardrail ${guardrail.name}: ${reason}`);
    return !reason;
  });
  if (dropped.size > 0) {
    data.dropped_endpoints = [...dropped].map(([endpoint, reason]) => ({ endpoint, reason }));
    notes.push(`${plural(dropped.size, 'endpoint')} not allowed`);
  }
  if (attempts.length === 0) return block(`no endpoint it allows serves ${run.routing.planned[0]?.model ?? 'the request'}`, [], data);

  const next: Run<R> =
    request === run.request && dropped.size === 0
      ? run
      : {
          ...run,
          request,
          attempts,
          routing: {
            ...run.routing,
            planned: attempts.map((a) => ({ model: a.modelId, provider: a.endpoint.provider })),
            candidates: run.routing.candidates.map((c) => {
              const reason = dropped.get(endpointKey(c.model, c.provider));
              return reason ? { ...c, decision: 'dropped' as const, reason } : c;
            }),
          },
        };
  const action = data.redacted ? 'redacted' : data.flagged ? 'flagged' : 'allowed';
  return { run: next, entry: entry(notes.length > 0 ? `Allowed: ${notes.join('; ')}` : 'Allowed: no rule matched', { action, ...data }) };
}

/**
 * Every guardrail that governs the request's key, narrowest scope first; all
 * of them apply, so the most restrictive wins. The first block stops the
 * request with a 403 whose metadata lists the matched patterns.
 */
export function guardrailStage<R extends RoutedRequest>(view: GuardedRequestView<R>): RequestStage<R> {
  return {
    name: 'guardrails',
    applies: (context) => context.guardrails.length > 0,
    run(context): StageResult<R> {
      let run = context.run;
      const entries: PipelineEntry[] = [];
      const clientLimit = view.maxCompletionTokens?.get(run.request);
      for (const applicable of context.guardrails) {
        const verdict = applyGuardrail(view, run, applicable, clientLimit);
        entries.push(verdict.entry);
        run = verdict.run;
        if (verdict.blocked) return { entries, run, blocked: verdict.blocked };
      }
      return { entries, run };
    },
  };
}
