import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { directoryStorage } from '../../src/files/storage/directory-storage.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { type FormPart, formPieces, rawUpload } from '../support/raw-upload.js';

const MAX_BYTES = 64 * 1024;
const QUOTA_BYTES = 160 * 1024;

/** POST /files with a form made of `parts`. */
async function upload(gw: RunningGateway, key: string, parts: { name: string; value: string | Blob; filename?: string }[], query = '') {
  const form = new FormData();
  for (const part of parts) {
    if (typeof part.value === 'string') form.append(part.name, part.value);
    else form.append(part.name, part.value, part.filename);
  }
  const response = await fetch(`${gw.baseUrl}/files${query}`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

const text = (content: string, type = 'text/plain') => new Blob([content], { type });

/** A raw form's answer: its status and JSON body. */
function parsed(answer: string): { status: number; body: any } {
  const status = Number(answer.slice(9, 12));
  return { status, body: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) };
}

describe.each(testEngines)('files on $name', (engine) => {
  let gw: RunningGateway;
  let dir: string;
  let alphaKey: string;
  let betaKey: string;
  let alphaId: string;
  let betaId: string;
  const admin = (method: string, path: string, body?: unknown) => call(gw, method, path, { key: gw.managementKey, body });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mg-files-it-'));
    gw = await startGateway(engine, {
      files: { storage: directoryStorage(join(dir, 'files')), maxBytes: MAX_BYTES, workspaceQuotaBytes: QUOTA_BYTES },
    });
    alphaId = (await admin('POST', '/workspaces', { name: 'Alpha', slug: 'alpha' })).body.data.id;
    betaId = (await admin('POST', '/workspaces', { name: 'Beta', slug: 'beta' })).body.data.id;
    alphaKey = (await admin('POST', '/keys', { name: 'alpha', workspace_id: alphaId })).body.key;
    betaKey = (await admin('POST', '/keys', { name: 'beta', workspace_id: betaId })).body.key;
  });
  afterAll(async () => {
    await gw?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uploads, lists, retrieves, downloads and deletes a file', async () => {
    const made = await upload(gw, alphaKey, [
      { name: 'purpose', value: 'assistants' },
      { name: 'file', value: text('# Notes\n\nShip it.'), filename: 'notes.md' },
    ]);
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      type: 'file',
      object: 'file',
      filename: 'notes.md',
      mime_type: 'text/markdown',
      size_bytes: 17,
      bytes: 17,
      purpose: 'assistants',
      downloadable: true,
      status: 'processed',
    });
    expect(made.body.id).toMatch(/^or_file_/);
    expect(Date.parse(made.body.created_at)).toBeGreaterThan(0);
    const id = made.body.id as string;

    expect((await call(gw, 'GET', `/files/${id}`, { key: alphaKey })).body).toEqual(made.body);
    const content = await fetch(`${gw.baseUrl}/files/${id}/content`, { headers: { authorization: `Bearer ${alphaKey}` } });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('application/octet-stream');
    expect(content.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''notes.md");
    expect(await content.text()).toBe('# Notes\n\nShip it.');
    const listed = await call(gw, 'GET', '/files', { key: alphaKey });
    expect(listed.body).toMatchObject({ object: 'list', data: [{ id }], has_more: false, first_id: id, last_id: id, cursor: null });

    expect((await call(gw, 'DELETE', `/files/${id}`, { key: alphaKey })).body).toEqual({
      _shape: 'openrouter',
      id,
      type: 'file_deleted',
      object: 'file',
      deleted: true,
    });
    expect((await call(gw, 'GET', `/files/${id}`, { key: alphaKey })).status).toBe(404);
    expect((await call(gw, 'DELETE', `/files/${id}`, { key: alphaKey })).status).toBe(404);
    expect((await call(gw, 'GET', `/files/${id}/content`, { key: alphaKey })).status).toBe(404);
    // Its bytes are gone from the storage too.
    expect(readdirSync(join(dir, 'files')).filter((name) => name.startsWith(id))).toEqual([]);
  });

  it('pages through a workspace’s files with limit, cursor, after and order', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await upload(gw, betaKey, [{ name: 'file', value: text(`file ${i}`), filename: `f${i}.txt` }])).body.id);
    const page = async (query: string) => (await call(gw, 'GET', `/files${query}`, { key: betaKey })).body;
    const first = await page('?limit=2');
    expect(first.data.map((f: { id: string }) => f.id)).toEqual(ids.slice(0, 2));
    expect(first.has_more).toBe(true);
    const second = await page(`?limit=2&cursor=${first.cursor}`);
    expect(second.data.map((f: { id: string }) => f.id)).toEqual(ids.slice(2, 4));
    const rest = await page(`?limit=2&after=${second.last_id}`);
    expect(rest).toMatchObject({ has_more: false, cursor: null, data: [{ id: ids[4] }] });
    expect((await page(`?after_id=${ids[3]}`)).data.map((f: { id: string }) => f.id)).toEqual([ids[4]]);
    expect((await page('?order=desc&limit=3')).data.map((f: { id: string }) => f.id)).toEqual(ids.slice(2).reverse());

    const bad = async (query: string) => call(gw, 'GET', `/files${query}`, { key: betaKey });
    expect((await bad('?limit=0')).status).toBe(400);
    expect((await bad('?limit=1001')).status).toBe(400);
    expect((await bad('?cursor=nonsense')).body.error.message).toBe(
      'cursor: not a cursor this list gave; pass the `cursor` of the previous page as it is',
    );
    expect((await bad(`?after=${ids[0]}&cursor=${first.cursor}`)).status).toBe(400);
    expect((await bad('?before_id=x')).status).toBe(400);
    expect((await bad('?order=sideways')).status).toBe(400);
    expect((await bad('?after=or_file_nothing')).body.error.message).toBe('after: no file or_file_nothing in this workspace to list after');
    expect((await bad('?provider=openai')).status).toBe(400);
    for (const id of ids) await call(gw, 'DELETE', `/files/${id}`, { key: betaKey });
  });

  it('keeps a workspace’s files from another workspace’s keys', async () => {
    const file = (await upload(gw, alphaKey, [{ name: 'file', value: text('alpha only'), filename: 'secret.txt' }])).body;
    for (const [method, path] of [
      ['GET', `/files/${file.id}`],
      ['GET', `/files/${file.id}/content`],
      ['DELETE', `/files/${file.id}`],
    ] as const) {
      const refused = await call(gw, method, path, { key: betaKey });
      expect(refused.status, `${method} ${path}`).toBe(404);
      expect(refused.body.error.message).toBe(`File ${file.id} not found`);
    }
    expect((await call(gw, 'GET', '/files', { key: betaKey })).body.data).toEqual([]);
    // A key cannot name another workspace; an organization's management key can.
    expect((await call(gw, 'GET', `/files?workspace_id=${alphaId}`, { key: betaKey })).status).toBe(404);
    expect((await call(gw, 'GET', `/files/${file.id}?workspace_id=${alphaId}`, { key: betaKey })).status).toBe(404);
    expect((await admin('GET', `/files/${file.id}?workspace_id=${alphaId}`)).body.id).toBe(file.id);
    expect((await admin('GET', `/files/${file.id}`)).status).toBe(404);
    // A management key scoped to beta reaches beta only.
    const scoped = await createApiKey(
      gw.store.db,
      { organizationId: gw.organizationId, workspaceId: betaId, name: 'beta manager', isManagement: true, managementScope: 'workspace' },
      new Date().toISOString(),
    );
    const scopedAsk = await call(gw, 'GET', `/files/${file.id}?workspace_id=${alphaId}`, { key: scoped.key });
    expect(scopedAsk.status).toBe(404);
    expect(scopedAsk.body.error.message).toBe(`Workspace ${alphaId} not found`);
    expect((await call(gw, 'GET', `/files/${file.id}`, { key: alphaKey })).status).toBe(200);
    await call(gw, 'DELETE', `/files/${file.id}`, { key: alphaKey });
  });

  it('refuses bad uploads in the envelope, keeping nothing of them', async () => {
    const refusal = async (parts: Parameters<typeof upload>[2]) => upload(gw, alphaKey, parts);
    const expectRefused = (answer: { status: number; body: any }, status: number, message: string) => {
      expect(answer.status).toBe(status);
      expect(answer.body.error).toMatchObject({ code: status, message });
    };
    expectRefused(
      await refusal([{ name: 'purpose', value: 'user_data' }]),
      400,
      'file is required: the file to upload, as a multipart part named "file"',
    );
    expectRefused(
      await refusal([{ name: 'file', value: 'no name, just text' }]),
      400,
      'file: the part has no filename; send it as Content-Disposition: form-data; name="file"; filename="…"',
    );
    expectRefused(
      await refusal([{ name: 'file', value: text(''), filename: 'empty.txt' }]),
      400,
      'file: the file is empty (0 bytes); upload a file with content',
    );
    expectRefused(
      await refusal([{ name: 'file', value: new Blob([new Uint8Array([0, 1, 2, 3])]), filename: 'blob.bin' }]),
      400,
      'file: its contents are of no type the files API takes (a PDF, a PNG/JPEG/GIF/WebP image, a DOCX/XLSX/PPTX document, an MP3/WAV/FLAC/OGG audio file, or UTF-8 text)',
    );
    expectRefused(
      await refusal([
        { name: 'purpose', value: 'fun' },
        { name: 'file', value: text('x'), filename: 'x.txt' },
      ]),
      400,
      'purpose must be one of assistants, batch, fine-tune, vision, user_data, evals (got "fun")',
    );
    expectRefused(
      await refusal([{ name: 'document', value: text('x'), filename: 'x.txt' }]),
      400,
      'the file must be sent in the field "file" (got "document")',
    );
    expectRefused(
      await refusal([
        { name: 'file', value: text('x'), filename: 'x.txt' },
        { name: 'file', value: text('y'), filename: 'y.txt' },
      ]),
      413,
      'Upload too large: an upload takes 1 file, in the field "file"',
    );
    const json = await call(gw, 'POST', '/files', { key: alphaKey, body: { file: 'x' } });
    expect(json.status).toBe(415);

    // 10,000 parts: refused once past the form's 16.
    const parts: FormPart[] = Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}`, value: 'x' }));
    const many = parsed((await rawUpload(`${gw.baseUrl}/files`, alphaKey, () => formPieces(parts), true)).answer);
    expect(many.status).toBe(413);
    expect(many.body.error.message).toBe('Upload too large: an upload takes at most 8 fields');
    // Declared, so large a body is refused before a byte of it is read.
    const declared = parsed((await rawUpload(`${gw.baseUrl}/files`, alphaKey, () => formPieces(parts), false)).answer);
    expect(declared.status).toBe(413);
    expect(declared.body.error.message).toMatch(
      /^Upload too large: the body's \d+ bytes exceed the most a form with a file within the 65536-byte limit/,
    );
    const files = Array.from({ length: 10_000 }, (_, i) => ({ name: 'file', filename: `f${i}.txt`, size: 1, head: Buffer.from('x') }));
    const manyFiles = parsed((await rawUpload(`${gw.baseUrl}/files`, alphaKey, () => formPieces(files), true)).answer);
    expect(manyFiles.status).toBe(413);

    expect((await call(gw, 'GET', '/files', { key: alphaKey })).body.data).toEqual([]);
    expect(readdirSync(join(dir, 'files'))).toEqual([]);
  });

  it('caps a file at FILES_MAX_BYTES and a workspace at its quota, with a 413 naming each', async () => {
    const head = Buffer.from('a'.repeat(1024));
    const tooBig = parsed(
      (
        await rawUpload(
          `${gw.baseUrl}/files`,
          alphaKey,
          () => formPieces([{ name: 'file', filename: 'big.txt', size: MAX_BYTES + 1, head }]),
          true,
        )
      ).answer,
    );
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.message).toBe(`Upload too large: the file exceeds the ${MAX_BYTES}-byte limit of a file (FILES_MAX_BYTES)`);

    const big = () => new Blob(['b'.repeat(MAX_BYTES)], { type: 'text/plain' });
    const kept: string[] = [];
    for (let i = 0; i < 2; i++) kept.push((await upload(gw, alphaKey, [{ name: 'file', value: big(), filename: `b${i}.txt` }])).body.id);
    // 128 KiB of the 160 KiB quota are used: a third 64 KiB file does not fit.
    const over = await upload(gw, alphaKey, [{ name: 'file', value: big(), filename: 'b2.txt' }]);
    expect(over.status).toBe(413);
    expect(over.body.error).toEqual({
      code: 413,
      message: `Storage quota exceeded: the workspace's files may hold ${QUOTA_BYTES} bytes (FILES_WORKSPACE_QUOTA_BYTES) and hold ${2 * MAX_BYTES}; delete files to make room`,
      metadata: { quota_bytes: QUOTA_BYTES, used_bytes: 2 * MAX_BYTES },
    });
    // What fits the room left is taken; the other workspace has its own quota.
    expect((await upload(gw, alphaKey, [{ name: 'file', value: text('small'), filename: 's.txt' }])).status).toBe(200);
    expect((await upload(gw, betaKey, [{ name: 'file', value: big(), filename: 'b.txt' }])).status).toBe(200);
    // Deleting makes room again.
    await call(gw, 'DELETE', `/files/${kept[0]}`, { key: alphaKey });
    expect((await upload(gw, alphaKey, [{ name: 'file', value: big(), filename: 'b3.txt' }])).status).toBe(200);
  });
});
