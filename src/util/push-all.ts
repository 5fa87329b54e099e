/**
 * Appends items one at a time. `target.push(...items)` passes them as
 * arguments, which overflows the stack past about 120,000, and a request may
 * hold more parts than that in one message.
 */
export function pushAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}
