/**
 * Runs `work` with a signal that aborts after `ms`, and rejects with
 * `onTimeout()` at that moment if the work has not settled (spec 7.3's 408:
 * the caller is not kept waiting on a step that hangs).
 */
export async function acceptWithin<T>(ms: number, work: (signal: AbortSignal) => Promise<T>, onTimeout: () => Error): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(onTimeout());
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}
