import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SseWriter } from './sse-writer.js';

/** Just enough of a ServerResponse to record what is written. */
function fakeResponse() {
  const written: string[] = [];
  const raw = Object.assign(new EventEmitter(), {
    destroyed: false,
    writableEnded: false,
    writeHead: () => undefined,
    flushHeaders: () => undefined,
    write: (text: string) => written.push(text) > 0,
    end: () => undefined,
  });
  return { raw: raw as unknown as ServerResponse, written };
}

describe('SseWriter keepalive', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes a keepalive comment only after an interval with nothing else written, and none after end', async () => {
    vi.useFakeTimers();
    const { raw, written } = fakeResponse();
    const sse = new SseWriter(raw);
    sse.keepAlive(30_000);
    await sse.data('{"a":1}');
    await vi.advanceTimersByTimeAsync(20_000);
    await sse.data('{"a":2}');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(written).toEqual(['data: {"a":1}\n\n', 'data: {"a":2}\n\n']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(written.at(-1)).toBe(': keepalive\n\n');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(written.filter((w) => w === ': keepalive\n\n')).toHaveLength(2);
    sse.end();
    await vi.advanceTimersByTimeAsync(90_000);
    expect(written).toHaveLength(4);
  });
});
