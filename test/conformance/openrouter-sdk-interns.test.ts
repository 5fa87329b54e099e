import { OpenRouter } from '@openrouter/sdk';
import type { InternChatCompletionChunk, InternChatSteeredResponse } from '@openrouter/sdk/models';
import { InternChatErrorResponse, InternLifecycleError, NotFoundResponseError } from '@openrouter/sdk/models/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway } from '../support/gateway.js';
import { enrolInProgramme, type InternWorld, startInternWorld } from '../support/intern-world.js';
import { waitFor } from '../support/interns-runtime.js';

type ChatResult = InternChatSteeredResponse | AsyncIterable<InternChatCompletionChunk>;

/** Every chunk of a streamed chat result, read through [DONE]; the steered answer is not a stream. */
async function chunksOf(
  result: ChatResult,
  onChunk: (chunk: InternChatCompletionChunk) => void = () => undefined,
): Promise<InternChatCompletionChunk[]> {
  if (!(Symbol.asyncIterator in result)) throw new Error(`expected a stream, got ${JSON.stringify(result)}`);
  const chunks: InternChatCompletionChunk[] = [];
  for await (const chunk of result) {
    chunks.push(chunk);
    onChunk(chunk);
  }
  return chunks;
}

const reasoning = (chunks: InternChatCompletionChunk[]) => chunks.map((c) => c.choices[0]?.delta.reasoning ?? '').join('');

/** The SDK's error for a rejected call (the call must reject). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/**
 * Every interns and vault operation of the official SDK, made through its own
 * methods against the gateway with the real intern runtime (the simulator
 * plays the intern's model): the SDK parses each answer, and throws its typed
 * error with our metadata for each refusal. Invoke is not in the SDK.
 */
describe.each(testEngines)('@openrouter/sdk interns and vault operations on $name', (engine) => {
  let world: InternWorld;
  let gw: RunningGateway;
  let sdk: OpenRouter;

  beforeAll(async () => {
    world = await startInternWorld(engine);
    gw = world.gateway;
    sdk = new OpenRouter({ apiKey: gw.managementKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });
  }, 30_000);
  afterAll(async () => {
    await world?.close();
  });

  /** An intern made through the SDK and running the simulator's agent; its tools' reach is our setting, which the SDK does not model. */
  async function runningIntern(name: string, settings: Record<string, unknown> = {}): Promise<string> {
    const created = await sdk.interns.createIntern({ createInternRequest: { name } });
    await sdk.interns.updateIntern({ internId: created.id, updateInternRequest: { model: 'sim/agent' } });
    const reach = { allowed_domains: ['127.0.0.1'], webhook_url: `${world.webhook.url}/hook`, ...settings };
    await call(gw, 'PATCH', `/interns/${created.id}`, { key: gw.managementKey, body: reach });
    await sdk.interns.provisionIntern({ internId: created.id });
    await waitFor(
      async () => (await sdk.interns.getIntern({ internId: created.id })).status,
      (s) => s === 'running',
      'running',
    );
    return created.id;
  }

  it('outside the programme: InternLifecycleError and NotFoundResponseError 404 with our metadata; 401 without a valid key', async () => {
    const stranger = new OpenRouter({ apiKey: 'sk-mg-v1-not-a-key', serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });
    const unauthorized = await rejection(stranger.interns.listInterns());
    expect(unauthorized).toBeInstanceOf(InternLifecycleError);
    expect(unauthorized).toMatchObject({ statusCode: 401, error: { code: 401 } });
    expect((unauthorized as InternLifecycleError).error.metadata).toBeUndefined();
    const listed = await rejection(sdk.interns.listInterns());
    expect(listed).toBeInstanceOf(InternLifecycleError);
    expect(listed).toMatchObject({ statusCode: 404, error: { code: 404, metadata: { reason: 'not_found', retryable: false } } });
    const chat = await rejection(
      sdk.interns.chat({
        internId: 'intern_x',
        internChatCompletionRequest: { stream: true, messages: [{ role: 'user', content: 'hi' }] },
      }),
    );
    expect(chat).toBeInstanceOf(InternChatErrorResponse);
    expect(chat).toMatchObject({ statusCode: 404, error: { metadata: { reason: 'not_found', retryable: false } } });
    for (const refused of [() => sdk.vault.listVaultSecrets(), () => sdk.vault.listInternVaultSecrets({ internId: 'intern_x' })]) {
      const error = await rejection(refused());
      expect(error).toBeInstanceOf(NotFoundResponseError);
      expect(error).toMatchObject({ statusCode: 404, error: { code: 404, metadata: { reason: 'not_found', retryable: false } } });
    }
    await enrolInProgramme(gw);
  });

  it('creates, gets, updates, lists with paging and filters, provisions, suspends and deletes', async () => {
    const workspaceId = (
      await sdk.interns.createIntern({ createInternRequest: { name: 'first', description: 'd', instructions: 'be brief' } })
    ).workspaceId;
    await sdk.interns.createIntern({ createInternRequest: { name: 'second', workspaceId } });
    const third = await sdk.interns.createIntern({ createInternRequest: { name: 'third', description: null } });
    expect(third).toMatchObject({
      name: 'third',
      status: 'queued',
      description: null,
      model: null,
      progress: null,
      lastFailureMessage: null,
      workspaceId,
    });
    expect(await sdk.interns.getIntern({ internId: third.id })).toEqual(third);

    const updated = await sdk.interns.updateIntern({
      internId: third.id,
      updateInternRequest: { name: 'renamed', model: 'sim/agent', instructions: 'help' },
    });
    expect(updated).toMatchObject({ id: third.id, name: 'renamed', model: 'sim/agent', instructions: 'help' });

    const page = await sdk.interns.listInterns({ limit: 2, status: ['queued'], workspaceId });
    expect(page.data.map((i) => i.name)).toEqual(['renamed', 'second']);
    expect(page.hasMore).toBe(true);
    const rest = await sdk.interns.listInterns({ limit: 2, status: ['queued'], workspaceId, startingAfter: page.nextCursor! });
    expect(rest).toMatchObject({ data: [{ name: 'first', description: 'd', instructions: 'be brief' }], hasMore: false });
    expect(rest.nextCursor).toBeUndefined();
    expect((await sdk.interns.listInterns({ status: ['running', 'failed'] })).data).toEqual([]);

    expect(await sdk.interns.provisionIntern({ internId: third.id })).toEqual({ provisioning: true });
    await waitFor(
      async () => (await sdk.interns.getIntern({ internId: third.id })).status,
      (s) => s === 'running',
      'running',
    );
    expect((await sdk.interns.listInterns({ status: ['running'] })).data.map((i) => i.id)).toEqual([third.id]);
    const again = await rejection(sdk.interns.provisionIntern({ internId: third.id }));
    expect(again).toBeInstanceOf(InternLifecycleError);
    expect(again).toMatchObject({ statusCode: 409 });

    expect(await sdk.interns.suspendIntern({ internId: third.id })).toEqual({ suspended: true });
    expect((await sdk.interns.getIntern({ internId: third.id })).status).toBe('stopped');
    expect(await sdk.interns.deleteIntern({ internId: third.id, deleteInternRequest: {} })).toEqual({ deleting: true });
    await waitFor(
      () => rejection(sdk.interns.getIntern({ internId: third.id })),
      (e) => e instanceof InternLifecycleError && e.statusCode === 404,
      'gone',
    );

    const missing = await rejection(sdk.interns.getIntern({ internId: 'intern_missing' }));
    expect(missing).toMatchObject({ statusCode: 404, error: { metadata: { reason: 'not_found', retryable: false } } });
    for (const refused of [
      () => sdk.interns.listInterns({ startingAfter: 'not-a-cursor' }),
      () => sdk.interns.createIntern({ createInternRequest: { name: 'x', workspaceId: 'ws_none' } }),
    ]) {
      const bad = await rejection(refused());
      expect(bad).toBeInstanceOf(InternLifecycleError);
      expect(bad).toMatchObject({ statusCode: 400, error: { code: 400, metadata: { reason: 'bad_request', retryable: false } } });
    }
  }, 30_000);

  it('createIntern with an idempotencyKey: a retry returns the same intern; the key with another body is a 409 InternLifecycleError', async () => {
    const first = await sdk.interns.createIntern({
      idempotencyKey: 'sdk-once',
      createInternRequest: { name: 'keyed', instructions: 'once' },
    });
    expect(
      await sdk.interns.createIntern({ idempotencyKey: 'sdk-once', createInternRequest: { name: 'keyed', instructions: 'once' } }),
    ).toEqual(first);
    const conflict = await rejection(
      sdk.interns.createIntern({ idempotencyKey: 'sdk-once', createInternRequest: { name: 'keyed', instructions: 'twice' } }),
    );
    expect(conflict).toBeInstanceOf(InternLifecycleError);
    expect(conflict).toMatchObject({
      statusCode: 409,
      error: { code: 409, metadata: { reason: 'idempotency_key_reused', retryable: false } },
    });
    const tooLong = await rejection(sdk.interns.createIntern({ idempotencyKey: 'k'.repeat(256), createInternRequest: { name: 'keyed' } }));
    expect(tooLong).toMatchObject({ statusCode: 400, error: { metadata: { reason: 'bad_request', retryable: false } } });
  });

  it('chat: refuses an intern that is not running with 409 intern_not_ready, an answer without a session with 400 bad_request', async () => {
    const queued = await sdk.interns.createIntern({ createInternRequest: { name: 'idle' } });
    const notReady = await rejection(
      sdk.interns.chat({ internId: queued.id, internChatCompletionRequest: { stream: true, messages: [{ role: 'user', content: 'hi' }] } }),
    );
    expect(notReady).toBeInstanceOf(InternChatErrorResponse);
    expect(notReady).toMatchObject({ statusCode: 409, error: { code: 409, metadata: { reason: 'intern_not_ready', retryable: true } } });
    const unasked = await rejection(
      sdk.interns.chat({
        internId: queued.id,
        internChatCompletionRequest: { stream: true, messages: [{ role: 'tool', toolCallId: 'call_1', content: 'allow_once' }] },
      }),
    );
    expect(unasked).toBeInstanceOf(InternChatErrorResponse);
    expect(unasked).toMatchObject({ statusCode: 400, error: { code: 400, metadata: { reason: 'bad_request', retryable: false } } });
  });

  it('chat: streams a self-drive run whose chunks parse, the closing one carrying session_id and usage', async () => {
    const id = await runningIntern('chatty');
    const response = await sdk.interns.chat({
      internId: id,
      internChatCompletionRequest: {
        stream: true,
        messages: [{ role: 'user', content: `Use http_fetch on ${world.site.url}/quick then notify me` }],
      },
    });
    const chunks = await chunksOf(response.result);
    const sessionId = chunks[0]!.sessionId;
    expect(sessionId).toMatch(/^isess_/);
    for (const c of chunks) expect(c).toMatchObject({ object: 'chat.completion.chunk', sessionId });
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(reasoning(chunks)).toContain('quick page body');
    expect(chunks.at(-2)!.choices[0]!.finishReason).toBe('stop');
    const closing = chunks.at(-1)!;
    expect(closing.choices).toEqual([]);
    expect(closing.usage!.totalTokens).toBe(closing.usage!.promptTokens + closing.usage!.completionTokens);
    expect(closing.usage!.promptTokens).toBeGreaterThan(0);
    expect(closing.usage!.cost).toBeGreaterThan(0);
  }, 30_000);

  it('chat: a message into a going run answers the SDK’s steered response', async () => {
    const id = await runningIntern('steerable');
    let sessionId: string | undefined;
    const first = await sdk.interns.chat({
      internId: id,
      internChatCompletionRequest: {
        stream: true,
        messages: [{ role: 'user', content: `Use http_fetch on ${world.site.url}/slow then notify me` }],
      },
    });
    const streamed = chunksOf(first.result, (c) => (sessionId ??= c.sessionId ?? undefined));
    await waitFor(
      async () => world.held.length > 0 && sessionId !== undefined,
      (ready) => ready,
      'the run to fetch the slow page',
    );
    const steered = await sdk.interns.chat({
      internId: id,
      internChatCompletionRequest: { stream: true, sessionId: sessionId!, messages: [{ role: 'user', content: 'Also mention the date' }] },
    });
    expect(steered.result).toEqual({ sessionId, status: 'steered' });
    world.release();
    expect((await streamed).at(-2)!.choices[0]!.finishReason).toBe('stop');
  }, 30_000);

  it('chat: manual mode asks through openrouter.provide_input, answered by a tool message with its tool_call_id; 503 busy meanwhile', async () => {
    const id = await runningIntern('careful', { max_open_questions: 1 });
    const task = `Use http_fetch on ${world.site.url}/quick then notify me`;
    const paused = await chunksOf(
      (
        await sdk.interns.chat({
          internId: id,
          internChatCompletionRequest: { stream: true, approvalMode: 'manual', messages: [{ role: 'user', content: task }] },
        })
      ).result,
    );
    const asking = paused.at(-2)!.choices[0]!;
    expect(asking.finishReason).toBe('tool_calls');
    const toolCall = asking.delta.toolCalls![0]!;
    expect(toolCall).toMatchObject({ type: 'function', function: { name: 'openrouter.provide_input' } });
    expect(JSON.parse(toolCall.function.arguments)).toMatchObject({ kind: 'permission', operation: 'notify' });
    const closing = paused.at(-1)!;
    expect(closing).toMatchObject({ choices: [], usage: null });
    const sessionId = closing.sessionId!;
    const busy = await rejection(
      sdk.interns.chat({
        internId: id,
        internChatCompletionRequest: { stream: true, approvalMode: 'manual', messages: [{ role: 'user', content: task }] },
      }),
    );
    expect(busy).toBeInstanceOf(InternChatErrorResponse);
    expect(busy).toMatchObject({ statusCode: 503, error: { code: 503, metadata: { reason: 'busy', retryable: true } } });

    const answer = (toolCallId: string) =>
      sdk.interns.chat({
        internId: id,
        internChatCompletionRequest: {
          stream: true,
          sessionId,
          approvalMode: 'manual',
          messages: [
            { role: 'user', content: task },
            {
              role: 'assistant',
              content: null,
              toolCalls: [{ id: toolCall.id, function: { name: toolCall.function.name, arguments: toolCall.function.arguments } }],
            },
            { role: 'tool', toolCallId, content: 'allow_once' },
          ],
        },
      });
    const unknown = await rejection(answer('call_other'));
    expect(unknown).toBeInstanceOf(InternChatErrorResponse);
    expect(unknown).toMatchObject({ statusCode: 400, error: { metadata: { reason: 'interaction_unknown', retryable: false } } });

    const resumed = await chunksOf((await answer(toolCall.id)).result);
    expect(resumed.every((c) => c.sessionId === sessionId)).toBe(true);
    expect(reasoning(resumed)).toContain('[approval granted by user]');
    expect(resumed.at(-2)!.choices[0]!.finishReason).toBe('stop');
    expect(resumed.at(-1)!.usage!.totalTokens).toBeGreaterThan(0);

    const late = await rejection(answer(toolCall.id));
    expect(late).toMatchObject({ statusCode: 409, error: { metadata: { reason: 'interaction_not_pending', retryable: false } } });
  }, 30_000);

  it('vault: stores, lists, copies and deletes workspace and intern secrets', async () => {
    const stored = await sdk.vault.storeVaultSecret({
      name: 'github_token',
      vaultSecretWriteRequest: { value: 'tok-1', hosts: ['api.github.com'] },
    });
    expect(stored.data).toMatchObject({ name: 'github_token', hosts: ['api.github.com'] });
    expect(stored.data.createdAt).toBeInstanceOf(Date);
    expect(stored.data.fingerprint).toMatch(/^hmac-sha256:/);
    await sdk.vault.storeVaultSecret({ name: 'slack_token', vaultSecretWriteRequest: { value: 'tok-2', hosts: ['slack.com'] } });
    const page = await sdk.vault.listVaultSecrets({ limit: 1 });
    expect(page).toMatchObject({ data: [{ name: 'github_token' }], hasMore: true });
    expect(await sdk.vault.listVaultSecrets({ limit: 1, offset: 1 })).toMatchObject({ data: [{ name: 'slack_token' }], hasMore: false });

    const intern = await sdk.interns.createIntern({ createInternRequest: { name: 'vaulted' } });
    const own = await sdk.vault.storeInternVaultSecret({
      internId: intern.id,
      name: 'own_key',
      vaultSecretWriteRequest: { value: 'v', hosts: ['hooks.example.com'] },
    });
    expect(own.data).toMatchObject({ name: 'own_key', hosts: ['hooks.example.com'] });
    const copied = await sdk.vault.copyVaultSecretsToIntern({ internId: intern.id, vaultSecretCopyRequest: { names: ['github_token'] } });
    expect(copied.data).toMatchObject([{ name: 'github_token', hosts: ['api.github.com'], fingerprint: stored.data.fingerprint }]);
    const listed = await sdk.vault.listInternVaultSecrets({ internId: intern.id });
    expect(listed).toMatchObject({ data: [{ name: 'github_token' }, { name: 'own_key' }], hasMore: false });

    const absent = await rejection(
      sdk.vault.copyVaultSecretsToIntern({ internId: intern.id, vaultSecretCopyRequest: { names: ['absent'] } }),
    );
    expect(absent).toBeInstanceOf(NotFoundResponseError);
    expect(absent).toMatchObject({ statusCode: 404, error: { code: 404, message: expect.stringMatching(/absent/) } });

    await sdk.vault.deleteInternVaultSecret({ internId: intern.id, name: 'own_key' });
    await sdk.vault.deleteVaultSecret({ name: 'github_token' });
    expect((await sdk.vault.listInternVaultSecrets({ internId: intern.id })).data.map((s) => s.name)).toEqual(['github_token']);
    expect(await rejection(sdk.vault.deleteVaultSecret({ name: 'github_token' }))).toBeInstanceOf(NotFoundResponseError);
    expect(await rejection(sdk.vault.deleteInternVaultSecret({ internId: intern.id, name: 'own_key' }))).toBeInstanceOf(
      NotFoundResponseError,
    );
  });
});
