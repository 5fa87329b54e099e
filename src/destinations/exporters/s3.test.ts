import { describe, expect, it } from 'vitest';
import type { GenerationEvent } from '../generation-event.js';
import { folderOf, s3Batches } from './s3.js';

const event = (id: string, created_at: string, api_key_name?: string) =>
  ({ id, created_at, ...(api_key_name ? { identity: { api_key_name } } : {}) }) as unknown as GenerationEvent;

describe('s3 objects of a batch', () => {
  it('partitions by the path template, one generation a line, named by the first', () => {
    const config = { prefix: 'traces', pathTemplate: '{prefix}/{date}' };
    const events = [
      event('gen-1', '2026-11-28T23:59:59.999Z'),
      event('gen-2', '2026-11-29T00:00:00.000Z'),
      event('gen-3', '2026-11-28T23:59:59.999Z'),
    ];
    expect(s3Batches(config, events)).toEqual([
      {
        key: 'traces/2026-11-28/20261128T235959999Z-gen-1.jsonl',
        body: `${JSON.stringify(events[0])}\n${JSON.stringify(events[2])}\n`,
      },
      { key: 'traces/2026-11-29/20261129T000000000Z-gen-2.jsonl', body: `${JSON.stringify(events[1])}\n` },
    ]);
  });

  it('fills every variable of the template and drops empty segments', () => {
    const template = { prefix: '', pathTemplate: '/{prefix}/{year}/{month}/{day}/{apiKeyName}/{nothing}/' };
    expect(folderOf(template, event('g', '2026-01-02T03:04:05.000Z', 'ci'))).toBe('2026/01/02/ci/{nothing}');
    expect(folderOf(template, event('g', '2026-01-02T03:04:05.000Z'))).toBe('2026/01/02/unknown/{nothing}');
  });
});
