import { readFileSync } from 'node:fs';

/** Recorded real provider traffic shared by the adapter tests (see its README). */
const FIXTURES = new URL('../../../../shared/fixtures/providers/', import.meta.url);

/** A whole JSON body, e.g. "openai/openai-text.json". */
export function readFixtureJson(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
}

/** The `data:` payloads of a recorded stream, one per line, e.g. "groq/groq-tool-call.chunks.txt". */
export function readFixtureEvents(name: string): string[] {
  return readFileSync(new URL(name, FIXTURES), 'utf8').split('\n').filter((line) => line.trim() !== '');
}
