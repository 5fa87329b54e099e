import { containerRunCost } from '../../containers/container-cost.js';
import type { ContainerPricing } from '../../containers/container-settings.js';
import type { Containers } from '../../containers/containers.js';
import { SANDBOX_WORK_DIR } from '../../containers/sandbox/bwrap-args.js';
import { Errors } from '../../http/errors.js';
import type { ContainerRow } from '../../store/repositories/containers.js';
import type { ServerTool, ToolBilling, ToolContext } from '../server-tools/server-tool.js';

/** The function the model calls. */
export const CODE_INTERPRETER = 'code_interpreter';
const NAME = CODE_INTERPRETER;
/** The files a result lists, at most (the container's files API lists them all). */
const LISTED_FILES = 50;

/** A `service:code_interpreter` entry's `container`: `auto` (a new one for the request) or the id of one of the workspace's. */
export const containerSetting = (config: object): string | undefined => {
  const { container } = config as { container?: unknown };
  return typeof container === 'string' && container !== 'auto' ? container : undefined;
};

/** A `service:code_interpreter` entry's `file_ids`: the workspace's files copied into the request's new container. */
export const fileIdsSetting = (config: object): string[] => {
  const { file_ids: ids } = config as { file_ids?: unknown };
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
};

/**
 * The container a call runs in: the one the entry names, else the request's
 * own, made at its first call with the entry's files copied in.
 */
async function containerFor(containers: Containers, billing: ToolBilling, context: ToolContext): Promise<ContainerRow> {
  const kept = context.state.get(NAME) as ContainerRow | undefined;
  if (kept) return kept;
  const named = containerSetting(context.config);
  if (named) {
    const container = await containers.find(billing.workspaceId, named);
    if (!container) throw new Error(`container ${named} is not one of this workspace's containers`);
    return container;
  }
  const owner = { organizationId: billing.organizationId, workspaceId: billing.workspaceId, keyHash: billing.keyHash };
  return containers.create(owner, undefined, fileIdsSetting(context.config));
}

/**
 * The `service:code_interpreter` server tool (OpenAI's code interpreter,
 * served by the gateway): the model calls `code_interpreter` with Python
 * code, which runs in a container of the request's workspace (sandbox/);
 * the model reads its stdout, stderr, exit code and files. Each run holds
 * its most possible cost (the session fee when it is the request's first in
 * the container, and its time limit's seconds) before it starts, and is
 * recorded as a ledger row of its own at what it cost.
 */
export function codeInterpreterServerTool(containers: Containers, pricing: ContainerPricing): ServerTool {
  return {
    name: NAME,
    type: 'service:code_interpreter',
    definition: () => ({
      type: 'function',
      function: {
        name: NAME,
        description: `Runs Python 3 code in a sandbox with no network access and returns its stdout, stderr and the files in ${SANDBOX_WORK_DIR}, its working directory, which keeps its files between calls. Print what you want to see.`,
        parameters: {
          type: 'object',
          properties: { code: { type: 'string', description: 'The Python 3 program to run.' } },
          required: ['code'],
        },
      },
    }),
    check(config) {
      if (containerSetting(config) !== undefined && fileIdsSetting(config).length > 0)
        throw Errors.invalidRequest(
          'tools: a service:code_interpreter entry takes file_ids with container "auto" only: they start a new container',
        );
      const why = containers.knownUnavailable();
      if (why !== undefined) throw Errors.containersUnavailable(why);
    },
    async execute(args, context) {
      const code = (args as { code?: unknown }).code;
      if (typeof code !== 'string' || code.trim() === '')
        throw new Error('code_interpreter needs a "code" string: the Python program to run');
      const { billing } = context;
      if (!billing) throw new Error('code_interpreter cannot bill this request');
      await containers.requireAvailable();
      const container = await containerFor(containers, billing, context);
      const firstInSession = !context.state.has(NAME);
      context.state.set(NAME, container);
      const hold = await billing.hold(containerRunCost(pricing, { firstInSession, durationMs: containers.limits.wallMs }));
      let run: Awaited<ReturnType<Containers['run']>>;
      try {
        run = await containers.run(container, code, context.signal);
      } catch (error) {
        await hold.release();
        throw error;
      }
      // Never past the hold: a run's time limit bounds what it is charged for.
      const cost = containerRunCost(pricing, { firstInSession, durationMs: Math.min(run.durationMs, containers.limits.wallMs) });
      const outcome = {
        container_id: container.id,
        exit_code: run.exitCode,
        duration_ms: run.durationMs,
        ...(run.timedOut ? { timed_out: true } : {}),
        ...(run.diskExceeded ? { disk_exceeded: true } : {}),
      };
      await hold.charge({ apiType: NAME, model: NAME, cost, status: 'success', details: { ...outcome, first_in_session: firstInSession } });
      const files = await containers.listedFiles(container.id, LISTED_FILES);
      return {
        content: JSON.stringify({
          ...outcome,
          stdout: run.stdout,
          stderr: run.stderr,
          ...(run.truncated ? { output_truncated: true } : {}),
          ...(run.timedOut ? { error: `the run passed its time limit of ${containers.limits.wallMs} ms and was stopped` } : {}),
          ...(run.diskExceeded ? { error: 'the files it wrote passed the disk cap and were removed' } : {}),
          files: files.map((f) => ({ id: f.id, path: `${SANDBOX_WORK_DIR}/${f.path}`, bytes: Number(f.bytes) })),
        }),
        innerCost: cost,
        data: outcome,
        logs: run.stdout + run.stderr,
      };
    },
  };
}
