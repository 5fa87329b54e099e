/**
 * What the gateway's operations (metrics, traces, the access log: observability/) are told of a run,
 * at the few points every run passes whatever its API: its routing, each upstream attempt, and its end
 * just before its ledger row is written. This file imports nothing of observability/: app.ts passes an
 * implementation in (RunServices.observer).
 */
import type { Endpoint } from '../catalog/types.js';
import type { FinishReason, Usage } from '../protocol/chat.js';
import type { Attempt } from '../routing/plan-attempts.js';
import type { GenerationStatus } from '../store/schema.js';
import type { AttemptOutcome } from './attempt-outcome.js';
import type { RoutedRequest, Run } from './run.js';

/** How a run ended, as settle-run.ts's RunEnd says it (which fits this). */
export interface ObservedEnd {
  status: GenerationStatus;
  streamed: boolean;
  attempt?: Attempt<Endpoint>;
  outcomes: readonly AttemptOutcome[];
  usage?: Usage;
  ttftMs?: number | null;
  finishReason?: FinishReason | null;
  upstreamId?: string | null;
  error?: { code: number; message: string };
}

export interface RunObserver {
  /** Runs one step of a request (its routing, a plugin stage) named `name`, and returns what it returns. */
  step<T>(name: string, work: () => T): T;
  /** Runs one upstream attempt of `run` (a stream's: until its first chunk), and returns what it returns. */
  attempt<T>(run: Run<RoutedRequest>, attempt: Attempt<Endpoint>, call: () => Promise<T>): Promise<T>;
  /** The run ended, its cost known; called once per run, before its ledger row is written. */
  settled(run: Run<RoutedRequest>, end: ObservedEnd, cost: number): void;
}

/** `work` as a step of `observer`, or just `work` when nobody observes. */
export function observedStep<T>(observer: RunObserver | undefined, name: string, work: () => T): T {
  return observer ? observer.step(name, work) : work();
}
