import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

/**
 * The reference's OpenAPI document (test/reference/, see its README), read
 * once, and the response schemas of its operations compiled with Ajv: OpenAPI
 * 3.1 schemas are JSON Schema 2020-12. The whole document is one Ajv schema,
 * so every `$ref` (`#/components/schemas/…`) resolves inside it as written.
 */

const DOCUMENT_URL = new URL('../reference/openrouter-openapi.yaml', import.meta.url);
/** The document's id inside Ajv: its `$ref`s resolve against it. Never fetched. */
const DOCUMENT_ID = 'https://reference.invalid/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface MediaType {
  schema?: unknown;
}
interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}
type PathItem = Partial<Record<(typeof METHODS)[number], Operation>>;
interface Document {
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, unknown> };
}

/** One operation of the reference: `GET /models/{author}/{slug}/endpoints`. */
export interface ReferenceOperation {
  /** Upper case. */
  method: string;
  /** Relative to the API's prefix (`/api/v1`), parameters as the reference names them. */
  path: string;
  operationId: string;
}

/** `METHOD /path` with every path parameter written `{}`: two spellings of one route compare equal. */
export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;

/** The part of a Content-Type before its parameters, lower case. */
const mediaTypeOf = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/** Whether a received media type is one a response declares (`audio/*` covers `audio/wav`). */
export const mediaTypeMatches = (declared: string, received: string) => {
  const [type, subtype] = declared.toLowerCase().split('/');
  const [gotType, gotSubtype] = mediaTypeOf(received).split('/');
  return type === gotType && (subtype === '*' || subtype === gotSubtype);
};

/** JSON Pointer escaping of one reference token (RFC 6901). */
const pointerToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

export interface Reference {
  operations: ReferenceOperation[];
  /** The operation a method and path (any parameter names) stand for, if the reference has it. */
  find(method: string, path: string): ReferenceOperation | undefined;
  /** The media types the reference declares for one status of an operation ([] when it declares none). */
  mediaTypes(operation: ReferenceOperation, status: number): string[];
  /**
   * The compiled schema of one answer: an operation's response to `status` in
   * the declared media type that `contentType` matches. Throws when the
   * reference declares no such response: a status the reference never
   * answers is itself a mismatch.
   */
  responseSchema(operation: ReferenceOperation, status: number, contentType: string): ValidateFunction;
  /** A named schema of the reference's components (`ChatStreamChunk`). */
  component(name: string): ValidateFunction;
}

let loaded: Reference | undefined;

/** The reference, parsed and prepared on first use. */
export function reference(): Reference {
  return (loaded ??= load());
}

function load(): Reference {
  // Keys are not checked for duplicates: that check is quadratic in a map's size, and the document is as published.
  const document = parse(readFileSync(DOCUMENT_URL, 'utf8'), { uniqueKeys: false }) as Document;
  // strict: false, because the document carries OpenAPI's and its generator's keywords (example, discriminator,
  // x-speakeasy-…), which JSON Schema ignores; allErrors, so that a failure says everything that is wrong at once;
  // verbose, so that describeErrors can leave out the branches of a union that the answer's `type` did not choose.
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, validateSchema: false });
  addFormats.default(ajv);
  // OpenAPI's numeric formats, checked as its Data Types say; the media formats some strings declare (wav, mp4…)
  // describe what they carry, not a syntax, so any string passes.
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  for (const media of ['wav', 'mp3', 'mp4', 'pdf', 'anthropic-claude-v1']) ajv.addFormat(media, true);
  ajv.addSchema({ ...(asMeant(document) as Document), $id: DOCUMENT_ID });

  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      method: method.toUpperCase(),
      path,
      operationId: item[method]!.operationId ?? `${method} ${path}`,
    })),
  );
  const byKey = new Map(operations.map((operation) => [operationKey(operation.method, operation.path), operation]));
  const definition = (operation: ReferenceOperation) => document.paths[operation.path]![operation.method.toLowerCase() as 'get']!;
  const compiled = new Map<string, ValidateFunction>();
  const compile = (pointer: string) => {
    let validate = compiled.get(pointer);
    if (!validate) compiled.set(pointer, (validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` })));
    return validate;
  };

  return {
    operations,
    find: (method, path) => byKey.get(operationKey(method, path)),
    mediaTypes: (operation, status) => Object.keys(definition(operation).responses?.[String(status)]?.content ?? {}),
    responseSchema(operation, status, contentType) {
      const content = definition(operation).responses?.[String(status)]?.content;
      const name = `${operation.method} ${operation.path}`;
      if (!content) throw new Error(`the reference declares no ${status} answer with a body for ${name}`);
      const declared = Object.keys(content).find((type) => mediaTypeMatches(type, contentType));
      if (!declared || content[declared]!.schema === undefined)
        throw new Error(
          `the reference declares no ${contentType} schema for ${status} of ${name} (it has ${Object.keys(content).join(', ')})`,
        );
      const path = ['paths', operation.path, operation.method.toLowerCase(), 'responses', String(status), 'content', declared, 'schema'];
      return compile(`/${path.map(pointerToken).join('/')}`);
    },
    component(name) {
      if (!(name in document.components.schemas)) throw new Error(`the reference has no schema ${name}`);
      return compile(`/components/schemas/${pointerToken(name)}`);
    },
  };
}

/**
 * The document's schemas as it means them, where a keyword of another dialect says so:
 * - OpenAPI 3.0's `nullable: true`, left beside a few `$ref`s and types: 3.1 has no such keyword (null is a `type`),
 *   but the document means "or null" by it (its own examples answer null there), so it is read as 3.0 did, `anyOf`
 *   the schema or null (Ajv refuses it beside a `$ref`: "nullable" cannot be used without "type");
 * - `x-speakeasy-unknown-values: allow` beside an `enum`: an open enum (its generated SDKs accept other values, as
 *   ProviderName's list of OpenRouter's providers is open to this gateway's own), so any value of its `type`.
 */
function asMeant(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asMeant);
  if (node === null || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  // A property named nullable (in a `properties` map) is an object, not the keyword.
  if (nullable !== undefined && typeof nullable !== 'boolean') rest.nullable = nullable;
  if (rest['x-speakeasy-unknown-values'] === 'allow') delete rest.enum;
  const schema = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, asMeant(value)]));
  return nullable === true ? { anyOf: [schema, { type: 'null' }] } : schema;
}

type Failure = NonNullable<ValidateFunction['errors']>[number];

/** The values a schema allows its `type` property (the discriminator of the reference's unions), if it says. */
function kindsOf(schema: unknown): unknown[] | undefined {
  const type = (schema as { properties?: { type?: { const?: unknown; enum?: unknown[] } } } | undefined)?.properties?.type;
  if (!type) return undefined;
  return 'const' in type ? [type.const] : type.enum;
}

/**
 * Whether an error comes from a branch of a union meant for another kind of object: a required or unknown property
 * of a schema whose `type` does not allow the object's, or that `type` itself refused. Only for telling the reader
 * what is wrong; the validation is Ajv's, whole.
 */
function fromAnotherBranch(error: Failure): boolean {
  if (error.keyword === 'const' || error.keyword === 'enum') return error.instancePath.endsWith('/type');
  const kinds = kindsOf(error.parentSchema);
  const kind = (error.data as { type?: unknown } | null | undefined)?.type;
  return kinds !== undefined && typeof kind === 'string' && !kinds.includes(kind);
}

/**
 * Ajv's errors, one a line (the same error of several branches of a union once), each with the place in the answer
 * it concerns; those of union branches for another kind of object left out when others remain.
 */
export function describeErrors(validate: ValidateFunction, limit = 20): string {
  const errors = validate.errors ?? [];
  const chosen = errors.filter((error) => !fromAnotherBranch(error));
  const shown = chosen.length > 0 ? chosen : errors;
  const lines = [...new Set(shown.map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`))];
  return [...lines.slice(0, limit), ...(lines.length > limit ? [`… and ${lines.length - limit} more`] : [])].join('\n');
}
