/**
 * Items in a random order where each comes first with probability
 * proportional to its weight (exponential race: the smallest -ln(1-u)/w
 * wins). An infinite weight always leads; equal draws keep input order, so
 * a constant `random` gives the heaviest-first order, handy in tests.
 */
export function weightedOrder<T>(items: readonly T[], weight: (item: T) => number, random: () => number): T[] {
  const keyed = items.map((item) => {
    const w = weight(item);
    return { item, key: w === Infinity ? 0 : w > 0 ? -Math.log(1 - random()) / w : Infinity };
  });
  return keyed.sort((a, b) => a.key - b.key).map((k) => k.item);
}

/** Cheaper gets more: weight ∝ 1/price² (a free endpoint always leads). */
export const inverseSquarePrice = (price: number) => (price > 0 ? 1 / (price * price) : Infinity);
