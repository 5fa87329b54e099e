import type { ToolCall } from '../../chat/types.js';
import { ToolError, type InternTool } from './intern-tool.js';
import { redactSecrets, referencedSecrets, substituteSecrets } from './secrets.js';

/** The values of the named secrets of the intern's vault (those that exist). */
export type SecretLookup = (names: readonly string[]) => Promise<Record<string, string>>;

/**
 * Runs one tool call of the model: parses its arguments, substitutes the
 * vault secrets it references, runs the tool, and hides secret values in
 * what comes back. Every failure is a result the model reads.
 */
export function toolExecutor(tools: ReadonlyMap<string, InternTool>, secrets: SecretLookup) {
  return async (call: ToolCall['function'], signal: AbortSignal): Promise<{ content: string; error?: boolean }> => {
    const tool = tools.get(call.name);
    if (!tool) return { content: `unknown tool "${call.name}" (available: ${[...tools.keys()].join(', ') || 'none'})`, error: true };
    let args: unknown;
    try {
      args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    } catch {
      return { content: 'the arguments are not valid JSON', error: true };
    }
    if (!args || typeof args !== 'object' || Array.isArray(args)) return { content: 'the arguments must be a JSON object', error: true };
    const names = referencedSecrets(args);
    const values = names.length > 0 ? await secrets(names) : {};
    const missing = names.filter((name) => !(name in values));
    if (missing.length > 0) return { content: `no secret named ${missing.join(', ')} in this intern's vault`, error: true };
    try {
      return { content: redactSecrets(await tool.run(substituteSecrets(args as Record<string, unknown>, values), signal), values) };
    } catch (error) {
      const message = error instanceof ToolError ? error.message : `${call.name} failed: ${error instanceof Error ? error.message : String(error)}`;
      return { content: redactSecrets(message, values), error: true };
    }
  };
}
