import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Model names `fixture:<provider>/<recording>` replay a recorded provider response. */
export const FIXTURE_MODEL_PREFIX = 'fixture:';

/** A recording of the protocol: the SSE data lines, and/or the whole JSON body. */
export interface Fixture {
  events?: string[];
  json?: string;
}
export type FixtureLookup = { ok: true; fixture: Fixture } | { ok: false; reason: string };

/**
 * The recorded-payloads folder: the option, else SIM_FIXTURES_DIR, else
 * ../shared/fixtures/providers from the working directory or from the package
 * root (this file sits two levels below it in both src/sim and dist/sim).
 */
export function resolveFixturesDir(option?: string): string {
  const chosen = option ?? process.env.SIM_FIXTURES_DIR;
  if (chosen) return resolve(chosen);
  const candidates = [
    resolve(process.cwd(), '../shared/fixtures/providers'),
    fileURLToPath(new URL('../../../shared/fixtures/providers', import.meta.url)),
  ];
  return candidates.find((dir) => existsSync(dir)) ?? (candidates[0] as string);
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

  /** `name` is `<provider>/<recording>`, e.g. `openai/issue-15789-step-1`. */
  load(name: string): Promise<FixtureLookup> {
    let lookup = this.cache.get(name);
    if (!lookup) {
      lookup = this.read(name);
      this.cache.set(name, lookup);
    }
    return lookup;
  }

  private async read(name: string): Promise<FixtureLookup> {
    if (!RECORDING_NAME.test(name) || name.includes('..')) return { ok: false, reason: `'${name}' is not <provider>/<recording>` };
    const base = join(this.dir, name);
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
