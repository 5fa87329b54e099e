import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { makePdf } from '../support/make-pdf.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * Uploaded files named by id in chat and Responses requests, through the
 * gateway in front of the simulator: the file-parser reads a PDF among
 * them, a provider that takes files gets the file in its own format, and
 * another workspace's file is a 404.
 */
describe.each(testEngines)('uploaded files in requests on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let pdf: Uint8Array;
  let pdfId: string;
  let notesId: string;
  let otherKey: string;

  const upstreamBody = async () => (await readSimStats(sim.url)).lastRequestBody;
  const chat = (body: Record<string, unknown>, key = gw.managementKey) =>
    call(gw, 'POST', '/chat/completions', { key, body: { model: 'sim/fast', ...body }, headers: { 'x-service-metadata': 'enabled' } });
  const asking = (file: Record<string, unknown>) => [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What grew?' },
        { type: 'file', file },
      ],
    },
  ];
  async function upload(key: string, bytes: Uint8Array | string, filename: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([bytes]), filename);
    const response = await fetch(`${gw.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    const body = (await response.json()) as { id: string };
    if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${JSON.stringify(body)}`);
    return body.id;
  }

  beforeAll(async () => {
    pdf = await makePdf(['Annual report: revenue grew 12 percent.']);
    sim = await startSimulator();
    gw = await startGateway(engine, {
      catalog: simCatalog(
        sim.url,
        ['alpha', { id: 'claude', kind: 'anthropic' }],
        [
          { id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
          { id: 'sim/claude', endpoints: [{ provider: 'claude', upstream: 'claude-sim' }] },
        ],
      ),
    });
    pdfId = await upload(gw.managementKey, pdf, 'report.pdf');
    notesId = await upload(gw.managementKey, 'Revenue grew in the north.', 'notes.txt');
    const other = (await call(gw, 'POST', '/workspaces', { key: gw.managementKey, body: { name: 'Other', slug: 'other' } })).body.data.id;
    otherKey = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'other', workspace_id: other } })).body.key;
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });
  beforeEach(async () => {
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  it('gives the file-parser an uploaded PDF named by file_id, and says so in the pipeline', async () => {
    const res = await chat({ messages: asking({ file_id: pdfId }) });
    expect(res.status).toBe(200);
    expect((await upstreamBody()).messages[0].content[1]).toEqual({
      type: 'text',
      text: '<file name="report.pdf" pages="1">\nAnnual report: revenue grew 12 percent.\n</file>',
    });
    const entries = res.body.service_metadata.pipeline.map((entry: { name: string }) => entry.name);
    expect(entries.slice(0, 2)).toEqual(['files', 'file-parser']);
    expect(res.body.service_metadata.pipeline[0]).toMatchObject({
      type: 'plugin',
      summary: '1 uploaded file read',
      data: { files: [{ file_id: pdfId, filename: 'report.pdf', mime_type: 'application/pdf', size_bytes: pdf.length }] },
    });
  });

  it('sends an uploaded file to a provider that takes files in its own format, the file-parser off', async () => {
    const off = [{ id: 'file-parser', enabled: false }];
    await chat({ plugins: off, messages: asking({ file_id: notesId }) });
    expect((await upstreamBody()).messages[0].content[1]).toEqual({
      type: 'file',
      file: { filename: 'notes.txt', file_data: `data:text/plain;base64,${Buffer.from('Revenue grew in the north.').toString('base64')}` },
    });
    await chat({ model: 'sim/claude', max_tokens: 50, plugins: off, messages: asking({ file_id: pdfId, filename: 'q3.pdf' }) });
    expect((await upstreamBody()).messages[0].content[1]).toEqual({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from(pdf).toString('base64') },
      title: 'q3.pdf',
    });
    // A provider's own file id goes to it as it is.
    await chat({ plugins: off, messages: asking({ file_id: 'file-abc123' }) });
    expect((await upstreamBody()).messages[0].content[1]).toEqual({ type: 'file', file: { file_id: 'file-abc123' } });
  });

  it('reads an input_file of a Responses request by file_id', async () => {
    const res = await call(gw, 'POST', '/responses', {
      key: gw.managementKey,
      body: {
        model: 'sim/fast',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'What grew?' },
              { type: 'input_file', file_id: pdfId },
            ],
          },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify((await upstreamBody()).messages)).toContain('Annual report: revenue grew 12 percent.');
  });

  it('refuses a file of another workspace as it refuses a missing one', async () => {
    const theirs = await chat({ messages: asking({ file_id: pdfId }) }, otherKey);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.message).toBe(`messages[0].content[1].file.file_id: file ${pdfId} not found`);
    const missing = await chat({ messages: asking({ file_id: 'or_file_missing' }) });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('messages[0].content[1].file.file_id: file or_file_missing not found');
    expect((await readSimStats(sim.url)).requests['/v1/chat/completions'] ?? 0).toBe(0);
  });
});
