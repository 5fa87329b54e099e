import OpenAI, { NotFoundError, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { makePdf } from '../support/make-pdf.js';

/** The openai client's files API against the gateway, unchanged but for base URL and key. */
describe.each(testEngines)('files through the openai client on $name', (engine) => {
  let gw: RunningGateway;
  let openai: OpenAI;

  beforeAll(async () => {
    gw = await startGateway(engine);
    const key = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'sdk' } })).body.key;
    openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: key, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('creates, retrieves, downloads, lists and deletes a file', async () => {
    const pdf = Buffer.from(await makePdf(['Quarterly numbers']));
    const created = await openai.files.create({ file: await toFile(pdf, 'q3.pdf', { type: 'application/pdf' }), purpose: 'user_data' });
    expect(created).toMatchObject({ object: 'file', filename: 'q3.pdf', bytes: pdf.length, purpose: 'user_data', status: 'processed' });
    expect(created.id).toMatch(/^or_file_/);

    const retrieved = await openai.files.retrieve(created.id);
    expect(retrieved).toMatchObject({ id: created.id, object: 'file', bytes: pdf.length, filename: 'q3.pdf' });

    const content = await openai.files.content(created.id);
    expect(Buffer.from(await content.arrayBuffer()).equals(pdf)).toBe(true);

    const second = await openai.files.create({ file: await toFile(Buffer.from('a,b\n1,2\n'), 'table.csv'), purpose: 'assistants' });
    // The client pages with `after` on its own: both files, over pages of one.
    const ids: string[] = [];
    for await (const file of openai.files.list({ limit: 1 })) ids.push(file.id);
    expect(ids).toEqual([created.id, second.id]);

    expect(await openai.files.delete(created.id)).toMatchObject({ id: created.id, object: 'file', deleted: true });
    await expect(openai.files.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
    const left = await openai.files.list();
    expect(left.data.map((file) => file.id)).toEqual([second.id]);
  });

  it('surfaces a refused upload as the client’s error with the envelope’s message', async () => {
    const empty = openai.files.create({ file: await toFile(Buffer.alloc(0), 'empty.txt'), purpose: 'user_data' });
    await expect(empty).rejects.toMatchObject({
      status: 400,
      error: { message: 'file: the file is empty (0 bytes); upload a file with content' },
    });
  });
});
