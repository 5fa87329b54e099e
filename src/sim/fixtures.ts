import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Model names `fixture:<adapter>/<recording>` replay a recorded provider response. */
export const FIXTURE_MODEL_PREFIX = 'fixture:';

/** A recording of the protocol: the SSE data lines, and/or the whole JSON body. */
export interface Fixture {
  events?: string[];
  json?: string;
}
export type FixtureLookup = { ok: true; fixture: Fixture } | { ok: false; reason: string };

/**
 * The folder laid out as src/providers: each adapter's recordings in its
 * `__fixtures__/`. The option, else SIM_FIXTURES_DIR, else the package's own
 * copy beside this module (the build copies the recordings into dist/).
 */
export function resolveFixturesDir(option?: string): string {
  const chosen = option ?? process.env.SIM_FIXTURES_DIR;
  return chosen ? resolve(chosen) : fileURLToPath(new URL('../providers/', import.meta.url));
}

/** Where `<adapter>/<recording>` is kept, without the `.json` / `.chunks.txt` ending. */
export function recordingPath(dir: string, name: string): string {
  const [adapter = '', recording = ''] = name.split('/');
  return join(dir, adapter, '__fixtures__', recording);
}

const RECORDING_NAME = /^[\w-]+\/[\w.-]+$/;

/** Which recordings a protocol can replay: their name, and the check every payload must pass. */
export interface RecordingProtocol {
  name: string;
  isPayload(text: string): boolean;
}

/** Only Chat-Completions payloads have `choices`; Responses, Anthropic, Gemini and Cohere ones do not. */
export const CHAT_COMPLETIONS_RECORDINGS: RecordingProtocol = {
  name: 'Chat Completions',
  isPayload(text) {
    try {
      return Array.isArray((JSON.parse(text) as { choices?: unknown }).choices);
    } catch {
      return false;
    }
  },
};

const readIfPresent = (path: string) => readFile(path, 'utf8').catch(() => undefined);

/** Loads recordings on first use and keeps them: replays must not touch the disk. */
export class FixtureLibrary {
  private readonly cache = new Map<string, Promise<FixtureLookup>>();

  constructor(
    readonly dir: string,
    private readonly protocol: RecordingProtocol = CHAT_COMPLETIONS_RECORDINGS,
  ) {}

  /** `name` is `<adapter>/<recording>`, e.g. `openai/issue-15789-step-1`. */
  load(name: string): Promise<FixtureLookup> {
    let lookup = this.cache.get(name);
    if (!lookup) {
      lookup = this.read(name);
      this.cache.set(name, lookup);
    }
    return lookup;
  }

  private async read(name: string): Promise<FixtureLookup> {
    if (!RECORDING_NAME.test(name) || name.includes('..')) return { ok: false, reason: `'${name}' is not <adapter>/<recording>` };
    const base = recordingPath(this.dir, name);
    const [chunksText, jsonText] = await Promise.all([readIfPresent(`${base}.chunks.txt`), readIfPresent(`${base}.json`)]);
    if (chunksText === undefined && jsonText === undefined) return { ok: false, reason: `no recording ${name} in ${this.dir}` };

    const { isPayload } = this.protocol;
    const lines = chunksText?.split('\n').filter((line) => line !== '');
    const fixture: Fixture = {
      ...(lines && lines.length > 0 && lines.every(isPayload) ? { events: lines } : {}),
      ...(jsonText !== undefined && isPayload(jsonText) ? { json: jsonText } : {}),
    };
    if (!fixture.events && !fixture.json) return { ok: false, reason: `${name} is not a ${this.protocol.name} recording` };
    return { ok: true, fixture };
  }
}
