import type { GeminiPartialArg } from './gemini-api-types.js';

/** An object or an array, indexed alike. */
type Container = Record<string | number, unknown>;

/** One step of a JSONPath such as `$.a.b[0]['c d']`: a property name or an array index. */
const PATH_STEP = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/gy;

/**
 * The arguments after Vertex AI's streamed pieces (`partialArgs`) are
 * applied to them (pure). Each piece holds a value at a JSONPath; a string
 * arrives in consecutive pieces to be joined, the others whole. A piece with
 * a path this cannot read is skipped rather than failing the stream.
 */
export function mergeGeminiPartialArgs(args: Record<string, unknown>, pieces: readonly GeminiPartialArg[]): Record<string, unknown> {
  const merged = structuredClone(args);
  for (const piece of pieces) {
    const steps = parsePath(piece.jsonPath ?? '');
    if (steps === undefined || steps.length === 0) continue;
    const value = pieceValue(piece);
    if (value === undefined) continue;

    let container: Container = merged;
    for (const [position, step] of steps.entries()) {
      const next = steps[position + 1];
      const existing = container[step];
      if (next === undefined) {
        container[step] = typeof value === 'string' && typeof existing === 'string' ? existing + value : value;
      } else {
        if (typeof existing !== 'object' || existing === null) container[step] = typeof next === 'number' ? [] : {};
        container = container[step] as Container;
      }
    }
  }
  return merged;
}

function parsePath(path: string): (string | number)[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const steps: (string | number)[] = [];
  PATH_STEP.lastIndex = 1;
  while (PATH_STEP.lastIndex < path.length) {
    const match = PATH_STEP.exec(path);
    if (!match) return undefined;
    const [, name, index, single, double] = match;
    steps.push(index !== undefined ? Number(index) : (name ?? single ?? double ?? ''));
  }
  return steps;
}

function pieceValue(piece: GeminiPartialArg): unknown {
  if (piece.stringValue !== undefined) return piece.stringValue;
  if (piece.numberValue !== undefined) return piece.numberValue;
  if (piece.boolValue !== undefined) return piece.boolValue;
  return 'nullValue' in piece ? null : undefined;
}
