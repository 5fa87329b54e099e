import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import OpenAI from 'openai';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/** What a model without structured outputs lists: JSON is asked of it with the forced tool. */
const WITHOUT_STRUCTURED_OUTPUTS = ['max_tokens', 'temperature', 'tools', 'tool_choice', 'response_format'];

const Place = z.object({ city: z.string(), population: z.number().int().nonnegative(), tags: z.array(z.string()) });

/** The same, as plain JSON Schema (what a client without zod writes). */
const PLACE_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['city', 'population', 'tags'],
  additionalProperties: false,
};

/** The schema's required fields are there, of its types (zod checks what the SDK did not parse itself). */
const expectPlace = (value: unknown) => expect(Place.parse(value)).toEqual(value);

/**
 * JSON schema answers of models served by Anthropic endpoints (simulated),
 * to the real clients unchanged but for base URL and key: `openai`'s chat
 * (create, parse with zod, stream) and Responses, and `@anthropic-ai/sdk`'s
 * Messages (create, parse, stream) on native and translated endpoints; each
 * on a model with structured outputs, one without (the forced JSON tool),
 * and models whose first endpoint fails.
 */
describe.each(testEngines)('structured output on Anthropic-served models on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    sim = await startSimulator();
    const old = (provider: string, upstream: string) => ({ provider, upstream, supported: WITHOUT_STRUCTURED_OUTPUTS });
    const catalog = simCatalog(
      sim.url,
      [{ id: 'anth', kind: 'anthropic' }, { id: 'anth-two', kind: 'anthropic' }, 'alpha', 'beta'],
      [
        { id: 'claude/native', endpoints: [{ provider: 'anth', upstream: 'claude-sim@chunks=4' }] },
        { id: 'claude/old', endpoints: [old('anth', 'claude-3-sim@chunks=4')] },
        {
          id: 'claude/flaky',
          endpoints: [
            { provider: 'anth', upstream: 'claude-sim@status=503' },
            { provider: 'anth-two', upstream: 'claude-sim@chunks=4' },
          ],
        },
        { id: 'claude/old-flaky', endpoints: [old('anth', 'claude-3-sim@status=503'), old('anth-two', 'claude-3-sim@chunks=4')] },
        { id: 'gpt/sim', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=4' }] },
        {
          id: 'gpt/flaky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'beta', upstream: 'sim-model@chunks=4' },
          ],
        },
      ],
    );
    gw = await startGateway(engine, { catalog });
    openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: gw.baseUrl.replace(/\/v1$/, ''), apiKey: gw.managementKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  const question = 'Describe Paris.';

  describe.each(['claude/native', 'claude/old', 'claude/flaky', 'claude/old-flaky'])('openai on %s', (model) => {
    const messages = [{ role: 'user' as const, content: question }];

    it('chat.completions.create with a json_schema response_format', async () => {
      const completion = await openai.chat.completions.create({
        model,
        messages,
        response_format: { type: 'json_schema', json_schema: { name: 'place', schema: PLACE_SCHEMA, strict: true } },
      });
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expect(completion.choices[0]?.message.tool_calls).toBeUndefined();
      expectPlace(JSON.parse(completion.choices[0]?.message.content ?? ''));
    });

    it('chat.completions.parse with a zod schema', async () => {
      const completion = await openai.chat.completions.parse({ model, messages, response_format: zodResponseFormat(Place, 'place') });
      expectPlace(completion.choices[0]?.message.parsed);
    });

    it('chat.completions.stream with a zod schema: content deltas, parsed at the end', async () => {
      const stream = openai.chat.completions.stream({ model, messages, response_format: zodResponseFormat(Place, 'place') });
      let deltas = 0;
      stream.on('content.delta', () => deltas++);
      const completion = await stream.finalChatCompletion();
      expect(deltas).toBeGreaterThan(1);
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expectPlace(completion.choices[0]?.message.parsed);
    });

    it('responses.create with a json_schema text.format', async () => {
      const response = await openai.responses.create({
        model,
        input: question,
        text: { format: { type: 'json_schema', name: 'place', schema: PLACE_SCHEMA, strict: true } },
      });
      expect(response.status).toBe('completed');
      expectPlace(JSON.parse(response.output_text));
    });

    it('responses.parse with a zod text format', async () => {
      const response = await openai.responses.parse({ model, input: question, text: { format: zodTextFormat(Place, 'place') } });
      expectPlace(response.output_parsed);
    });

    it('responses.stream with a zod text format: text deltas, parsed at the end', async () => {
      const stream = openai.responses.stream({ model, input: question, text: { format: zodTextFormat(Place, 'place') } });
      let deltas = 0;
      stream.on('response.output_text.delta', () => deltas++);
      const response = await stream.finalResponse();
      expect(deltas).toBeGreaterThan(1);
      expectPlace(response.output_parsed);
    });
  });

  describe.each(['claude/native', 'claude/flaky', 'claude/old', 'gpt/sim', 'gpt/flaky'])('@anthropic-ai/sdk on %s', (model) => {
    const messages = [{ role: 'user' as const, content: question }];

    it('messages.create with output_config.format', async () => {
      const message = await anthropic.messages.create({
        model,
        max_tokens: 300,
        messages,
        output_config: { effort: 'medium', format: { type: 'json_schema', schema: PLACE_SCHEMA } },
      });
      expect(message.stop_reason).toBe('end_turn');
      const text = message.content.find((block) => block.type === 'text');
      expectPlace(JSON.parse(text?.type === 'text' ? text.text : ''));
    });

    it('messages.parse with a zod output format', async () => {
      const message = await anthropic.messages.parse({
        model,
        max_tokens: 300,
        messages,
        output_config: { format: zodOutputFormat(Place) },
      });
      expectPlace(message.parsed_output);
    });

    it('messages.stream with a zod output format: text deltas, parsed at the end', async () => {
      const stream = anthropic.messages.stream({ model, max_tokens: 300, messages, output_config: { format: zodOutputFormat(Place) } });
      let deltas = 0;
      stream.on('text', () => deltas++);
      const message = await stream.finalMessage();
      expect(deltas).toBeGreaterThan(1);
      expect(message.stop_reason).toBe('end_turn');
      expectPlace(message.parsed_output);
    });
  });
});
