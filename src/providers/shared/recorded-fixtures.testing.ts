import { readFileSync } from 'node:fs';

/** The providers folder: recordings live in each adapter's `__fixtures__/` (see their READMEs). */
const PROVIDERS = new URL('../', import.meta.url);

const fixtureUrl = (name: string) => {
  const [adapter, file] = name.split('/');
  return new URL(`${adapter}/__fixtures__/${file}`, PROVIDERS);
};

/** A whole JSON body, e.g. "openai/openai-text.json". */
export function readFixtureJson(name: string): unknown {
  return JSON.parse(readFileSync(fixtureUrl(name), 'utf8'));
}

/** The `data:` payloads of a recorded stream, one per line, e.g. "openai/groq-tool-call.chunks.txt". */
export function readFixtureEvents(name: string): string[] {
  return readFileSync(fixtureUrl(name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}
