import { isRecord } from '../../util/is-record.js';

const EFFORTS: unknown[] = ['low', 'medium', 'high', 'xhigh', 'max'];

/** Keywords outside the subset of JSON Schema that Anthropic's structured outputs constrain decoding to. */
const REFUSED_KEYWORDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'minProperties',
  'maxProperties',
  'patternProperties',
];

/**
 * Anthropic's checks of `output_config` (effort, and structured outputs'
 * format), in its `field: message` wording; the first failure's message, or
 * undefined when it passes. Claude 3 models (a name with `claude-3`) take no
 * structured outputs, as at Anthropic.
 */
export function outputConfigError(config: unknown, model: string): string | undefined {
  if (config === undefined) return undefined;
  if (!isRecord(config)) return 'output_config: Input should be a valid dictionary';
  if (config.effort != null && !EFFORTS.includes(config.effort))
    return "output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'";
  const format = config.format;
  if (format == null) return undefined;
  if (!isRecord(format)) return 'output_config.format: Input should be a valid dictionary';
  if (format.type !== 'json_schema') return "output_config.format.type: Input should be 'json_schema'";
  if (format.schema === undefined) return 'output_config.format.schema: Field required';
  if (!isRecord(format.schema)) return 'output_config.format.schema: Input should be a valid dictionary';
  if (model.includes('claude-3')) return `output_config.format: structured outputs are not supported by the model ${model}`;
  const refused = refusedPart(format.schema, 'schema');
  return refused ? `output_config.format.${refused}` : undefined;
}

/** Where the schema leaves Anthropic's subset, and how: `<path>: <rule>`. */
function refusedPart(node: Record<string, unknown>, path: string): string | undefined {
  const keyword = REFUSED_KEYWORDS.find((key) => key in node);
  if (keyword) return `${path}: the '${keyword}' keyword is not supported`;
  if (typeof node.minItems === 'number' && node.minItems > 1) return `${path}: minItems values other than 0 or 1 are not supported`;
  if ('additionalProperties' in node && node.additionalProperties !== false)
    return `${path}: additionalProperties must be false for object types`;
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) return `${path}: external $ref is not supported`;
  for (const [key, child] of children(node)) {
    const refused = refusedPart(child, `${path}.${key}`);
    if (refused) return refused;
  }
  return undefined;
}

/** The subschemas of a node, by the path they sit at. */
function children(node: Record<string, unknown>): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [];
  for (const key of ['properties', '$defs', 'definitions']) {
    const map = node[key];
    if (isRecord(map)) for (const [name, child] of Object.entries(map)) if (isRecord(child)) out.push([`${key}.${name}`, child]);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    for (const [i, child] of list.entries()) if (isRecord(child)) out.push([`${key}.${i}`, child]);
  }
  if (isRecord(node.items)) out.push(['items', node.items]);
  return out;
}
