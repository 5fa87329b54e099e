import { describe, expect, it } from 'vitest';
import { Errors } from '../http/errors.js';
import type { GenerationRecord } from '../store/schema.js';
import type { RoutedRequest, Run } from './run.js';
import type { RunServices } from './run-services.js';
import { failRun } from './serve-run.js';

const key = { hash: 'h1', organization_id: 'org', workspace_id: 'ws', app_id: null, external_user: null };
const run = (recorded: () => void) =>
  ({
    id: 'gen-1',
    key,
    request: { model: 'sim/chat' },
    task: 'chat',
    requestId: 'req-1',
    origin: null,
    userAgent: null,
    endUserId: 'u',
    attempts: [],
    routing: { planned: [{ model: 'sim/chat' }] },
    startedAt: Date.parse('2026-11-20T10:00:00Z'),
    wantsMetadata: false,
    recorded,
  }) as unknown as Run<RoutedRequest>;

function services() {
  const rows: GenerationRecord[] = [];
  const ledger = { record: async (row: GenerationRecord) => void rows.push(row) } as unknown as RunServices['ledger'];
  return { rows, services: { ledger, clock: () => new Date('2026-11-20T10:00:01Z') } };
}

describe('failRun', () => {
  // A stream's reply is taken over before its attempts: a refusal thrown there reaches no error hook, so failRun records it.
  it('records a stream refused before any attempt, with the status and name it is answered with', async () => {
    const { rows, services: s } = services();
    let recorded = false;
    const refusal = Errors.invalidRequest('messages[0].content is empty');
    expect(
      await failRun(
        s,
        run(() => (recorded = true)),
        refusal,
        [],
        true,
      ),
    ).toBe(refusal);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      request_id: 'req-1',
      api_key_hash: 'h1',
      model: 'sim/chat',
      status: 'error',
      streamed: 1,
      total_cost: 0,
      provider_name: null,
      error_code: 400,
      error_name: refusal.code,
    });
    expect(recorded).toBe(true);
  });

  it('records an unexpected failure of such a stream as the 500 it is answered with', async () => {
    const { rows, services: s } = services();
    await failRun(
      s,
      run(() => {}),
      new Error('bug'),
      [],
      true,
    );
    expect(rows[0]).toMatchObject({ error_code: 500, error_name: Errors.internal().code });
  });

  it('leaves a refusal of an answer in one piece, with no attempt, to the error hook', async () => {
    const { rows, services: s } = services();
    await failRun(
      s,
      run(() => {}),
      Errors.invalidRequest('bad'),
      [],
      false,
    );
    expect(rows).toHaveLength(0);
  });
});
