import { CODE_INTERPRETER } from '../plugins/code-interpreter/code-interpreter-tool.js';
import type { ServerToolRun } from '../plugins/server-tools/tool-loop.js';
import type { ResponseObject, ResponsesCodeInterpreterCall, ResponsesRequest } from '../protocol/responses.js';
import type { ItemIds } from './convert-chat-to-response.js';

/** The `include` value that asks for a code_interpreter_call's outputs, as OpenAI's. */
export const CODE_INTERPRETER_OUTPUTS = 'code_interpreter_call.outputs';

/** Whether a request's code_interpreter_call items carry their outputs (OpenAI sends them only when `include` asks). */
export const includesCodeOutputs = (request: Pick<ResponsesRequest, 'include'>): boolean =>
  request.include?.includes(CODE_INTERPRETER_OUTPUTS) ?? false;

/** Whether a request's input has the gateway's earlier code runs: no upstream knows them, so it goes upstream as chat (as its messages). */
export const carriesCodeRuns = (request: Pick<ResponsesRequest, 'input'>): boolean =>
  Array.isArray(request.input) && request.input.some((item) => item.type === 'code_interpreter_call');

/** The code the model sent in a call's arguments, or null when they hold none. */
function codeOf(args: string): string | null {
  try {
    const { code } = JSON.parse(args) as { code?: unknown };
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

/** How a call stands: running, refused or failed (the model saw an error), stopped at its time limit, or done (whatever its exit code). */
function statusOf({ result }: ServerToolRun): ResponsesCodeInterpreterCall['status'] {
  if (!result) return 'in_progress';
  if (result.error !== undefined) return 'failed';
  return result.data?.timed_out === true ? 'incomplete' : 'completed';
}

/** Whether a server tool's call is a code run, shown as a code_interpreter_call item (another tool's calls are not shown). */
export const isCodeRun = (run: ServerToolRun): boolean => run.call.function.name === CODE_INTERPRETER;

/**
 * The code_interpreter_call output item of a code run, as it stands: before the run (status in_progress, no
 * outputs yet) or after it, with its container and, when `withOutputs`,
 * what it printed as one `logs` output.
 */
export function codeInterpreterCallItem(run: ServerToolRun, id: string, withOutputs: boolean): ResponsesCodeInterpreterCall {
  const containerId = run.result?.data?.container_id;
  const logs = run.result?.logs;
  return {
    type: 'code_interpreter_call',
    id,
    status: statusOf(run),
    code: codeOf(run.call.function.arguments),
    ...(typeof containerId === 'string' ? { container_id: containerId } : {}),
    outputs: withOutputs && run.result ? (logs ? [{ type: 'logs', logs }] : []) : null,
  };
}

/** A non-streamed Response with its code runs as code_interpreter_call items, before the answer that read their results. */
export function withCodeRuns(response: ResponseObject, runs: readonly ServerToolRun[], ids: ItemIds, withOutputs: boolean): ResponseObject {
  const calls = runs.filter(isCodeRun).map((run) => codeInterpreterCallItem(run, ids('ci'), withOutputs));
  return calls.length > 0 ? { ...response, output: [...calls, ...response.output] } : response;
}
