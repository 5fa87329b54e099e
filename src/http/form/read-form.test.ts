import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorEnvelope } from '../error-envelope.js';
import { Errors } from '../errors.js';
import { type FormLimits, readForm, takeMultipart } from './read-form.js';

const LIMITS: FormLimits = {
  bodyBytes: 4096,
  headerBytes: 256,
  parts: 6,
  files: 2,
  fields: 3,
  fileBytes: 1024,
  fieldBytes: 32,
  fieldNameBytes: 16,
};

/** A form of boundary `b` from its parts, each its headers and its content. */
const form = (...parts: [string, string][]) =>
  `${parts.map(([headers, content]) => `--b\r\n${headers}\r\n\r\n${content}\r\n`).join('')}--b--\r\n`;
const field = (name: string, value: string): [string, string] => [`Content-Disposition: form-data; name="${name}"`, value];
const file = (name: string, bytes: string): [string, string] => [
  `Content-Disposition: form-data; name="${name}"; filename="${name}.bin"\r\nContent-Type: application/octet-stream`,
  bytes,
];

describe('readForm', () => {
  const app = Fastify();
  beforeAll(async () => {
    installErrorEnvelope(app, LIMITS.bodyBytes);
    takeMultipart(app);
    app.post('/form', async (request, reply) => {
      const read = await readForm(request, reply, {
        limits: LIMITS,
        refusals: { file: () => Errors.uploadTooLarge('the route’s own words for a file too large') },
        refuseFile: (name) => (name.startsWith('file') ? undefined : Errors.invalidRequest(`no files in ${name}`)),
      });
      return {
        fields: Object.fromEntries(read.fields),
        files: read.files.map((f) => ({ ...f, bytes: f.bytes.toString() })),
      };
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (payload: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/form', headers: { 'content-type': 'multipart/form-data; boundary=b', ...headers }, payload });
  const refusal = async (payload: string, headers: Record<string, string> = {}) => {
    const res = await post(payload, headers);
    return { status: res.statusCode, message: res.json().error.message as string, connection: res.headers.connection };
  };

  it('reads every field, each value in order, and each file whole', async () => {
    const res = await post(form(field('a', '1'), file('file', 'bytes of a file'), field('a', '2')));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      fields: { a: ['1', '2'] },
      files: [{ field: 'file', filename: 'file.bin', contentType: 'application/octet-stream', bytes: 'bytes of a file' }],
    });
    expect(res.headers.connection).not.toBe('close');
  });

  it('refuses a body declared past its limit before reading it, and closes the connection', async () => {
    const payload = form(field('a', 'x'.repeat(5000)));
    expect(await refusal(payload)).toEqual({
      status: 413,
      message: `Upload too large: the body's ${payload.length} bytes exceed the 4096-byte limit of this form`,
      connection: 'close',
    });
  });

  it.each([
    [
      'a part whose headers pass the limit',
      form([`Content-Disposition: form-data; name="a"\r\nX: ${'x'.repeat(300)}`, '1']),
      413,
      'the headers of a part exceed the 256-byte limit',
    ],
    [
      'a file past its limit, in the route’s words',
      form(file('file', 'x'.repeat(2000))),
      413,
      'the route’s own words for a file too large',
    ],
    ['a field past its limit', form(field('a', 'x'.repeat(40))), 413, 'the field a exceeds the 32-byte limit of a field'],
    ['more fields than the limit', form(field('a', '1'), field('b', '1'), field('c', '1'), field('d', '1')), 413, 'more than 3 fields'],
    ['more files than the limit', form(file('file1', 'x'), file('file2', 'x'), file('file3', 'x')), 413, 'more than 2 files'],
    ['more parts than the limit', form(...Array.from({ length: 7 }, (): [string, string] => ['X-Part: 1', 'x'])), 413, 'more than 6 parts'],
    ['a part without a name', form(['Content-Disposition: form-data', 'x']), 400, 'every part of the form must have a name'],
    ['a field named __proto__', form(field('__proto__', 'x')), 400, 'a field name of the form is not allowed (__proto__)'],
    ['a field name past its limit', form(field('n'.repeat(17), 'x')), 400, 'longer than 16 bytes'],
    ['a file where the route takes none', form(file('picture', 'x')), 400, 'no files in picture'],
    ['a form cut short', '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx', 400, 'the multipart body is malformed'],
  ])('refuses %s', async (_, payload, status, message) => {
    const res = await refusal(payload);
    expect(res.status).toBe(status);
    expect(res.message).toContain(message);
  });

  it('refuses a Content-Type without a boundary RFC 2046 allows', async () => {
    for (const type of ['multipart/form-data', 'multipart/form-data; boundary=""', `multipart/form-data; boundary=${'b'.repeat(71)}`]) {
      const res = await refusal(form(field('a', '1')), { 'content-type': type });
      expect(res.status).toBe(400);
      expect(res.message).toContain('boundary');
    }
  });
});
