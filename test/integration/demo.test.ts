import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { MAIN, runCli } from '../support/cli.js';

const sh = promisify(execFile);

interface Demo {
  child: ChildProcess;
  stdout: string;
  exited: Promise<number | null>;
}

/** `model-gateway demo` with its own TMPDIR, once it has printed its commands. */
function startDemo(tmp: string): Promise<Demo> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'demo', '--port', '0'], {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('close', r));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      if (stdout.includes('the models: curl')) resolve({ child, stdout, exited });
    });
    void exited.then((code) => reject(new Error(`demo exited with ${code}:\n${stderr}${stdout}`)));
  });
}

/** The printed `curl …` commands, each joined from its continuation lines. */
const printedCurls = (stdout: string) => stdout.split('\n\n').filter((block) => block.trimStart().startsWith('curl '));

let running: Demo | undefined;
afterEach(async () => {
  running?.child.kill('SIGKILL');
  running = undefined;
});

describe('model-gateway demo', () => {
  it('prints a curl that answers a chat completion and one that streams, and Ctrl-C stops everything and removes its database', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'mg-demo-'));
    running = await startDemo(tmp);
    const [complete, stream, embeddings] = printedCurls(running.stdout);
    expect(complete).toBeDefined();
    expect(stream).toBeDefined();

    const answer = JSON.parse((await sh('sh', ['-c', complete!])).stdout) as {
      object: string;
      choices: { message: { content: string } }[];
    };
    expect(answer.object).toBe('chat.completion');
    expect(answer.choices[0]?.message.content).toContain('Hello!');

    const streamed = (await sh('sh', ['-c', stream!])).stdout;
    expect(streamed).toContain('"object":"chat.completion.chunk"');
    expect(streamed.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const consoleUrl = /The web console: (\S+) /.exec(running.stdout)?.[1];
    const page = await fetch(consoleUrl!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app">');

    // The models' curl carries the key: it answers the list, not a 401.
    const models = JSON.parse((await sh('sh', ['-c', /the models: (curl .*)$/m.exec(running.stdout)![1]!])).stdout) as {
      data: { id: string }[];
    };
    expect(models.data.map((m) => m.id)).toContain('sim/chat');
    // The command line reaches the demo's own database: the key the demo made is there.
    const cli = /^ {2}(DATABASE_URL=.* node dist\/main\.js keys list)$/m.exec(running.stdout)![1]!;
    const listed = (await sh('sh', ['-c', cli.replace('node dist/main.js', `'${process.execPath}' '${MAIN}'`)])).stdout;
    const key = /Bearer (sk-demo-\w+)/.exec(running.stdout)![1]!;
    expect(listed).toContain(createHash('sha256').update(key).digest('hex'));

    const vectors = JSON.parse((await sh('sh', ['-c', embeddings!])).stdout) as { object: string; data: { embedding: number[] }[] };
    expect(vectors.object).toBe('list');
    expect(vectors.data).toHaveLength(2);
    expect(readdirSync(tmp)).toHaveLength(1);

    running.child.kill('SIGINT');
    expect(await running.exited).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('refuses a taken port, naming it and the setting, and leaves nothing behind', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    const tmp = mkdtempSync(join(tmpdir(), 'mg-demo-'));
    try {
      const result = await runCli(['demo', '--port', String(port)], { TMPDIR: tmp });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is taken`);
      expect(result.stderr).toContain('set PORT (or --port)');
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      holder.close();
    }
  });
});
