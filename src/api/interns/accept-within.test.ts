import { describe, expect, it } from 'vitest';
import { acceptWithin } from './accept-within.js';

describe('acceptWithin', () => {
  it('returns what the work returns in time', async () => {
    await expect(
      acceptWithin(
        1_000,
        async () => 'ok',
        () => new Error('late'),
      ),
    ).resolves.toBe('ok');
  });

  it('rejects with the timeout error and aborts the work when it hangs', async () => {
    let seen: AbortSignal | undefined;
    const hang = (signal: AbortSignal) => {
      seen = signal;
      return new Promise<string>(() => undefined);
    };
    await expect(acceptWithin(5, hang, () => new Error('late'))).rejects.toThrow('late');
    expect(seen?.aborted).toBe(true);
  });

  it("passes the work's own failure on", async () => {
    await expect(
      acceptWithin(
        1_000,
        async () => Promise.reject(new Error('boom')),
        () => new Error('late'),
      ),
    ).rejects.toThrow('boom');
  });
});
