import { describe, expect, it } from 'vitest';
import type { ChatRun } from '../chat/run.js';
import type { ChatCompletion, ChatRequest } from '../protocol/chat.js';
import { activePlugins } from './plugin-configs.js';
import { healJson, responseHealingStage } from './response-healing.js';

const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name', 'age'] };

describe('healJson', () => {
  it('leaves valid JSON alone and checks it against the schema', () => {
    expect(healJson('{"name":"Ada","age":36}', schema)).toEqual({ outcome: 'valid' });
    expect(healJson('{"name":"Ada"}', schema)).toEqual({ outcome: 'valid', schema: ["/ must have required property 'age'"] });
  });

  it('repairs truncated output, markdown fences and trailing commas', () => {
    expect(healJson('{"reply": "This is a simu', undefined)).toMatchObject({ outcome: 'repaired', content: '{"reply": "This is a simu"}' });
    const fenced = healJson('```json\n{"name": "Ada", "age": 36,}\n```', schema);
    expect(fenced).toMatchObject({ outcome: 'repaired' });
    expect(JSON.parse((fenced as { content: string }).content)).toEqual({ name: 'Ada', age: 36 });
    expect(fenced).not.toHaveProperty('schema');
  });

  it('says when the repaired JSON still misses the schema', () => {
    expect(healJson("{'name': 'Ada'", schema)).toMatchObject({ outcome: 'repaired', schema: ["/ must have required property 'age'"] });
  });

  it('runs schema patterns in linear time', () => {
    const evil = { type: 'string', pattern: '^(a+)+$' };
    expect(healJson(JSON.stringify(`${'a'.repeat(40_000)}b`), evil)).toMatchObject({
      outcome: 'valid',
      schema: [expect.stringContaining('must match pattern')],
    });
  });
});

describe('responseHealingStage', () => {
  const run = (request: Partial<ChatRequest>) =>
    ({ request: { messages: [], ...request }, plugins: activePlugins([], request.plugins), routing: {} }) as unknown as ChatRun;
  const completion = (content: string | null): ChatCompletion => ({
    id: 'x',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    system_fingerprint: null,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'length' }],
  });
  const json = { type: 'json_object' as const };

  it('applies to non-streaming JSON requests that ask for it', () => {
    expect(responseHealingStage.applies(run({ response_format: json, plugins: [{ id: 'response-healing' }] }))).toBe(true);
    expect(responseHealingStage.applies(run({ response_format: json }))).toBe(false);
    expect(responseHealingStage.applies(run({ response_format: json, stream: true, plugins: [{ id: 'response-healing' }] }))).toBe(false);
    expect(responseHealingStage.applies(run({ plugins: [{ id: 'response-healing' }] }))).toBe(false);
  });

  it('replaces broken content with the repaired JSON and records what it did', () => {
    const result = responseHealingStage.run(run({ response_format: json }), completion('{"a": [1, 2'));
    expect(result.completion.choices[0]?.message.content).toBe('{"a": [1, 2]}');
    expect(result.entries).toEqual([
      expect.objectContaining({
        type: 'response_healing',
        name: 'response-healing',
        data: expect.objectContaining({ action: 'repaired', parse_error: expect.any(String) }),
      }),
    ]);
  });

  it('records a skip and keeps the content when there is nothing to repair with', () => {
    const result = responseHealingStage.run(run({ response_format: json }), completion(null));
    expect(result.completion.choices[0]?.message.content).toBeNull();
    expect(result.entries[0]?.data).toMatchObject({ action: 'skipped' });
  });
});
