import { Errors } from '../http/errors.js';

/** RFC 7644 §3.12's scimType of a 400. */
export type ScimType = 'invalidFilter' | 'invalidValue' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'mutability' | 'tooMany';

export const scimInvalid = (scimType: ScimType, detail: string) => Errors.scimInvalid({ scimType }, detail);

/** Longest text attribute kept (userName, displayName, names, e-mail, externalId). */
export const MAX_TEXT = 256;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A text attribute: a string of 1 to MAX_TEXT characters, or null/absent when `nullable`. */
export function text(value: unknown, field: string, nullable: true): string | null;
export function text(value: unknown, field: string, nullable: false): string;
export function text(value: unknown, field: string, nullable: boolean): string | null {
  if ((value === undefined || value === null) && nullable) return null;
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_TEXT)
    throw scimInvalid('invalidValue', `${field} must be a string of 1 to ${MAX_TEXT} characters`);
  return value;
}

/** A boolean; Microsoft Entra ID sends "True"/"False" as strings in PATCH values, so those count too. */
export function bool(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw scimInvalid('invalidValue', `${field} must be a boolean`);
}

/** A PATCH operation's `op`, regardless of case (Entra sends "Replace", "Add"). */
export function patchOp(value: unknown, index: number): 'add' | 'replace' | 'remove' {
  const op = typeof value === 'string' ? value.toLowerCase() : '';
  if (op === 'add' || op === 'replace' || op === 'remove') return op;
  throw scimInvalid('invalidSyntax', `Operations[${index}].op must be add, replace or remove`);
}

/** The `Operations` of a PatchOp body (RFC 7644 §3.5.2), at most `max`. */
export function patchOperations(
  body: unknown,
  max: number,
): { op: 'add' | 'replace' | 'remove'; path: string | undefined; value: unknown }[] {
  const operations = isRecord(body) ? body.Operations : undefined;
  if (!Array.isArray(operations) || operations.length === 0)
    throw scimInvalid('invalidSyntax', 'Operations must be a non-empty array of PATCH operations');
  if (operations.length > max) throw scimInvalid('tooMany', `Operations holds more than ${max} operations`);
  return operations.map((operation, index) => {
    if (!isRecord(operation)) throw scimInvalid('invalidSyntax', `Operations[${index}] must be an object`);
    const path = operation.path;
    if (path !== undefined && path !== null && typeof path !== 'string')
      throw scimInvalid('invalidPath', `Operations[${index}].path must be a string`);
    return {
      op: patchOp(operation.op, index),
      path: typeof path === 'string' && path.trim() !== '' ? path.trim() : undefined,
      value: operation.value,
    };
  });
}
