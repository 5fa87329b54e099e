import type { FunctionTool } from '../../protocol/chat.js';

/** A built-in tool an intern may be given (settings.tools names them). */
export interface InternTool {
  definition: FunctionTool;
  /** In manual mode the user approves each call first (self-drive approves its own). */
  needsApproval: boolean;
  /** The URL the call's data is sent to (arguments already substituted): vault secrets are released only to their bound hosts. */
  destination(args: Record<string, unknown>): URL | undefined;
  /** Runs with secrets already substituted; the text returned is the tool result the model sees. Throws ToolError for a failure the model should read. */
  run(args: Record<string, unknown>, signal: AbortSignal): Promise<string>;
}

/** A failure reported to the model as the tool's result (never a crash of the run). */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

/** The question tool: not run by an executor, the agent loop pauses on it (manual) or answers it with the fallback (self-drive). */
export const ASK_QUESTION = 'ask_question';

export const askQuestionDefinition: FunctionTool = {
  type: 'function',
  function: {
    name: ASK_QUESTION,
    description: 'Ask the person you work for a question and wait for the answer.',
    parameters: { type: 'object', properties: { question: { type: 'string', description: 'The question.' } }, required: ['question'] },
  },
};

/** A string argument, or a ToolError naming it. */
export function stringArg(args: Record<string, unknown>, name: string, required: true): string;
export function stringArg(args: Record<string, unknown>, name: string, required?: false): string | undefined;
export function stringArg(args: Record<string, unknown>, name: string, required = false): string | undefined {
  const value = args[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || (required && value === '')) throw new ToolError(`argument "${name}" must be a non-empty string`);
  return value;
}
