import { describe, expect, it } from 'vitest';
import { toolExecutor } from './execute-tool-call.js';
import { type InternTool, ToolError } from './intern-tool.js';

const signal = new AbortController().signal;
const echo: InternTool = {
  needsApproval: false,
  destination: (args) => (typeof args.to === 'string' ? new URL(args.to) : undefined),
  definition: { type: 'function', function: { name: 'echo' } },
  run: async (args) => {
    if (args.fail) throw new ToolError(`failed with ${String(args.fail)}`);
    return `got ${JSON.stringify(args)}`;
  },
};
const tools = new Map([['echo', echo]]);
const vault = async (names: readonly string[]) =>
  Object.fromEntries(names.filter((n) => n === 'TOKEN').map((n) => [n, { value: 'v4lue', hosts: ['api.example.com'] }]));

describe('toolExecutor', () => {
  const execute = toolExecutor(tools, vault);

  it('substitutes secrets for the tool and hides them in the result', async () => {
    await expect(
      execute({ name: 'echo', arguments: '{"to":"https://api.example.com/x","auth":"Bearer {{secret:TOKEN}}"}' }, signal),
    ).resolves.toEqual({
      content: 'got {"to":"https://api.example.com/x","auth":"Bearer {{secret:TOKEN}}"}',
    });
  });

  it('releases a secret only to its bound hosts, exactly', async () => {
    await expect(execute({ name: 'echo', arguments: '{"to":"https://example.com/","auth":"{{secret:TOKEN}}"}' }, signal)).resolves.toEqual({
      content: 'secret TOKEN may only be sent to api.example.com, not example.com',
      error: true,
    });
    await expect(execute({ name: 'echo', arguments: '{"auth":"{{secret:TOKEN}}"}' }, signal)).resolves.toEqual({
      content: 'secret TOKEN cannot be used with this tool',
      error: true,
    });
  });

  it('hides secrets in error messages too', async () => {
    await expect(
      execute({ name: 'echo', arguments: '{"to":"https://api.example.com","fail":"{{secret:TOKEN}}"}' }, signal),
    ).resolves.toEqual({ content: 'failed with {{secret:TOKEN}}', error: true });
  });

  it('refuses a missing secret, unknown tools and bad arguments as results the model reads', async () => {
    await expect(execute({ name: 'echo', arguments: '{"a":"{{secret:NOPE}}"}' }, signal)).resolves.toEqual({
      content: "no secret named NOPE in this intern's vault",
      error: true,
    });
    await expect(execute({ name: 'rm', arguments: '{}' }, signal)).resolves.toMatchObject({
      error: true,
      content: 'unknown tool "rm" (available: echo)',
    });
    await expect(execute({ name: 'echo', arguments: '{' }, signal)).resolves.toMatchObject({
      error: true,
      content: 'the arguments are not valid JSON',
    });
    await expect(execute({ name: 'echo', arguments: '[1]' }, signal)).resolves.toMatchObject({ error: true });
  });
});
