import type { ToolCall } from '../../protocol/chat.js';
import { type InternTool, ToolError } from './intern-tool.js';
import { redactSecrets, referencedSecrets, substituteSecrets } from './secrets.js';

/** The named secrets of the intern's vault (those that exist): each value and the exact hostnames it may be sent to. */
export type SecretLookup = (names: readonly string[]) => Promise<Record<string, { value: string; hosts: readonly string[] }>>;

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
    const found = names.length > 0 ? await secrets(names) : {};
    const missing = names.filter((name) => !(name in found));
    if (missing.length > 0) return { content: `no secret named ${missing.join(', ')} in this intern's vault`, error: true };
    const values = Object.fromEntries(Object.entries(found).map(([name, secret]) => [name, secret.value]));
    try {
      const substituted = substituteSecrets(args as Record<string, unknown>, values);
      const refused = names.length > 0 ? hostRefusal(tool.destination(substituted), found) : undefined;
      if (refused) return { content: refused, error: true };
      return { content: redactSecrets(await tool.run(substituted, signal), values) };
    } catch (error) {
      const message =
        error instanceof ToolError ? error.message : `${call.name} failed: ${error instanceof Error ? error.message : String(error)}`;
      return { content: redactSecrets(message, values), error: true };
    }
  };
}

/**
 * Why the call may not carry these secrets, or undefined: each is released
 * only to the exact hostnames it is bound to (the vault's rule; a secret with
 * no hosts goes nowhere), and only by a tool that says where it sends.
 */
function hostRefusal(destination: URL | undefined, secrets: Record<string, { hosts: readonly string[] }>): string | undefined {
  const host = destination?.hostname.toLowerCase().replace(/\.$/, '');
  for (const [name, secret] of Object.entries(secrets)) {
    if (host === undefined) return `secret ${name} cannot be used with this tool`;
    if (!secret.hosts.includes(host)) return `secret ${name} may only be sent to ${secret.hosts.join(', ') || 'no host'}, not ${host}`;
  }
  return undefined;
}
