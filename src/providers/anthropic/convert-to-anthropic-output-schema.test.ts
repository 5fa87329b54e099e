import { describe, expect, it } from 'vitest';
import { convertToAnthropicOutputSchema } from './convert-to-anthropic-output-schema.js';

describe('convertToAnthropicOutputSchema', () => {
  it('keeps what Anthropic constrains and closes every object', () => {
    const schema = {
      type: 'object',
      title: 'Person',
      properties: {
        name: { type: 'string', description: 'Full name', format: 'email' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 },
        kind: { const: 'person' },
        address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: true },
        either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        one: { oneOf: [{ type: 'integer' }, { type: 'boolean' }] },
        friend: { $ref: '#/$defs/Friend' },
      },
      required: ['name', 'tags'],
      $defs: { Friend: { type: 'object', properties: { name: { type: 'string' } } } },
    };
    expect(convertToAnthropicOutputSchema(schema)).toStrictEqual({
      $defs: { Friend: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false } },
      type: 'object',
      properties: {
        name: { type: 'string', format: 'email', description: 'Full name' },
        tags: { type: 'array', items: { enum: ['a', 'b'] }, minItems: 1 },
        kind: { const: 'person' },
        address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
        either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        one: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
        friend: { $ref: '#/$defs/Friend' },
      },
      required: ['name', 'tags'],
      additionalProperties: false,
      title: 'Person',
    });
  });

  it('writes the constraints Anthropic refuses into the description, where the model still reads them', () => {
    const converted = convertToAnthropicOutputSchema({
      type: 'object',
      properties: {
        age: { type: 'integer', minimum: 0, maximum: 150, description: 'Years' },
        code: { type: 'string', minLength: 2, maxLength: 8, format: 'iso-3166' },
        list: { type: 'array', items: { type: 'number', multipleOf: 0.5 }, minItems: 3, maxItems: 5 },
      },
      required: ['age'],
    });
    expect(converted.properties).toStrictEqual({
      age: { type: 'integer', description: 'Years\n\n{minimum: 0, maximum: 150}' },
      code: { type: 'string', description: '{minLength: 2, maxLength: 8, format: "iso-3166"}' },
      list: {
        type: 'array',
        items: { type: 'number', description: '{multipleOf: 0.5}' },
        description: '{maxItems: 5, minItems: 3}',
      },
    });
  });

  it('takes a type list, drops bare annotations, and answers an open object for a schema that is not one', () => {
    expect(
      convertToAnthropicOutputSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: ['object', 'null'], default: {} }),
    ).toStrictEqual({ type: ['object', 'null'], properties: {}, additionalProperties: false });
    expect(convertToAnthropicOutputSchema(undefined)).toStrictEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('leaves the client its schema untouched', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } } };
    convertToAnthropicOutputSchema(schema);
    expect(schema).toStrictEqual({ type: 'object', properties: { n: { type: 'integer', minimum: 1 } } });
  });
});
