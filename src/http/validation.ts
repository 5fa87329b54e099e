import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { SchemaErrorDataVar } from 'fastify/types/schema.js';
import type { GatewayError } from '../protocol/gateway-error.js';
import { Errors } from './errors.js';

function newAjv(coerceTypes: boolean): Ajv.default {
  // allErrors stays false: with it on, a crafted body can make validation slow.
  // strictNumbers refuses Infinity, which a JSON 1e309 parses as. Not with
  // coercion: there Ajv would let a coerced "1e309" through unchecked by
  // minimum/maximum, so numeric query parameters carry a maximum instead.
  const ajv = new Ajv.default({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
    strictNumbers: !coerceTypes,
  });
  addFormats.default(ajv);
  return ajv;
}

// JSON bodies are validated as sent: "5" is not a number. Query strings and
// headers are text on the wire, so their numbers and booleans are coerced.
const bodyAjv = newAjv(false);
const textAjv = newAjv(true);

/**
 * Compiles a route's schema on its first use, not when the route is registered: compiling every route's schemas took
 * most of a start's CPU (about 3 s), for routes a deployment may never be sent. Ajv caches by schema object, so a
 * schema shared by routes or instances is compiled once.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown): boolean => {
    compiled ??= ajv.compile(schema as object);
    const valid = compiled(data) as boolean;
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = null as ValidateFunction['errors'];
  return validate;
};

const ROOT_NAMES: Record<string, string> = { body: 'Request body', querystring: 'Query string', config: 'The config file' };

const PART_NAMES: Record<string, string> = {
  querystring: 'query parameter ',
  params: 'path parameter ',
  headers: 'header ',
  body: '',
};

/** `/messages/0/content` → `messages[0].content` */
function fieldPath(instancePath: string, extra?: string): string {
  const segments = instancePath.split('/').slice(1);
  if (extra !== undefined) segments.push(extra);
  return segments
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), '');
}

const list = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

function rule(error: ErrorObject, siblings: ErrorObject[]): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type':
      return `must be of type ${String(p.type).split(',').join(' or ')}`;
    case 'minLength':
      return `must be at least ${String(p.limit)} character${p.limit === 1 ? '' : 's'} long`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters long`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(p.comparison)} ${String(p.limit)}`;
    case 'minItems':
      return `must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} items`;
    case 'minProperties':
      return `must have at least ${String(p.limit)} entries`;
    case 'maxProperties':
      return `must have at most ${String(p.limit)} entries`;
    case 'enum':
      return `must be one of ${list(p.allowedValues as unknown[])}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'format':
      return `must be a valid ${String(p.format)}`;
    case 'pattern':
      return `must match the pattern ${String(p.pattern)}`;
    case 'additionalProperties':
      return `has an unknown property "${String(p.additionalProperty)}"`;
    case 'anyOf':
    case 'oneOf': {
      // A union of constants (an enum written as literals): name the allowed values.
      const allowed = siblings
        .filter((e) => e.instancePath === error.instancePath && (e.keyword === 'const' || e.keyword === 'enum' || e.keyword === 'type'))
        .flatMap((e) => {
          const sp = e.params as Record<string, unknown>;
          if (e.keyword === 'const') return [sp.allowedValue];
          if (e.keyword === 'enum') return sp.allowedValues as unknown[];
          return sp.type === 'null' ? [null] : [];
        });
      const onlyConstants = siblings.every(
        (e) =>
          e.instancePath !== error.instancePath ||
          ['const', 'enum', 'anyOf', 'oneOf'].includes(e.keyword) ||
          (e.keyword === 'type' && (e.params as { type: string }).type === 'null'),
      );
      if (allowed.length > 0 && onlyConstants) return `must be one of ${list(allowed)}`;
      return 'does not match any allowed shape';
    }
    default:
      return error.message ?? 'is invalid';
  }
}

/**
 * Turns Ajv's errors into one message that names the field and the rule, e.g.
 * `limit_reset must be one of "daily", "weekly", "monthly", null`.
 */
export function formatValidationErrors(errors: ErrorObject[], part: string): string {
  const primary = errors.find((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf') ?? errors[0];
  if (!primary) return 'Invalid request';
  const missing = primary.keyword === 'required' ? String((primary.params as { missingProperty: string }).missingProperty) : undefined;
  const extra = primary.keyword === 'additionalProperties' ? undefined : missing;
  const field = fieldPath(primary.instancePath, extra);
  const prefix = PART_NAMES[part] ?? '';
  if (!field) return `${ROOT_NAMES[part] ?? part} ${rule(primary, errors)}`;
  return `${prefix}${field} ${rule(primary, errors)}`;
}

export function schemaErrorFormatter(errors: FastifySchemaValidationError[], dataVar: SchemaErrorDataVar): GatewayError {
  return Errors.invalidRequest(formatValidationErrors(errors as ErrorObject[], dataVar));
}

const formValidators = new WeakMap<object, ValidateFunction>();

/**
 * A multipart form's text fields checked against a route's schema as a JSON
 * body is, their numbers and booleans read from their text ("2", "true"):
 * the fields as the schema's type, or a 400 naming the field and the rule.
 */
export function checkFormFields<T>(schema: object, fields: Record<string, unknown>): T {
  let validate = formValidators.get(schema);
  if (!validate) formValidators.set(schema, (validate = textAjv.compile(schema)));
  if (!validate(fields)) throw Errors.invalidRequest(formatValidationErrors(validate.errors ?? [], 'body'));
  return fields as T;
}
