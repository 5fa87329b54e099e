import { OpenRouter } from '@openrouter/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

/** Every guardrails operation of the official SDK parses the gateway's responses (the SDK throws when one does not). */
describe.each(testEngines)('@openrouter/sdk guardrails operations on $name', (engine) => {
  let gw: RunningGateway;
  let sdk: OpenRouter;
  let keyHash: string;
  let memberId: string;

  beforeAll(async () => {
    gw = await startGateway(engine);
    sdk = new OpenRouter({ apiKey: gw.managementKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });
    keyHash = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'guarded' } })).body.data.hash;
    memberId = (await call(gw, 'GET', '/organization/members', { key: gw.managementKey })).body.data[0].id;
  });
  afterAll(() => gw.close());

  it('creates, gets, lists, updates and deletes', async () => {
    const created = await sdk.guardrails.create({
      createGuardrailRequest: {
        name: 'SDK guardrail',
        allowedProviders: ['openai'],
        contentFilters: [{ pattern: 'sk-[a-z]+', action: 'redact', label: '[KEY]' }],
        contentFilterBuiltins: [{ slug: 'email', action: 'block' }],
        limitUsd: 10,
        resetInterval: 'weekly',
      },
    });
    expect(created.data).toMatchObject({
      name: 'SDK guardrail',
      allowedProviders: ['openai'],
      includeByokInBudgets: false,
      resetInterval: 'weekly',
    });
    expect(created.data.contentFilterBuiltins).toEqual([{ slug: 'email', action: 'block', label: '[EMAIL]' }]);
    const id = created.data.id;

    expect((await sdk.guardrails.get({ id })).data.name).toBe('SDK guardrail');
    const listed = await sdk.guardrails.list({ limit: 10 });
    expect(listed.result).toMatchObject({ totalCount: 1, data: [{ id }] });

    const updated = await sdk.guardrails.update({ id, updateGuardrailRequest: { name: 'Renamed', allowedProviders: null } });
    expect(updated.data).toMatchObject({ name: 'Renamed', allowedProviders: null });
    expect(updated.data.updatedAt).toEqual(expect.any(String));

    expect(await sdk.guardrails.delete({ id })).toEqual({ deleted: true });
    await expect(sdk.guardrails.get({ id })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('assigns, lists and unassigns keys and members', async () => {
    const id = (await sdk.guardrails.create({ createGuardrailRequest: { name: 'Assigned' } })).data.id;
    expect(await sdk.guardrails.bulkAssignKeys({ id, bulkAssignKeysRequest: { keyHashes: [keyHash] } })).toEqual({ assignedCount: 1 });
    expect(await sdk.guardrails.bulkAssignMembers({ id, bulkAssignMembersRequest: { memberUserIds: [memberId] } })).toEqual({
      assignedCount: 1,
    });

    const keys = await sdk.guardrails.listGuardrailKeyAssignments({ id });
    expect(keys.result).toMatchObject({ totalCount: 1, data: [{ keyHash, guardrailId: id, keyName: 'guarded' }] });
    const members = await sdk.guardrails.listGuardrailMemberAssignments({ id });
    expect(members.result).toMatchObject({ totalCount: 1, data: [{ userId: memberId, organizationId: gw.organizationId }] });
    expect((await sdk.guardrails.listKeyAssignments()).result.totalCount).toBe(1);
    expect((await sdk.guardrails.listMemberAssignments({ limit: 5 })).result.data[0]).toMatchObject({ guardrailId: id });

    expect(await sdk.guardrails.bulkUnassignKeys({ id, bulkUnassignKeysRequest: { keyHashes: [keyHash] } })).toEqual({
      unassignedCount: 1,
    });
    expect(await sdk.guardrails.bulkUnassignMembers({ id, bulkUnassignMembersRequest: { memberUserIds: [memberId] } })).toEqual({
      unassignedCount: 1,
    });
  });
});
