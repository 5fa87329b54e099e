/** The iterator again, starting with the result already taken from it. */
export function replay<T>(first: IteratorResult<T>, rest: AsyncIterator<T>): AsyncIterator<T> {
  let taken = false;
  return {
    next: () => (taken ? rest.next() : ((taken = true), Promise.resolve(first))),
    return: async (value?: unknown) => (await rest.return?.(value)) ?? { done: true, value: undefined },
  };
}
