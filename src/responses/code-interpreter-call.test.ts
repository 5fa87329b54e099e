import { describe, expect, it } from 'vitest';
import type { ServerToolRun } from '../plugins/server-tools/tool-loop.js';
import { codeInterpreterCallItem, includesCodeOutputs, withCodeRuns } from './code-interpreter-call.js';
import { responseShell } from './convert-chat-to-response.js';

const call = (args: string) => ({ id: 'call_1', type: 'function' as const, function: { name: 'code_interpreter', arguments: args } });
const done = (result: NonNullable<ServerToolRun['result']>): ServerToolRun => ({ call: call('{"code":"1/0"}'), result });

describe('codeInterpreterCallItem', () => {
  it('is in progress, without outputs, before the run', () => {
    expect(codeInterpreterCallItem({ call: call('{"code":"x"}') }, 'ci_1', true)).toEqual({
      type: 'code_interpreter_call',
      id: 'ci_1',
      status: 'in_progress',
      code: 'x',
      outputs: null,
    });
  });

  it('says what the run came to: completed whatever its exit code, incomplete past its time limit, failed when it could not run', () => {
    const printed = done({ content: '{}', data: { container_id: 'c', exit_code: 1 }, logs: 'Traceback' });
    expect(codeInterpreterCallItem(printed, 'ci_1', true)).toMatchObject({
      status: 'completed',
      container_id: 'c',
      outputs: [{ type: 'logs', logs: 'Traceback' }],
    });
    expect(codeInterpreterCallItem(printed, 'ci_1', false).outputs).toBeNull();
    expect(
      codeInterpreterCallItem(done({ content: '{}', data: { container_id: 'c', timed_out: true }, logs: '' }), 'ci_1', true),
    ).toMatchObject({ status: 'incomplete', outputs: [] });
    const refused = codeInterpreterCallItem(done({ content: '{"error":"402"}', error: '402' }), 'ci_1', true);
    expect(refused).toMatchObject({ status: 'failed', outputs: [] });
    expect(refused).not.toHaveProperty('container_id');
  });

  it('has no code when the arguments hold none', () => {
    expect(codeInterpreterCallItem({ call: call('not json') }, 'ci_1', false).code).toBeNull();
  });
});

describe('withCodeRuns', () => {
  it('puts the code runs, and no other tool’s calls, before the answer', () => {
    const response = { ...responseShell({ input: 'hi' }, { id: 'gen-1', model: 'm', createdAt: 1 }), output: [] };
    const search = { call: { ...call('{}'), function: { name: 'web_search', arguments: '{}' } }, result: { content: 'found' } };
    const ran = done({ content: '{}', data: { container_id: 'c' }, logs: '' });
    const out = withCodeRuns(response, [search, ran], (prefix) => `${prefix}_9`, includesCodeOutputs({ include: null }));
    expect(out.output).toEqual([
      { type: 'code_interpreter_call', id: 'ci_9', status: 'completed', code: '1/0', container_id: 'c', outputs: null },
    ]);
  });
});
