import { describe, expect, it } from 'vitest';
import { checkJsonBody } from './json-body.js';

const nest = (depth: number, open = '[', close = ']') => JSON.parse(`${open.repeat(depth)}${close.repeat(depth)}`) as unknown;

describe('checkJsonBody', () => {
  it('takes nesting up to the limit, the body itself being level 1', () => {
    expect(checkJsonBody(nest(64), 64)).toBeUndefined();
    expect(checkJsonBody({ a: [{ b: nest(61) }] }, 64)).toBeUndefined();
  });

  it('refuses one level more, naming where', () => {
    expect(checkJsonBody(nest(65), 64)?.message).toBe(
      '[0][0][0][0][0][0][0][0]… nests objects and arrays deeper than 64 levels, the limit of a JSON body',
    );
    expect(
      checkJsonBody({ tools: [{ function: { parameters: JSON.parse(`${'{"p":'.repeat(70)}1${'}'.repeat(70)}`) } }] }, 64)?.message,
    ).toBe('tools[0].function.parameters.p.p.p.p… nests objects and arrays deeper than 64 levels, the limit of a JSON body');
    expect(checkJsonBody({ a: {} }, 1)?.message).toBe('a nests objects and arrays deeper than 1 levels, the limit of a JSON body');
  });

  it('walks a million levels without overflowing the stack', () => {
    expect(checkJsonBody(nest(1_000_000), 64)?.statusCode).toBe(400);
  });

  it('cuts long keys in the field it names', () => {
    const key = 'k'.repeat(100);
    expect(checkJsonBody({ [key]: {} }, 1)?.message).toBe(
      `${'k'.repeat(40)}… nests objects and arrays deeper than 1 levels, the limit of a JSON body`,
    );
  });

  it('refuses a __proto__ key at any level, however it was escaped', () => {
    expect(checkJsonBody(JSON.parse('{"a":[{"__proto__":{"admin":true}}]}'), 64)?.message).toMatch(
      /^a\[0\]\.__proto__: a "__proto__" key is refused, because/,
    );
    expect(checkJsonBody(JSON.parse('{"\\u005f_proto__":{}}'), 64)?.message).toMatch(/^__proto__: a "__proto__" key is refused/);
  });

  it('refuses a constructor key holding a prototype, and takes any other constructor key', () => {
    expect(checkJsonBody(JSON.parse('{"x":{"constructor":{"prototype":{}}}}'), 64)?.message).toMatch(
      /^x\.constructor: a "constructor" key holding a "prototype" is refused/,
    );
    expect(checkJsonBody(JSON.parse('{"constructor":"a name","properties":{"constructor":{"type":"string"}}}'), 64)).toBeUndefined();
  });

  it('takes values that are not objects', () => {
    for (const value of [null, 1, 'text', true]) expect(checkJsonBody(value, 1)).toBeUndefined();
  });
});
