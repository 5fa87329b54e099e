import type { ErrorObject } from 'ajv';
import type { TSchema } from 'typebox';
import { formatValidationErrors, validatorCompiler } from '../../http/validation.js';
import { ChatRequestBody } from './schemas.js';

/*
 * Test support shared by the schema tests (not a test file itself): validates
 * as the route does, with the shared body (or header) Ajv of src/http.
 */

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The 400 message the gateway would send for this value, or null when it passes. */
export function validationMessage(schema: TSchema, value: unknown, part: 'body' | 'headers' = 'body'): string | null {
  const validate = validatorCompiler({ schema, httpPart: part, method: 'POST', url: '/api/v1/chat/completions' }) as Validate;
  return validate(value) ? null : formatValidationErrors(validate.errors ?? [], part);
}

/** A valid chat body with the given fields added or replaced. */
export const chatBody = (fields: Record<string, unknown>) => ({
  model: 'openai/gpt-4o',
  messages: [{ role: 'user', content: 'Hello' }],
  ...fields,
});

/** The message for a chat body with these fields, or null when it passes. */
export const chatBodyMessage = (fields: Record<string, unknown>) => validationMessage(ChatRequestBody, chatBody(fields));
