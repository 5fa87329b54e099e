import Ajv, { type ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';
import { compileLinearPattern } from '../guardrails/linear-pattern.js';

/**
 * Ajv's `pattern` keyword through RE2JS: the schema is the client's, so its
 * patterns must not be able to backtrack catastrophically on model output.
 */
const linearRegExp = Object.assign(
  (pattern: string) => {
    const compiled = compileLinearPattern(pattern);
    if (!compiled.ok) throw new Error(`pattern ${JSON.stringify(pattern)}: ${compiled.reason}`);
    return { test: (text: string) => compiled.pattern.matcher(text).find() };
  },
  { code: 're2js' },
);

const ajv = new Ajv.default({ strict: false, allErrors: false, code: { regExp: linearRegExp } });

/** Compiled validators by schema text: a client sends the same schema request after request. */
const validators = new LRUCache<string, ValidateFunction | Error>({ max: 500 });

export type SchemaCheck = { ok: true } | { ok: false; errors: string[] } | { ok: false; unusable: string };

/** Whether a value satisfies a response_format JSON Schema; a schema Ajv cannot compile is reported as unusable. */
export function checkAgainstSchema(schema: Record<string, unknown>, value: unknown): SchemaCheck {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (validate === undefined) {
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      validate = error instanceof Error ? error : new Error(String(error));
    }
    validators.set(key, validate);
  }
  if (validate instanceof Error) return { ok: false, unusable: validate.message };
  if (validate(value)) return { ok: true };
  return { ok: false, errors: (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`) };
}
