import { randomBytes } from 'node:crypto';
import type { IBackoffFactory } from 'cockatiel';
import type { Kysely } from 'kysely';
import type { ChatServices } from '../../chat/run-services.js';
import { Errors } from '../../http/errors.js';
import { GatewayError } from '../../protocol/gateway-error.js';
import type { ChangeFeed } from '../../store/change-feed.js';
import {
  addRunCost,
  appendStep,
  claimDueRuns,
  claimRun,
  countAwaitingRuns,
  findOpenRunInSession,
  findRun,
  type InternRunRow,
  insertRun,
  listSteps,
  openRunsOfIntern,
  overdueRuns,
  releaseRuns,
  renewRuns,
  seizeRun,
  unansweredRuns,
} from '../../store/repositories/intern-runs.js';
import type { Database } from '../../store/schema.js';
import type { Clock } from '../../util/clock.js';
import type { EndReason, NewStep, RecordedStep } from '../agent-loop/steps.js';
import type { InternRuntime, InternSubmitRequest, InternSubmitResult } from '../intern-runtime.js';
import { parseInternSettings } from '../intern-settings.js';
import { internModelCaller } from './intern-model-call.js';
import { AckTimeoutError, forkIntern, type SpawnIntern } from './intern-process.js';
import { deleteInternRows, internById, setInternState } from './intern-rows.js';
import { INTERN_PROCESS_TOPIC, processReconciler } from './process-reconciler.js';
import type { ChildCalls, ChildMessage } from './protocol.js';
import { type RunTerms, runChangeFor } from './run-change.js';
import { runEvents } from './run-events.js';
import { INTERN_RUN_INPUT_TOPIC, runInputs } from './run-inputs.js';
import { Supervisor } from './supervisor.js';

export interface InternRuntimeOptions {
  db: Kysely<Database>;
  clock: Clock;
  /** The gateway's chat services: runs' model calls go through them. */
  chat: ChatServices;
  /** An intern's vault secrets by name (those that exist): each value and the exact hostnames it may be sent to. */
  secrets?: (internId: string, names: readonly string[]) => Promise<Record<string, { value: string; hosts: string[] }>>;
  /** gateway.yaml network.allow_private_ranges: what tools' fetches may reach beyond public addresses. */
  allowPrivateRanges?: readonly string[];
  /** Notices between the instances sharing the database (an intern's process started or stopped elsewhere). */
  changes?: ChangeFeed;
  spawn?: SpawnIntern;
  backoff?: IBackoffFactory<unknown>;
  /** How long a run's lease lasts without renewal (a dead instance's runs return after it). Default 30 s. */
  leaseMs?: number;
  /** Between lease renewals, deadline checks and claims. Default 1 s. */
  tickMs?: number;
  /** How long the intern's process has to acknowledge a submitted input (504 after). Default 5 s. */
  ackTimeoutMs?: number;
  /** How long a starting process has to answer. Default 20 s. */
  startTimeoutMs?: number;
  /** Model calls per run. Default 50. */
  maxTurns?: number;
  /** The model of an intern that names none. */
  defaultModel?: string;
  log?: (message: string, detail?: unknown) => void;
}

interface LocalRun extends RunTerms {
  internId: string;
  apiKeyHash: string;
  /** Undefined when neither the intern nor the gateway names one: the run fails at its first model call, saying so. */
  model: string | undefined;
  /** The child acknowledged the run (false after a crash until it is assigned again). */
  assigned: boolean;
  /** A model turn being taken: a restarted process is assigned the run only once it is recorded (or failed). */
  turning?: Promise<unknown>;
}

const PROVISION_STEPS = 2;

/** What a failure of the intern's process means for the client: its acknowledgement timed out (504), or it could not be reached (502). */
export function runtimeError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof AckTimeoutError) return Errors.internTimeout();
  return Errors.internUnreachable(error instanceof Error ? error.message : String(error));
}

/**
 * The interns runtime of one gateway instance: a supervised process per
 * running intern, and the runs this instance drives. Runs live in the
 * database under a lease (like video jobs): whichever instance holds it
 * drives the run through the intern's process; a lease left by a dead or
 * stopped instance lapses and another instance (or this one restarted)
 * resumes the run from its last recorded step.
 */
export function createInternRuntime(options: InternRuntimeOptions): InternRuntime {
  const { db, clock } = options;
  const token = randomBytes(12).toString('hex');
  const leaseMs = options.leaseMs ?? 30_000;
  const tickMs = options.tickMs ?? 1_000;
  const ackTimeoutMs = options.ackTimeoutMs ?? 5_000;
  const log = options.log ?? (() => undefined);
  const callModel = internModelCaller(options.chat);
  const local = new Map<string, LocalRun>();
  const listeners = new Map<string, Set<() => void>>();
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let started = false;
  const provisioningHere = new Set<string>();
  const startTimeoutMs = options.startTimeoutMs ?? 20_000;

  const leaseUntil = () => new Date(clock().getTime() + leaseMs);
  const notify = (runId: string) => {
    for (const wake of listeners.get(runId) ?? []) wake();
  };

  const supervisor = new Supervisor({
    spawn: options.spawn ?? forkIntern,
    init: (internId) => ({ internId, allowPrivateRanges: [...(options.allowPrivateRanges ?? [])] }),
    startTimeoutMs,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    handlers: {
      onCall: (internId, runId, method, args) => handleCall(internId, runId, method as keyof ChildCalls, args),
      onDone: (_internId, message) => void handleDone(message).catch((error: unknown) => log('intern run end failed', error)),
      onReady: (internId) => {
        for (const [runId, run] of local)
          if (run.internId === internId && !run.assigned)
            void assign(runId).catch((error: unknown) => log('intern run resume failed', error));
      },
      onCrash: (internId, info) => {
        log(`intern ${internId} process exited (${info.signal ?? info.code}); restarting in ${info.restartInMs} ms`);
        for (const run of local.values()) if (run.internId === internId) run.assigned = false;
      },
    },
  });

  const reconciler = processReconciler({
    db,
    supervisor,
    now: clock,
    provisioningHere,
    staleProvisioningMs: startTimeoutMs + leaseMs,
    retryMs: Math.max(tickMs * 10, 1_000),
    provision: (internId) => startInBackground(internId),
    onStopped: (internId) => {
      for (const [runId, run] of local) if (run.internId === internId) local.delete(runId);
    },
    log,
  });
  /** Steers and answers for runs another instance drives, and those that others hand to runs driven here. */
  const inputs = runInputs({
    db,
    clock,
    changes: options.changes,
    timeoutMs: ackTimeoutMs,
    deliver: async (input) => {
      const channel = assignedChannel(input.run_id);
      if (!channel) return false;
      await channel.request({ type: input.kind, runId: input.run_id, text: input.text }, ackTimeoutMs);
      return true;
    },
    log,
  });
  const assignedRuns = () => [...local].filter(([, run]) => run.assigned).map(([runId]) => runId);
  const announce = (internId: string) =>
    options.changes?.publish(INTERN_PROCESS_TOPIC, internId).catch((error: unknown) => log('intern change notice failed', error));

  /** Records a step of a run this instance holds; undefined when the lease was lost or the run ended. */
  async function record(runId: string, terms: RunTerms, step: NewStep, generationId?: string): Promise<RecordedStep | undefined> {
    const now = clock();
    const recorded = await appendStep(db, { runId, token, step, generationId, change: runChangeFor(step, terms, now), now });
    if (recorded) notify(runId);
    if (!recorded || step.kind === 'end') local.delete(runId);
    return recorded;
  }

  async function handleCall(internId: string, runId: string, method: keyof ChildCalls, args: unknown): Promise<unknown> {
    const run = local.get(runId);
    if (!run || run.internId !== internId || stopping.signal.aborted) throw new Error(`run ${runId} is not driven by this process`);
    switch (method) {
      case 'now':
        return clock().toISOString();
      case 'secrets':
        return options.secrets ? options.secrets(internId, (args as ChildCalls['secrets']['args']).names) : {};
      case 'turn': {
        const turning = takeTurn(runId, run, args as ChildCalls['turn']['args']);
        run.turning = turning.catch(() => undefined);
        return turning;
      }
      case 'record': {
        const recorded = await record(runId, run, (args as ChildCalls['record']['args']).step);
        if (!recorded) throw new Error(`run ${runId} is no longer held by this instance`);
        return recorded;
      }
    }
  }

  /** Calls the model and records its reply with the generation billed for it, whether or not the process is still there to read it. */
  async function takeTurn(runId: string, run: LocalRun, { messages, tools }: ChildCalls['turn']['args']): Promise<RecordedStep> {
    if (!run.model) throw new Error('this intern names no model');
    const turn = await callModel({ runId, apiKeyHash: run.apiKeyHash, model: run.model, messages, tools, signal: stopping.signal });
    await addRunCost(db, runId, turn.cost);
    const recorded = await record(runId, run, { kind: 'assistant', content: { message: turn.message } }, turn.generationId);
    if (!recorded) throw new Error(`run ${runId} is no longer held by this instance`);
    return recorded;
  }

  async function handleDone(message: Extract<ChildMessage, { type: 'done' }>): Promise<void> {
    const run = local.get(message.runId);
    if (!run) return;
    if ('error' in message) {
      await record(message.runId, run, { kind: 'end', content: { reason: 'failed', error: message.error } });
    } else if (!message.outcome.recorded && !stopping.signal.aborted && run.assigned) {
      // Stopped from outside without an end (this instance records those itself): nothing more to drive.
      local.delete(message.runId);
    }
  }

  /** Stops a run in its intern's process here, if that process is up (a gone process has stopped it already). */
  async function stopInProcess(internId: string, runId: string): Promise<void> {
    await supervisor
      .channel(internId)
      ?.request({ type: 'stop', runId }, ackTimeoutMs)
      .catch(() => undefined);
  }

  /** Ends a run whoever holds it (suspend, deadline, cancel), and stops it in its process when it is here. */
  async function endRun(row: InternRunRow, reason: EndReason, error?: string): Promise<void> {
    if (!local.has(row.id) && !(await seizeRun(db, { id: row.id, token, leaseUntil: leaseUntil() }))) return;
    const run = local.get(row.id);
    await record(row.id, run ?? termsOf(row, undefined), { kind: 'end', content: { reason, ...(error ? { error } : {}) } });
    if (run) await stopInProcess(run.internId, row.id);
  }

  /** Hands a run this instance holds to its intern's process, with the transcript so far. */
  async function assign(runId: string): Promise<void> {
    // A turn the previous process asked for is recorded first: the new one resumes after it.
    await local.get(runId)?.turning;
    const run = local.get(runId);
    const row = await findRun(db, runId);
    if (!run || !row) return;
    const intern = await internById(db, run.internId);
    const channel = supervisor.channel(run.internId);
    if (!intern || !channel) return;
    const steps = (await listSteps(db, runId)).map(({ generation_id: _g, ...step }) => step as RecordedStep);
    await channel.request(
      {
        type: 'run',
        run: {
          runId,
          internId: run.internId,
          instructions: intern.instructions,
          settings: parseInternSettings(intern.settings),
          mode: run.mode,
          deadlineAt: row.deadline_at,
          maxTurns: options.maxTurns ?? 50,
          steps,
        },
      },
      ackTimeoutMs,
    );
    run.assigned = true;
    void inputs.drain([runId]);
  }

  async function adopt(row: InternRunRow): Promise<void> {
    holdRow(row, await internById(db, row.intern_id));
    await assign(row.id);
  }

  /** Takes a run into this instance's hands; its process gets it when it is assigned. */
  function hold(runId: string, run: Omit<LocalRun, 'model' | 'assigned'>, model: string | null | undefined): LocalRun {
    const held: LocalRun = { ...run, model: modelOf(model), assigned: false };
    local.set(runId, held);
    return held;
  }

  /** hold for a run read from the database, on the terms of its intern (gone: the defaults, and the run can only end). */
  function holdRow(row: InternRunRow, intern: { model: string | null; settings: string } | undefined): LocalRun {
    return hold(row.id, { internId: row.intern_id, ...termsOf(row, intern?.settings), apiKeyHash: row.api_key_hash }, intern?.model);
  }

  /** The channel to the process of a run this instance drives, once the run is assigned to it. */
  function assignedChannel(runId: string) {
    const run = local.get(runId);
    return run?.assigned ? supervisor.channel(run.internId) : undefined;
  }

  /** A run's terms from its row and its intern's settings (the defaults when the intern is gone: the run can only end). */
  function termsOf(row: InternRunRow, settings: string | undefined): RunTerms {
    return { mode: row.approval_mode, interactionDeadlineSeconds: parseInternSettings(settings).interaction_deadline_seconds };
  }

  function modelOf(model: string | null | undefined): string | undefined {
    return model ?? options.defaultModel;
  }

  async function tick(): Promise<void> {
    await reconciler.all();
    const now = clock();
    const held = await renewRuns(db, { token, ids: [...local.keys()], leaseUntil: leaseUntil() });
    for (const runId of local.keys()) {
      if (held.includes(runId)) continue;
      const run = local.get(runId);
      local.delete(runId);
      if (run) await stopInProcess(run.internId, runId);
    }
    for (const row of await overdueRuns(db, now, 50)) await endRun(row, 'deadline', `the run passed its deadline (${row.deadline_at})`);
    // The SDK: a question stays open for its interaction deadline, and the run is cancelled when that passes.
    for (const row of await unansweredRuns(db, now, 50))
      await endRun(row, 'cancelled', `no answer within the interaction deadline (${row.interaction_deadline_at})`);
    const claimed = await claimDueRuns(db, { token, now, leaseUntil: leaseUntil(), limit: 20, internIds: supervisor.readyInterns() });
    for (const row of claimed) await adopt(row).catch((error: unknown) => log(`intern run ${row.id} could not be resumed`, error));
    await inputs.drain(assignedRuns());
  }

  function schedule(ms: number): void {
    timer = setTimeout(() => {
      ticking = tick()
        .catch((error: unknown) => log('intern runtime tick failed', error))
        .finally(() => {
          ticking = undefined;
          if (!stopping.signal.aborted) schedule(tickMs);
        });
    }, ms);
  }

  /** The one place an intern's provisioning is decided: on the instance that got the request (or took over an abandoned one). */
  function startInBackground(internId: string): void {
    void startProcess(internId).catch((error: unknown) => log(`intern ${internId} provisioning failed`, error));
  }

  async function startProcess(internId: string): Promise<void> {
    if (provisioningHere.has(internId)) return;
    provisioningHere.add(internId);
    try {
      await setInternState(
        db,
        internId,
        {
          status: 'provisioning',
          progress: { step_label: 'Starting the intern process', step_number: 1, total_steps: PROVISION_STEPS },
          lastFailureMessage: null,
        },
        clock(),
      );
      try {
        await supervisor.ensure(internId);
        await setInternState(db, internId, { status: 'running', progress: null }, clock(), ['provisioning']);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await setInternState(
          db,
          internId,
          { status: 'failed', progress: null, lastFailureMessage: `the intern process did not start: ${message}` },
          clock(),
          ['provisioning'],
        );
      }
    } finally {
      provisioningHere.delete(internId);
    }
    await announce(internId);
  }

  async function stopIntern(internId: string): Promise<void> {
    for (const row of await openRunsOfIntern(db, internId)) await endRun(row, 'stopped');
    await supervisor.stop(internId);
  }

  /** The channel of the intern's process here, started now if it is not yet (the notice that it runs has not arrived). */
  async function processHere(internId: string) {
    if (!supervisor.channel(internId))
      await supervisor.ensure(internId).catch((error: unknown) => {
        throw Errors.internUnreachable(
          `its process is not running on this gateway: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    const channel = supervisor.channel(internId);
    if (!channel) throw Errors.internUnreachable('its process is not running on this gateway');
    return channel;
  }

  return {
    async provision(internId) {
      await setInternState(
        db,
        internId,
        {
          status: 'provisioning',
          progress: { step_label: 'Queued for start', step_number: 0, total_steps: PROVISION_STEPS },
          lastFailureMessage: null,
        },
        clock(),
      );
      startInBackground(internId);
    },

    async suspend(internId) {
      await stopIntern(internId);
      await setInternState(db, internId, { status: 'stopped', progress: null }, clock());
      await announce(internId);
    },

    async destroy(internId) {
      await setInternState(db, internId, { status: 'destroying', progress: null }, clock());
      try {
        await stopIntern(internId);
        await deleteInternRows(db, internId);
      } catch (error) {
        await setInternState(
          db,
          internId,
          { status: 'destroy_failed', lastFailureMessage: error instanceof Error ? error.message : String(error) },
          clock(),
        );
      }
      await announce(internId);
    },

    async submit(req: InternSubmitRequest): Promise<InternSubmitResult> {
      const intern = await internById(db, req.internId);
      if (!intern) throw Errors.internNotFound('Intern');
      if (intern.status !== 'running') throw Errors.internNotReady(intern.status);
      const channel = await processHere(req.internId);
      const settings = parseInternSettings(intern.settings);

      const open = await findOpenRunInSession(db, req.sessionId);
      if (open) {
        try {
          if (local.get(open.id)?.assigned) {
            await channel.request({ type: 'steer', runId: open.id, text: req.input }, ackTimeoutMs);
          } else {
            // No process here drives it (yet): take the run if no live instance holds it, record the input, and hand it over.
            if (!(await claimRun(db, { id: open.id, token, now: clock(), leaseUntil: leaseUntil() }))) {
              await inputs.handOver(open.id, 'steer', req.input);
              return { status: 'steered', runId: open.id };
            }
            const run = holdRow(open, intern);
            if (!(await record(open.id, run, { kind: 'steer', content: { text: req.input } })))
              throw Errors.internUnreachable("the session's run ended meanwhile");
            await assign(open.id);
          }
        } catch (error) {
          throw runtimeError(error);
        }
        return { status: 'steered', runId: open.id };
      }

      if (req.approvalMode === 'manual') {
        const waiting = await countAwaitingRuns(db, req.internId);
        if (waiting >= settings.max_open_questions) throw Errors.internBusy(waiting);
      }
      const now = clock();
      const runId = `irun_${randomBytes(12).toString('hex')}`;
      await insertRun(
        db,
        {
          id: runId,
          session_id: req.sessionId,
          intern_id: req.internId,
          organization_id: req.organizationId,
          api_key_hash: req.apiKeyHash,
          approval_mode: req.approvalMode,
          started_at: now.toISOString(),
          deadline_at: new Date(now.getTime() + settings.deadline_seconds * 1000).toISOString(),
          claimed_by: token,
          claimed_until: leaseUntil().toISOString(),
        },
        req.input,
        now,
      );
      const run = hold(
        runId,
        {
          internId: req.internId,
          mode: req.approvalMode,
          interactionDeadlineSeconds: settings.interaction_deadline_seconds,
          apiKeyHash: req.apiKeyHash,
        },
        intern.model,
      );
      try {
        await assign(runId);
      } catch (error) {
        // The caller is told it failed: the run must not carry on behind its back.
        const failure = runtimeError(error);
        await record(runId, run, { kind: 'end', content: { reason: 'failed', error: failure.message } });
        throw failure;
      }
      return { status: 'started', runId };
    },

    events(runId, signal) {
      return runEvents({ db, runId, signal, subscribe: (wake) => subscribe(runId, wake) });
    },

    async cancel(runId, why) {
      const row = await findRun(db, runId);
      if (row) await endRun(row, 'cancelled', why);
    },

    async answer(runId, text) {
      const row = await findRun(db, runId);
      if (row?.status !== 'awaiting_input') throw Errors.internBadRequest('the run is not waiting for an answer');
      try {
        if (!local.has(runId) && (await claimRun(db, { id: runId, token, now: clock(), leaseUntil: leaseUntil() }))) {
          // No live instance drives it: this one takes it over, then answers it here.
          await processHere(row.intern_id);
          await adopt(row);
        } else if (!local.has(runId)) {
          return await inputs.handOver(runId, 'answer', text);
        }
        const channel = assignedChannel(runId);
        if (!channel) throw Errors.internUnreachable('the intern process driving the run here is restarting');
        await channel.request({ type: 'answer', runId, text }, ackTimeoutMs);
      } catch (error) {
        throw runtimeError(error);
      }
    },

    async start() {
      if (started) return;
      started = true;
      options.changes?.subscribe(INTERN_RUN_INPUT_TOPIC, (runId) => {
        if (local.get(runId)?.assigned) void inputs.drain([runId]);
      });
      options.changes?.subscribe(INTERN_PROCESS_TOPIC, (internId) => {
        if (!stopping.signal.aborted)
          void reconciler.one(internId).catch((error: unknown) => log(`intern ${internId} could not be brought in line`, error));
      });
      schedule(0);
    },

    async close() {
      stopping.abort();
      clearTimeout(timer);
      await ticking;
      await supervisor.stopAll();
      local.clear();
      // The runs carry on from the database: after a restart here, or on another instance at once.
      await releaseRuns(db, { token, now: clock() });
    },
  };

  function subscribe(runId: string, wake: () => void): () => void {
    const set = listeners.get(runId) ?? new Set();
    set.add(wake);
    listeners.set(runId, set);
    return () => {
      set.delete(wake);
      if (set.size === 0) listeners.delete(runId);
    };
  }
}
