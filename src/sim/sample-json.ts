/**
 * A small deterministic value that fits a JSON Schema: what the simulator puts
 * in structured outputs (json_schema) and in tool-call arguments. It follows
 * `const`, `enum`, `type`, object `properties` (all of them, required or not),
 * `items`, `anyOf`/`oneOf` (first branch) and local `$ref`s; anything else is a
 * string. Depth is capped so recursive schemas stay finite.
 */
type Schema = Record<string, unknown>;

const MAX_DEPTH = 6;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

export function sampleJson(schema: unknown, root: unknown = schema, depth = 0): unknown {
  if (!isSchema(schema) || depth > MAX_DEPTH) return 'sim';
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (typeof schema.$ref === 'string') return sampleJson(resolveLocalRef(root, schema.$ref), root, depth + 1);
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches) && branches.length > 0) return sampleJson(branches[0], root, depth + 1);

  const type = (Array.isArray(schema.type) ? schema.type[0] : schema.type) ?? (isSchema(schema.properties) ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      return Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, sampleJson(sub, root, depth + 1)]));
    }
    case 'array':
      return [sampleJson(schema.items, root, depth + 1)];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'sim';
  }
}

/** `#/$defs/Name`-style pointers into the root schema. */
function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (isSchema(node) ? node[key.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined), root);
}
