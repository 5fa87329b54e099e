import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedResolver } from '../../src/net/fixed-resolver.testing.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats, readSseData } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { makePdf, pdfDataUrl } from '../support/make-pdf.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * The web, web-fetch, file-parser and context-compression plugins through
 * the gateway, against the simulator (chat and Exa search) and a small web
 * site. The site listens on 127.0.0.2, which the gateway's
 * network.allow_private_ranges opens on purpose; every other private or
 * loopback address stays closed, 127.0.0.1 included.
 */
const SITE_ADDRESS = '127.0.0.2';
const ARTICLE = '<html><head><title>Moon facts</title></head><body><h1>The Moon</h1><p>The Moon is 384,400 km away.</p></body></html>';

describe.each(testEngines.slice(0, 1))('plugins through the gateway on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let site: Server;
  let port: number;
  const siteHits: string[] = [];
  let pdf: Uint8Array;

  const chat = (body: Record<string, unknown>) =>
    call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: { model: 'sim/fast', ...body },
      headers: { 'x-service-metadata': 'enabled' },
    });
  const upstreamBody = async () => (await readSimStats(sim.url)).lastRequestBody;
  const chatCalls = async () => (await readSimStats(sim.url)).requests['/v1/chat/completions'] as number;
  const pipelineEntry = (body: any, name: string) => body.service_metadata.pipeline.find((entry: { name: string }) => entry.name === name);

  beforeAll(async () => {
    pdf = await makePdf(['Annual report: revenue grew 12 percent.']);
    site = createServer((req, res) => {
      siteHits.push(req.url ?? '');
      const routes: Record<string, () => void> = {
        '/article': () => res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
        '/report.pdf': () => res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from(pdf)),
        '/to-metadata': () => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
      };
      (routes[req.url ?? ''] ?? (() => res.writeHead(404).end()))();
    });
    await new Promise<void>((resolve) => site.listen(0, SITE_ADDRESS, resolve));
    port = (site.address() as AddressInfo).port;
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', { id: 'claude', kind: 'anthropic' }, { id: 'google', kind: 'gemini' }],
      [
        { id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
        { id: 'sim/small', endpoints: [{ provider: 'alpha', upstream: 'sim-model', contextLength: 400 }] },
        {
          id: 'sim/search-preview',
          endpoints: [{ provider: 'alpha', upstream: 'sim-search', supported: ['max_completion_tokens', 'web_search_options'] }],
        },
        { id: 'sim/claude', endpoints: [{ provider: 'claude', upstream: 'claude-sim' }] },
        { id: 'sim/gemini', endpoints: [{ provider: 'google', upstream: 'gemini-sim' }] },
      ],
    );
    gw = await startGateway(engine, {
      catalog,
      plugins: { allowPrivateRanges: [`${SITE_ADDRESS}/32`], exa: { baseUrl: sim.url, apiKey: 'exa-test-key', timeoutMs: 5_000 } },
      resolve: fixedResolver({ 'site.test': [SITE_ADDRESS], 'evil.test': ['127.0.0.1'], 'metadata.test': ['169.254.169.254'] }),
    });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  });
  beforeEach(async () => {
    siteHits.length = 0;
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  describe('web-fetch', () => {
    it('offers web_fetch, fetches the page the model asks for and gives the model its text', async () => {
      const res = await chat({
        plugins: [{ id: 'web-fetch' }],
        messages: [{ role: 'user', content: `Summarize http://site.test:${port}/article` }],
      });
      expect(res.status).toBe(200);
      expect(res.body.choices[0].message.content).toContain('The tool said:');
      expect(res.body.choices[0].message.content).toContain('Moon facts');
      expect(await chatCalls()).toBe(2);
      expect(siteHits).toEqual(['/article']);
      const sent = await upstreamBody();
      expect(sent.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['web_fetch']);
      expect(JSON.parse(sent.messages.at(-1).content)).toEqual({
        url: `http://site.test:${port}/article`,
        status: 200,
        title: 'Moon facts',
        content: 'The Moon\n\nThe Moon is 384,400 km away.',
        truncated: false,
      });
      expect(pipelineEntry(res.body, 'server-tools')).toMatchObject({
        type: 'server_tools',
        summary: '1 server tool call in 1 round; answered',
        data: { tools: ['web_fetch'], calls: [{ name: 'web_fetch', ok: true }] },
      });
      // Both rounds are billed.
      expect(res.body.usage.prompt_tokens).toBeGreaterThan(sent.messages.length);
    });

    it('never fetches a name that resolves to 127.0.0.1, nor follows a redirect to 169.254.169.254', async () => {
      const loopback = await chat({
        plugins: [{ id: 'web-fetch' }],
        messages: [{ role: 'user', content: `Read http://evil.test:${port}/article` }],
      });
      expect(loopback.status).toBe(200);
      expect(JSON.parse((await upstreamBody()).messages.at(-1).content)).toEqual({
        error: 'evil.test resolves to a blocked address: 127.0.0.1 is a loopback address',
      });
      expect(pipelineEntry(loopback.body, 'server-tools').data.calls).toEqual([
        { name: 'web_fetch', ok: false, error: 'evil.test resolves to a blocked address: 127.0.0.1 is a loopback address' },
      ]);

      const redirected = await chat({
        plugins: [{ id: 'web-fetch' }],
        messages: [{ role: 'user', content: `Read http://site.test:${port}/to-metadata` }],
      });
      expect(JSON.parse((await upstreamBody()).messages.at(-1).content).error).toBe(
        '169.254.169.254 is blocked: 169.254.169.254 is a linkLocal address',
      );
      expect(pipelineEntry(redirected.body, 'server-tools').data.calls[0]).toMatchObject({
        ok: false,
        error: '169.254.169.254 is blocked: 169.254.169.254 is a linkLocal address',
      });
      expect(siteHits).toEqual(['/to-metadata']);
    });

    it('obeys blocked_domains, runs when streaming, and refuses a client tool of the same name', async () => {
      await chat({
        plugins: [{ id: 'web-fetch', blocked_domains: ['site.test'] }],
        messages: [{ role: 'user', content: `Read http://site.test:${port}/article` }],
      });
      expect(JSON.parse((await upstreamBody()).messages.at(-1).content).error).toBe('site.test is blocked by the rule "site.test"');
      expect(siteHits).toEqual([]);

      const streamed = await fetch(`${gw.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': 'application/json', 'x-service-metadata': 'enabled' },
        body: JSON.stringify({
          model: 'sim/fast',
          stream: true,
          plugins: [{ id: 'web-fetch' }],
          messages: [{ role: 'user', content: `Read http://site.test:${port}/article` }],
        }),
      });
      const chunks = (await readSseData(streamed)).slice(0, -1).map((data) => JSON.parse(data));
      // The fetch happened between the steps; the client sees only the answer, which read the page.
      expect(siteHits).toEqual(['/article']);
      expect(chunks.some((c) => c.choices?.some((choice: any) => choice.delta.tool_calls))).toBe(false);
      expect(chunks.map((c) => c.choices?.[0]?.delta.content ?? '').join('')).toContain('384,400 km');
      const last = chunks.at(-1);
      expect(pipelineEntry(last, 'server-tools')).toMatchObject({ data: { calls: [{ name: 'web_fetch', ok: true }], rounds: 1 } });
      expect(last.usage.server_tool_use_details).toEqual({ tool_calls_requested: 1, tool_calls_executed: 1, web_search_requests: 0 });
      const clash = await chat({
        plugins: [{ id: 'web-fetch' }],
        tools: [{ type: 'function', function: { name: 'web_fetch', parameters: { type: 'object' } } }],
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(clash.status).toBe(400);
      expect(clash.body.error.message).toBe(
        "tools: the function name web_fetch is the web-fetch plugin's server tool; rename the client tool",
      );
    });

    it('is off with enabled: false', async () => {
      const res = await chat({
        plugins: [{ id: 'web-fetch', enabled: false }],
        messages: [{ role: 'user', content: `Read http://site.test:${port}/article` }],
      });
      expect(res.status).toBe(200);
      expect((await upstreamBody()).tools).toBeUndefined();
      expect(pipelineEntry(res.body, 'server-tools')).toBeUndefined();
    });
  });

  describe('web', () => {
    const question = 'distance to the moon https://science.example.org/moon/distance';

    it('searches, puts the results before the question, and annotates the answer with url_citation', async () => {
      const res = await chat({ plugins: [{ id: 'web', max_results: 2 }], messages: [{ role: 'user', content: question }] });
      expect(res.status).toBe(200);
      const sent = await upstreamBody();
      expect(sent.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
      expect(sent.messages[0].content).toMatch(/^A web search was conducted on \d{4}-\d{2}-\d{2}\./);
      expect(sent.messages[0].content).toContain('[1] How far away is the Moon?\nURL: https://science.example.org/moon/distance');
      const message = res.body.choices[0].message;
      const [cited, other] = message.annotations;
      const at = message.content.indexOf('https://science.example.org/moon/distance');
      expect(cited).toEqual({
        type: 'url_citation',
        url_citation: {
          url: 'https://science.example.org/moon/distance',
          title: 'How far away is the Moon?',
          content: expect.stringContaining('384,400 kilometres'),
          start_index: at,
          end_index: at + 'https://science.example.org/moon/distance'.length,
        },
      });
      expect(other.url_citation).toMatchObject({
        url: 'https://news.example.com/space/artemis-moon-landing',
        start_index: 0,
        end_index: 0,
      });
      expect(pipelineEntry(res.body, 'web')).toMatchObject({
        type: 'plugin',
        summary: '2 results added to the prompt',
        data: { engine: 'exa', query: question },
      });
      const [row] = await gw.store.db.selectFrom('generations').select('routing').where('id', '=', res.body.id).execute();
      expect(JSON.parse(row!.routing as string).pipeline[0]).toMatchObject({
        name: 'web',
        data: { results: [{ url: 'https://science.example.org/moon/distance' }, {}] },
      });
    });

    it('sends the annotations in a chunk of a stream', async () => {
      const response = await fetch(`${gw.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'sim/fast',
          stream: true,
          plugins: [{ id: 'web', max_results: 1 }],
          messages: [{ role: 'user', content: question }],
        }),
      });
      const events = await readSseData(response);
      expect(events.at(-1)).toBe('[DONE]');
      const chunks = events.slice(0, -1).map((data) => JSON.parse(data));
      const content = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
      const annotated = chunks.find((c) => c.choices[0]?.delta?.annotations);
      expect(annotated.choices[0].delta.annotations).toEqual([
        expect.objectContaining({
          url_citation: expect.objectContaining({
            start_index: content.indexOf('https://science'),
            url: 'https://science.example.org/moon/distance',
          }),
        }),
      ]);
    });

    it('applies exclude_domains, and refuses engines it has no adapter for', async () => {
      const res = await chat({
        plugins: [{ id: 'web', exclude_domains: ['science.example.org'] }],
        messages: [{ role: 'user', content: 'moon distance' }],
      });
      expect(res.body.choices[0].message.annotations.map((a: any) => a.url_citation.url)).not.toContain(
        'https://science.example.org/moon/distance',
      );
      for (const engineName of ['native', 'perplexity']) {
        const refused = await chat({ plugins: [{ id: 'web', engine: engineName }], messages: [{ role: 'user', content: 'moon' }] });
        expect(refused.status).toBe(400);
        expect(refused.body.error.message).toMatch(new RegExp(`^plugins web engine "${engineName}" is not available on this gateway: `));
      }
    });
  });

  describe('web, native search', () => {
    const SENTENCE = 'The Moon orbits Earth at an average distance of 384,400 kilometres.';

    it.each([
      ['OpenAI search model', 'sim/search-preview', (sent: any) => expect(sent.web_search_options).toEqual({})],
      [
        'Anthropic web_search tool',
        'sim/claude',
        (sent: any) => expect(sent.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }]),
      ],
      ['Gemini Google Search grounding', 'sim/gemini', (sent: any) => expect(sent.tools).toEqual([{ googleSearch: {} }])],
    ])('lets the %s search and turns its citations into url_citation annotations', async (_, model, checkSent) => {
      const res = await chat({
        model,
        plugins: [{ id: 'web', max_uses: 2 }],
        messages: [{ role: 'user', content: 'distance to the moon' }],
      });
      expect(res.status).toBe(200);
      checkSent(await upstreamBody());
      const message = res.body.choices[0].message;
      expect(message.content).toContain(SENTENCE);
      const citation = message.annotations.find((a: any) => a.url_citation.start_index > 0).url_citation;
      expect(citation.url).toBe('https://science.example.org/moon/distance');
      expect([...message.content].slice(citation.start_index, citation.end_index).join('')).toMatch(
        /^(The Moon orbits|\(\[science\.example\.org\])/,
      );
      expect(pipelineEntry(res.body, 'web')).toMatchObject({ summary: 'native search by the provider', data: { engine: 'native' } });
      expect((await readSimStats(sim.url)).requests['/search']).toBeUndefined();
    });

    it('uses the search API instead when asked for exa', async () => {
      const res = await chat({
        model: 'sim/claude',
        plugins: [{ id: 'web', engine: 'exa' }],
        messages: [{ role: 'user', content: 'distance to the moon' }],
      });
      expect(res.status).toBe(200);
      expect((await upstreamBody()).tools).toBeUndefined();
      expect(pipelineEntry(res.body, 'web').data.engine).toBe('exa');
    });
  });

  describe('file-parser', () => {
    const withPdf = (file_data: string) => [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What grew?' },
          { type: 'file', file: { filename: 'report.pdf', file_data } },
        ],
      },
    ];

    it('gives a model that reads no PDFs the text of a PDF sent inline, parsing a file sent again once', async () => {
      const res = await chat({ messages: withPdf(pdfDataUrl(pdf)) });
      expect(res.status).toBe(200);
      expect((await upstreamBody()).messages[0].content[1]).toEqual({
        type: 'text',
        text: '<file name="report.pdf" pages="1">\nAnnual report: revenue grew 12 percent.\n</file>',
      });
      expect(pipelineEntry(res.body, 'file-parser')).toMatchObject({
        type: 'plugin',
        summary: '1 PDF as text',
        data: { files: [{ engine: 'pdf-text', pages: 1 }] },
      });
      const again = await chat({ messages: withPdf(pdfDataUrl(pdf)) });
      expect(pipelineEntry(again.body, 'file-parser').data.files[0].cached).toBe(true);
    });

    it('downloads a PDF by URL through the safe fetcher, and refuses one on a closed address with a 400', async () => {
      const res = await chat({ messages: withPdf(`http://site.test:${port}/report.pdf`) });
      expect(res.status).toBe(200);
      expect((await upstreamBody()).messages[0].content[1].text).toContain('revenue grew 12 percent');
      const refused = await chat({ messages: withPdf(`http://evil.test:${port}/report.pdf`) });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(
        `messages[0].content[1].file.file_data http://evil.test:${port}/report.pdf could not be fetched (evil.test resolves to a blocked address: 127.0.0.1 is a loopback address)`,
      );
      expect(siteHits).toEqual(['/report.pdf']);
    });

    it('is off with enabled: false, and refuses mistral-ocr', async () => {
      await chat({ plugins: [{ id: 'file-parser', enabled: false }], messages: withPdf(pdfDataUrl(pdf)) });
      expect((await upstreamBody()).messages[0].content[1].type).toBe('file');
      const ocr = await chat({ plugins: [{ id: 'file-parser', pdf: { engine: 'mistral-ocr' } }], messages: withPdf(pdfDataUrl(pdf)) });
      expect(ocr.status).toBe(400);
    });
  });

  describe('context-compression', () => {
    const long = Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i} `.repeat(30) }));

    it('removes messages from the middle until the prompt fits the endpoint’s context', async () => {
      const res = await chat({ model: 'sim/small', max_completion_tokens: 50, plugins: [{ id: 'context-compression' }], messages: long });
      expect(res.status).toBe(200);
      const sent = (await upstreamBody()).messages;
      expect(sent.length).toBeLessThan(long.length);
      expect(sent[0]).toEqual(long[0]);
      expect(sent.at(-1)).toEqual(long.at(-1));
      const entry = pipelineEntry(res.body, 'context-compression');
      expect(entry).toMatchObject({
        type: 'context_compression',
        data: { engine: 'middle-out', context_length: 400, reserved_for_completion: 50, budget: 350 },
      });
      expect(entry.data.tokens_after).toBeLessThanOrEqual(350);
      expect(entry.data.removed_messages.length).toBe(long.length - sent.length);
    });

    it('is a 400 with the numbers when even the kept messages cannot fit, and does nothing without the plugin', async () => {
      const huge = [
        { role: 'system', content: 'rule '.repeat(1_000) },
        { role: 'user', content: 'hi' },
      ];
      const res = await chat({ model: 'sim/small', plugins: [{ id: 'context-compression' }], messages: huge });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(
        /^The prompt is \d+ tokens even after context-compression, more than the 400 tokens the model's context leaves for it$/,
      );
      expect(res.body.error.metadata).toMatchObject({ context_length: 400, budget: 400 });

      await chat({ model: 'sim/small', messages: long });
      expect((await upstreamBody()).messages).toHaveLength(long.length);
    });
  });
});
