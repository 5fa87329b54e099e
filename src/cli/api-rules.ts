import type { ValidateFunction } from 'ajv';
import { InvalidArgumentError } from 'commander';
import type { Static, TSchema } from 'typebox';
import { formatValidationErrors, validatorCompiler } from '../http/validation.js';

/**
 * What a command was given, checked against the schema the API checks the
 * same fields with and refused with the API's message (`limit must be >= 0`).
 * A `body` is checked as JSON is (a number must be one); `querystring` values
 * are text, coerced as the API coerces a query string's.
 */
export function checkAsApi<T extends TSchema>(schema: T, value: Record<string, unknown>, part: 'body' | 'querystring'): Static<T> {
  const validate = validatorCompiler({ schema, httpPart: part, method: 'GET', url: '' }) as ValidateFunction;
  if (!validate(value)) throw new InvalidArgumentError(formatValidationErrors(validate.errors ?? [], 'body'));
  return value as Static<T>;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * An option's text as the JSON value the API would be sent: `none` is null
 * (no limit, no reset), a number is a number; anything else stays text, for
 * the schema to refuse with the API's message.
 */
export function jsonOption(text: string): string | number | null {
  if (text === 'none') return null;
  return JSON_NUMBER.test(text) ? Number(text) : text;
}
