import { distance } from 'fastest-levenshtein';
import { Errors } from '../http/errors.js';
import type { GatewayError } from '../protocol/gateway-error.js';
import type { Catalog } from './types.js';

/** Longer than any model id: such a text is no slip of one, and is not compared. */
const LONGEST_ASKED = 200;

/**
 * The catalogue's id nearest to `asked` (ignoring case) when it is near
 * enough to be a slip of the keyboard (two edits, or one in five
 * characters of a long id), else undefined.
 */
export function closestModel(asked: string, ids: Iterable<string>): string | undefined {
  if (asked.length > LONGEST_ASKED) return undefined;
  const wanted = asked.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const id of ids) {
    const d = distance(wanted, id.toLowerCase());
    if (d < bestDistance) {
      best = id;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(asked.length / 5)) ? best : undefined;
}

/** The 404 of a model the catalogue does not have, suggesting the id it is closest to when one is near. */
export function unknownModel(catalog: Pick<Catalog, 'listModels'>, asked: string): GatewayError {
  return Errors.modelNotFound(
    asked,
    closestModel(
      asked,
      catalog.listModels().map((m) => m.id),
    ),
  );
}
