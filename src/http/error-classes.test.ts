import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LedgerOutboxFullError } from '../accounting/ledger-outbox.js';
import { type AttemptOutcome, finalError } from '../chat/attempt-outcome.js';
import { AckTimeoutError, ChannelClosedError } from '../interns/runtime/intern-process.js';
import { runtimeError } from '../interns/runtime/intern-runtime-service.js';
import { BlockedAddressError } from '../net/guarded-lookup.js';
import { SafeFetchError } from '../net/safe-fetch.js';
import { UnreadablePdfError } from '../plugins/file-parser/extract-pdf-text.js';
import { parsePdfParts } from '../plugins/file-parser/parse-pdf-parts.js';
import type { PdfTextCache } from '../plugins/file-parser/pdf-text-cache.js';
import type { ChatRequest } from '../protocol/chat.js';
import type { ErrorCode, GatewayError } from '../protocol/gateway-error.js';
import { UpstreamError } from '../protocol/upstream.js';
import { DatabaseUnavailableError } from '../store/database-unavailable.js';
import { ERROR_CLASSES } from './error-classes.js';
import { toGatewayError } from './error-envelope.js';
import { ERROR_CATALOGUE } from './errors.js';

const src = fileURLToPath(new URL('../', import.meta.url));
const mapping = (name: string) => ERROR_CLASSES.find((c) => c.name === name)!;

/** Every `class X extends …Error` of src/ (tests aside), with its file. */
function declaredErrorClasses(dir = src): { name: string; file: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return declaredErrorClasses(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) return [];
    return [...readFileSync(path, 'utf8').matchAll(/^export class (\w+) extends \w*Error\b/gm)].map((m) => ({
      name: m[1]!,
      file: `src/${relative(src, path)}`,
    }));
  });
}

/** The catalogue entry a class's error became, which its row of the table must list. */
function expectMapped(name: string, errors: GatewayError[]) {
  for (const error of errors) expect(mapping(name).becomes, `${name} became ${error.code}`).toContain(error.code);
}

const attempt = (status?: number): AttemptOutcome => ({
  model: 'm',
  provider: 'p',
  status: 'failed',
  latency_ms: 1,
  error: { failure: 'status', message: 'x', ...(status ? { status } : {}) },
});

/** The file-parser plugin on one file part, whose download or text extraction fails with `error`. */
async function fileParserError(fileData: string, fails: { download?: Error; text?: Error }): Promise<GatewayError> {
  const request = {
    model: 'm',
    messages: [{ role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf', file_data: fileData } }] }],
  } as ChatRequest;
  const cache = { text: async () => Promise.reject(fails.text ?? new Error('unused')) } as unknown as PdfTextCache;
  const download = async () => (fails.download ? Promise.reject(fails.download) : Buffer.from('%PDF-1.4'));
  return parsePdfParts(request, {}, { native: false, fetchesUrls: false }, { cache, download }).then(
    () => expect.fail('the part was read'),
    (error: GatewayError) => error,
  );
}

describe('the other Error classes', () => {
  it('lists every Error class of src/ once, where it is declared', () => {
    const declared = declaredErrorClasses().filter((c) => c.name !== 'GatewayError');
    expect(ERROR_CLASSES.map((c) => `${c.name} ${c.file}`).sort()).toEqual(declared.map((c) => `${c.name} ${c.file}`).sort());
  });

  it('names only entries of the catalogue, and says where each class goes', () => {
    const known = new Set<ErrorCode>(ERROR_CATALOGUE.map((e) => e.code));
    for (const c of ERROR_CLASSES) {
      expect(
        c.becomes.filter((code) => !known.has(code)),
        c.name,
      ).toEqual([]);
      expect(c.where.length, c.name).toBeGreaterThan(0);
    }
  });

  it('maps an UpstreamError, after every attempt, to the entry of its failure', () => {
    const final = (error: UpstreamError, attempts = [attempt(error.details.status)]) => finalError('m', attempts, error);
    const errors = [
      final(new UpstreamError('connection', 'refused')),
      final(new UpstreamError('malformed', 'not JSON')),
      final(new UpstreamError('timeout', 'no answer')),
      final(new UpstreamError('local', 'EMFILE')),
      final(new UpstreamError('status', 'slow down', { status: 429 })),
      final(new UpstreamError('status', 'overloaded', { status: 529 })),
      final(new UpstreamError('status', 'timed out', { status: 504 })),
      final(new UpstreamError('status', 'bad', { status: 422 })),
      final(new UpstreamError('status', 'down', { status: 503 })),
      final(new UpstreamError('status', 'broke', { status: 500 })),
    ];
    expect(errors.map((e) => [e.code, e.statusCode])).toEqual([
      ['GW_ERR_UPSTREAM_FAILED', 502],
      ['GW_ERR_UPSTREAM_FAILED', 502],
      ['GW_ERR_UPSTREAM_EDGE_TIMEOUT', 524],
      ['GW_ERR_OUT_OF_RESOURCES', 503],
      ['GW_ERR_UPSTREAM_RATE_LIMITED', 429],
      ['GW_ERR_UPSTREAM_OVERLOADED', 529],
      ['GW_ERR_UPSTREAM_TIMEOUT', 408],
      ['GW_ERR_UPSTREAM_REFUSED', 422],
      ['GW_ERR_NO_ENDPOINT_AVAILABLE', 503],
      ['GW_ERR_UPSTREAM_FAILED', 502],
    ]);
    expectMapped('UpstreamError', errors);
  });

  it('maps a fetch the SSRF guard refused or that failed, and a PDF that cannot be read, to GW_ERR_FILE_UNREADABLE', async () => {
    const blocked = new SafeFetchError('blocked', new BlockedAddressError('internal.test resolves to a blocked address: private').message);
    expectMapped('SafeFetchError', [
      await fileParserError('https://files.test/a.pdf', { download: new SafeFetchError('timeout', 'no complete answer within 10 ms') }),
    ]);
    expectMapped('BlockedAddressError', [await fileParserError('https://internal.test/a.pdf', { download: blocked })]);
    const unreadable = await fileParserError(`data:application/pdf;base64,${Buffer.from('%PDF-1.4 broken').toString('base64')}`, {
      text: new UnreadablePdfError('no xref table'),
    });
    expect([unreadable.code, unreadable.statusCode, unreadable.message]).toEqual([
      'GW_ERR_FILE_UNREADABLE',
      400,
      'messages[0].content[0].file.file_data the PDF cannot be read (no xref table)',
    ]);
    expectMapped('UnreadablePdfError', [unreadable]);
  });

  it("maps the intern process's failures to the intern entries", () => {
    expectMapped('AckTimeoutError', [runtimeError(new AckTimeoutError('no ack within 10 ms'))]);
    expectMapped('ChannelClosedError', [runtimeError(new ChannelClosedError('the intern process exited'))]);
    expect(runtimeError(new AckTimeoutError('x')).code).toBe('GW_ERR_INTERN_TIMEOUT');
  });

  it('maps an unreachable database, a full ledger outbox included, to GW_ERR_DATABASE_UNAVAILABLE', () => {
    expectMapped('DatabaseUnavailableError', [toGatewayError(new DatabaseUnavailableError('the database failed repeatedly'), 0)]);
    expectMapped('LedgerOutboxFullError', [toGatewayError(new LedgerOutboxFullError('the outbox is full'), 0)]);
  });
});
