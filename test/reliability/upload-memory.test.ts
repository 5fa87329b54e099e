import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solidPng } from '../../src/sim/images/sim-png.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { type TestDatabase, testEngines } from '../support/databases.js';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.js';
import { type FormPart, formPieces, rawUpload } from '../support/raw-upload.js';

/**
 * Uploads past their limit cost the gateway no memory to speak of: three
 * 100 MB multipart bodies at once, declared or chunked, move the resident set
 * of the gateway's process (its own, apart from the test's) by less than
 * 50 MB. /images/edits used to read such a form whole (each image within its
 * 20 MB) and answer 200, the process growing by 1.1–1.4 GB.
 */
const sqlite = testEngines.find((e) => e.name === 'sqlite')!;
const MB = 1024 * 1024;
const png = solidPng([10, 200, 10]);

/** The process's resident set, in bytes (Linux's /proc). */
const residentBytes = (pid: number) => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;

/** Runs `work`, sampling the process's resident set every 10 ms: the most it reached above where it started. */
async function peakGrowth(pid: number, work: () => Promise<unknown>): Promise<number> {
  const start = residentBytes(pid);
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid));
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, residentBytes(pid)) - start;
}

const routes: Record<string, { path: string; form: (size: number) => FormPart[] }> = {
  // Images of 16 MiB each: every one within an input image's 20 MB.
  '/images/edits': {
    path: '/images/edits',
    form: (size) => [
      { name: 'model', value: 'sim/image' },
      { name: 'prompt', value: 'a hat' },
      ...Array.from(
        { length: Math.ceil(size / (16 * MB)) },
        (): FormPart => ({ name: 'image[]', filename: 'in.png', size: 16 * MB, head: png }),
      ),
    ],
  },
  '/audio/transcriptions': {
    path: '/audio/transcriptions',
    form: (size) => [
      { name: 'model', value: 'sim/stt' },
      { name: 'file', filename: 'a.wav', size },
    ],
  },
};

describe.skipIf(process.platform !== 'linux')('the memory of uploads past their limit', () => {
  let sim: Simulator;
  let database: TestDatabase;
  let gateway: GatewayProcess;
  const upload = (path: string, form: FormPart[], chunked: boolean) =>
    rawUpload(`${gateway.baseUrl}${path}`, gateway.managementKey, () => formPieces(form), chunked);

  beforeAll(async () => {
    sim = await startSimulator();
    database = await sqlite.create();
    gateway = await startGatewayProcess({
      databaseUrl: database.url,
      simUrl: sim.url,
      providers: ['alpha'],
      models: [{ id: 'sim/chat', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] }],
    });
  });
  afterAll(async () => {
    await gateway?.crash();
    await database?.drop();
    await sim?.close();
  });

  it.each([
    ['/images/edits', false],
    ['/images/edits', true],
    ['/audio/transcriptions', false],
  ] as const)(
    '%s: three 100 MB bodies at once (chunked: %s) are refused with 413, the process growing by less than 50 MB',
    async (name, chunked) => {
      const { path, form } = routes[name]!;
      // The first refusal loads and compiles what the measured ones run.
      expect((await upload(path, form(100 * MB), chunked)).answer).toMatch(/^HTTP\/1\.1 413 /);
      const answers: string[] = [];
      const growth = await peakGrowth(gateway.child.pid!, async () => {
        const uploads = await Promise.all([1, 2, 3].map(() => upload(path, form(100 * MB), chunked)));
        answers.push(...uploads.map((u) => u.answer));
      });
      for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(growth).toBeLessThan(50 * MB);
    },
  );
});
