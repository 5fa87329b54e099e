import { isRecord } from '../../util/is-record.js';

/** The string formats Anthropic's structured outputs constrain; others are hints in the description. */
const STRING_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

/** Keywords that only describe a schema and constrain nothing: kept where Anthropic takes them, dropped elsewhere. */
const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', 'default', 'examples']);

type Schema = Record<string, unknown>;

/**
 * A JSON Schema as Anthropic's structured outputs take it (pure). Anthropic
 * constrains decoding to a subset of JSON Schema and refuses a schema with
 * anything else (numeric bounds, string lengths and patterns beyond its
 * subset, minItems above 1, additionalProperties other than false), where
 * OpenAI-style clients (and zod's conversions) write such keywords freely.
 * So, as Anthropic's own SDKs do before sending: the constraints it
 * enforces stay (type, properties, required, items, minItems 0 or 1,
 * enum and const of scalars, anyOf, oneOf as anyOf, allOf, local $ref and
 * $defs, the string formats it knows); every object is closed
 * (`additionalProperties: false`); the rest is written into the
 * description, where the model still reads it.
 */
export function convertToAnthropicOutputSchema(schema: unknown): Schema {
  if (!isRecord(schema)) return { type: 'object', properties: {}, additionalProperties: false };
  return convertNode(schema);
}

function convertNode(node: Schema): Schema {
  const rest: Schema = { ...node };
  const take = (key: string): unknown => {
    const value = rest[key];
    delete rest[key];
    return value;
  };
  const out: Schema = {};

  for (const key of ['$defs', 'definitions']) {
    const defs = take(key);
    if (isRecord(defs)) out[key] = Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, convertChild(def)]));
  }
  const ref = take('$ref');
  if (typeof ref === 'string') return { ...out, $ref: ref };

  const enumValues = take('enum');
  if (Array.isArray(enumValues) && enumValues.length > 0 && enumValues.every(isScalar)) out.enum = enumValues;
  else if (enumValues !== undefined) rest.enum = enumValues;
  const constant = take('const');
  if (constant !== undefined && isScalar(constant)) out.const = constant;
  else if (constant !== undefined) rest.const = constant;

  const anyOf = take('anyOf');
  const oneOf = take('oneOf');
  const allOf = take('allOf');
  const branches = Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : undefined;
  if (branches) out.anyOf = branches.map(convertChild);
  if (Array.isArray(allOf)) out.allOf = allOf.map(convertChild);

  const type = take('type') ?? (isRecord(rest.properties) ? 'object' : undefined);
  if (type !== undefined && out.enum === undefined && out.const === undefined) out.type = type;
  const types = Array.isArray(type) ? type : [type];

  if (types.includes('object')) {
    const properties = take('properties');
    out.properties = isRecord(properties)
      ? Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, convertChild(property)]))
      : {};
    const required = take('required');
    if (Array.isArray(required)) out.required = required;
    take('additionalProperties');
    out.additionalProperties = false;
  }
  if (types.includes('array')) {
    const items = take('items');
    if (items !== undefined) out.items = convertChild(items);
    const minItems = take('minItems');
    if (minItems === 0 || minItems === 1) out.minItems = minItems;
    else if (minItems !== undefined) rest.minItems = minItems;
  }
  if (types.includes('string')) {
    const format = take('format');
    if (typeof format === 'string' && STRING_FORMATS.has(format)) out.format = format;
    else if (format !== undefined) rest.format = format;
  }

  const title = take('title');
  if (typeof title === 'string') out.title = title;
  const description = take('description');
  for (const key of ANNOTATIONS) delete rest[key];
  const hints = Object.entries(rest).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  const text = [typeof description === 'string' ? description : undefined, hints.length > 0 ? `{${hints.join(', ')}}` : undefined]
    .filter((part) => part !== undefined)
    .join('\n\n');
  if (text) out.description = text;
  return out;
}

/** A subschema: a boolean schema (true, false) has no keywords to keep and goes as it is. */
const convertChild = (node: unknown): unknown => (isRecord(node) ? convertNode(node) : node);

const isScalar = (value: unknown) => value === null || typeof value !== 'object';
