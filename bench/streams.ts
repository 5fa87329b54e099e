import { Pool } from 'undici';
import { POOL_TIMEOUTS, requestOptions } from './http-target.js';
import type { Mark } from './load-main.js';
import type { StreamResult, StreamSpec } from './load-types.js';
import { summarize } from './summarize.js';

/**
 * `streams` SSE requests, `concurrency` at a time: the time to the first body
 * byte (the first event, not just the headers) and to the end of the stream.
 * A stream that does not end with `[DONE]` counts as an error.
 */
export async function runStreams(spec: StreamSpec, mark: (m: Mark) => void): Promise<StreamResult> {
  const pool = new Pool(spec.target.origin, { connections: spec.concurrency, ...POOL_TIMEOUTS });
  const options = requestOptions(spec.target);
  const firstBytes: number[] = [];
  const wholes: number[] = [];
  let errors = 0;
  let started = 0;

  const streamOnce = async () => {
    const sentAt = performance.now();
    const response = await pool.request(options);
    let firstAt = NaN;
    let tail = '';
    for await (const chunk of response.body) {
      if (Number.isNaN(firstAt)) firstAt = performance.now();
      tail = (tail + (chunk as Buffer).toString('latin1')).slice(-64);
    }
    const endAt = performance.now();
    if (response.statusCode !== 200 || !tail.includes('[DONE]'))
      throw new Error(`status ${response.statusCode}, stream ended with ${JSON.stringify(tail)}`);
    firstBytes.push(firstAt - sentAt);
    wholes.push(endAt - sentAt);
  };

  const worker = (count: number) => async () => {
    for (; started < count; ) {
      started += 1;
      try {
        await streamOnce();
      } catch (error) {
        if (errors++ === 0) process.stderr.write(`stream error: ${(error as Error).message}\n`);
      }
    }
  };

  // The warm-up streams (this process's JIT, the connections) are measured like the others, then forgotten.
  await Promise.all(Array.from({ length: spec.concurrency }, worker(spec.warmupStreams)));
  firstBytes.length = 0;
  wholes.length = 0;
  errors = 0;
  started = 0;
  mark('start');
  await Promise.all(Array.from({ length: spec.concurrency }, worker(spec.streams)));
  mark('end');
  await pool.close();
  return { completed: wholes.length, errors, firstByte: summarize(firstBytes), whole: summarize(wholes) };
}
