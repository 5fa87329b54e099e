import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { readSse } from '../support/read-sse.js';
import { simCatalog } from '../support/sim-gateway.js';

const MODELS = [
  { id: 'sim/chat', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
  {
    id: 'sim/broken',
    endpoints: [
      { provider: 'alpha', upstream: 'sim-model@status=500', prompt: 0.000001 },
      { provider: 'beta', upstream: 'sim-model@status=502', prompt: 0.000002 },
    ],
  },
];

describe.each(testEngines)('generation content and feedback on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let plain: string;
  let other: string;

  const chat = (key: string, fields: Record<string, unknown> = {}) =>
    call(gw, 'POST', '/chat/completions', {
      key,
      body: {
        model: 'sim/chat',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello!' },
        ],
        ...fields,
      },
    });
  const content = (id: string, key = gw.managementKey) => call(gw, 'GET', `/generation/content?id=${encodeURIComponent(id)}`, { key });
  const storeContent = (on: boolean) => call(gw, 'PATCH', '/organization/settings', { key: gw.managementKey, body: { store_content: on } });
  const feedback = (body: unknown, key = gw.managementKey) => call(gw, 'POST', '/generation/feedback', { key, body });

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: simCatalog(sim.url, ['alpha', 'beta'], MODELS) });
    plain = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'plain' } })).body.key;
    other = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'other' } })).body.key;
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('stores nothing and answers 404 while content storage is off, as it is by default', async () => {
    expect((await call(gw, 'GET', '/organization/settings', { key: gw.managementKey })).body.data.store_content).toBe(false);
    const res = await chat(plain);
    expect(res.status).toBe(200);
    const refused = await content(res.body.id);
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe(
      "Generation content is not stored: this organization's content storage is off (store_content, PATCH /organization/settings)",
    );
    expect(await gw.store.db.selectFrom('generation_contents').selectAll().execute()).toEqual([]);
  });

  it('stores the messages and the answer of chats, streamed or not, once turned on; beside the ledger row, not in it', async () => {
    const unstored = (await chat(plain)).body.id as string;
    const turnedOn = await storeContent(true);
    expect(turnedOn.body.data.store_content).toBe(true);
    const res = await chat(plain);
    const stored = await content(res.body.id);
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({
      data: {
        input: {
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Hello!' },
          ],
        },
        output: { completion: res.body.choices[0].message.content, reasoning: null },
        error: null,
        truncated: false,
      },
    });
    const row = await gw.store.db.selectFrom('generations').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('Be brief.');

    const streamed = await fetch(`${gw.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${plain}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim/chat', stream: true, messages: [{ role: 'user', content: 'Stream to me' }] }),
    });
    const { chunks: events } = await readSse(streamed);
    const text = events.map((e) => e.choices?.[0]?.delta?.content ?? '').join('');
    expect(text.length).toBeGreaterThan(0);
    const fromStream = await content(events[0].id);
    expect(fromStream.body.data).toMatchObject({
      input: { messages: [{ role: 'user', content: 'Stream to me' }] },
      output: { completion: text, reasoning: null },
      error: null,
    });

    const before = await content(unstored);
    expect(before.status).toBe(404);
    expect(before.body.error.message).toBe(
      `No content was stored for generation ${unstored}: content storage was off when it ran, or it was not a chat`,
    );
  });

  it("keeps a failed generation's input, and tells its error with the attempts that failed before", async () => {
    const res = await chat(plain, { model: 'sim/broken' });
    expect(res.status).toBe(502);
    const id = (await gw.store.db.selectFrom('generations').select('id').where('model', '=', 'sim/broken').executeTakeFirstOrThrow()).id;
    const stored = await content(id);
    expect(stored.body.data).toEqual({
      input: {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello!' },
        ],
      },
      output: { completion: null, reasoning: null },
      error: {
        status: 502,
        message: res.body.error.message,
        provider_name: 'beta',
        raw: null,
        previous_errors: [{ code: 500, message: expect.stringContaining('500'), provider_name: 'alpha', raw: null }],
      },
      truncated: false,
    });
  });

  it('bounds what it keeps of a long conversation, and says it cut it', async () => {
    const long = 'w'.repeat(300_000);
    const res = await chat(plain, { messages: [{ role: 'user', content: long }] });
    const stored = await content(res.body.id);
    expect(stored.body.data.truncated).toBe(true);
    expect(stored.body.data.input.messages[0].content.length).toBeLessThan(20_000);
  });

  it("lets a key read its own generations' content, a management key any of the organization's, no one another organization's", async () => {
    const mine = (await chat(plain)).body.id as string;
    expect((await content(mine, plain)).status).toBe(200);
    expect((await content(mine, gw.managementKey)).status).toBe(200);
    const refused = await content(mine, other);
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe('Generation not found');
    expect((await content('gen-nothing')).status).toBe(404);
    expect((await call(gw, 'GET', '/generation/content?id=', { key: plain })).status).toBe(400);
    expect((await call(gw, 'GET', `/generation/content?id=${mine}`)).status).toBe(401);
  });

  it('stops reading and storing once turned off again', async () => {
    const stored = (await chat(plain)).body.id as string;
    await storeContent(false);
    const after = (await chat(plain)).body.id as string;
    expect((await content(stored)).status).toBe(404);
    await storeContent(true);
    expect((await content(stored)).status).toBe(200);
    expect((await content(after)).body.error.message).toContain('No content was stored');
  });

  it('POST /generation/feedback keeps each feedback on a generation of the organization (management keys)', async () => {
    const id = (await chat(plain)).body.id as string;
    expect(await feedback({ generation_id: id, category: 'incorrect_response', comment: 'Repeated itself.' })).toMatchObject({
      status: 200,
      body: { data: { success: true } },
    });
    expect((await feedback({ generation_id: id, category: 'latency' })).status).toBe(200);
    const kept = await gw.store.db
      .selectFrom('generation_feedback')
      .select(['generation_id', 'category', 'comment'])
      .where('generation_id', '=', id)
      .orderBy('created_at')
      .orderBy('category')
      .execute();
    expect(kept).toEqual(
      [
        { generation_id: id, category: 'incorrect_response', comment: 'Repeated itself.' },
        { generation_id: id, category: 'latency', comment: null },
      ].sort((a, b) => a.category.localeCompare(b.category)),
    );

    const refusals: [unknown, number, string][] = [
      [{ generation_id: 'gen-nothing', category: 'other' }, 404, 'Generation gen-nothing not found'],
      [
        { generation_id: id, category: 'rude' },
        400,
        'category must be one of "latency", "incoherence", "incorrect_response", "formatting", "billing", "api_error", "other"',
      ],
      [{ generation_id: id, category: 'other', comment: 'x'.repeat(1001) }, 400, 'comment must be at most 1000 characters long'],
      [{ category: 'other' }, 400, 'generation_id is required'],
    ];
    for (const [body, status, message] of refusals) {
      const res = await feedback(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.message).toBe(message);
    }
    expect((await feedback({ generation_id: id, category: 'other' }, plain)).status).toBe(403);
  });
});
