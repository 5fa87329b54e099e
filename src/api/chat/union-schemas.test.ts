import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { validationMessage } from './chat-body-validation.testing.js';
import { DiscriminatedUnion, TypeUnion } from './union-schemas.js';

describe('TypeUnion', () => {
  const schema = Type.Object({ value: TypeUnion([Type.String({ minLength: 2 }), Type.Integer({ minimum: 0 })]) });

  it.each(['ab', 0, 7])('accepts %j', (value) => {
    expect(validationMessage(schema, { value })).toBeNull();
  });

  it.each([
    ['a', 'value must be at least 2 characters long'],
    [-1, 'value must be >= 0'],
    [true, 'value must be of type string or integer'],
  ])('names the rule a %j breaks', (value, message) => {
    expect(validationMessage(schema, { value })).toBe(message);
  });

  it('refuses two schemas of one type, which an if on type cannot tell apart', () => {
    expect(() => TypeUnion([Type.String(), Type.String({ minLength: 1 })])).toThrow('TypeUnion() needs distinct types, got string, string');
  });

  it('refuses a schema without a single type', () => {
    expect(() => TypeUnion([Type.Unknown()])).toThrow('TypeUnion() needs schemas with a single type each');
  });
});

describe('DiscriminatedUnion', () => {
  const schema = DiscriminatedUnion('kind', [
    Type.Object({ kind: Type.Literal('circle'), radius: Type.Number() }),
    Type.Object({ kind: Type.Literal('square'), side: Type.Number() }),
  ]);

  it.each([
    { kind: 'circle', radius: 1 },
    { kind: 'square', side: 2 },
  ])('accepts %j', (value) => {
    expect(validationMessage(schema, value)).toBeNull();
  });

  it.each([
    [{}, 'kind is required'],
    [{ kind: 'triangle' }, 'kind must be one of "circle", "square"'],
    [{ kind: 'circle', side: 2 }, 'radius is required'],
    [{ kind: 'square', side: '2' }, 'side must be of type number'],
  ])('checks %j against its own variant only', (value, message) => {
    expect(validationMessage(schema, value)).toBe(message);
  });

  it('refuses a variant without a literal discriminator', () => {
    expect(() => DiscriminatedUnion('kind', [Type.Object({ kind: Type.String() })])).toThrow(
      'DiscriminatedUnion() variant lacks a literal "kind"',
    );
  });
});
