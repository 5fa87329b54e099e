/**
 * The items no other item beats on both axes: none is at most as costly and
 * at least as good, and strictly better on one. Items equal on both axes are
 * all on the frontier.
 */
export function paretoFrontier<T>(items: readonly T[], cost: (item: T) => number, quality: (item: T) => number): Set<T> {
  const dominated = (item: T) =>
    items.some(
      (other) =>
        cost(other) <= cost(item) && quality(other) >= quality(item) && (cost(other) < cost(item) || quality(other) > quality(item)),
    );
  return new Set(items.filter((item) => !dominated(item)));
}
