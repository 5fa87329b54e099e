import { describe, expect, it } from 'vitest';
import { validatorCompiler } from './validation.js';

type Validate = ((data: unknown) => boolean) & { errors?: { keyword: string }[] | null };
const compile = (schema: object, httpPart = 'body') => validatorCompiler({ schema, httpPart, method: 'POST', url: '/x' }) as Validate;

describe('validatorCompiler', () => {
  // Compiling every route's schema at registration was most of a start's time: a schema is compiled when first used.
  it('compiles a route’s schema on its first request, not when the route is registered', () => {
    const unusable = { type: 'object', properties: { n: { type: 'no-such-type' } } };
    let validate: Validate | undefined;
    expect(() => (validate = compile(unusable))).not.toThrow();
    expect(() => validate!({ n: 1 })).toThrow(/schema is invalid/);
  });

  it('validates as Ajv does, with its errors where Fastify reads them, and coerces only text parts', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] };
    const body = compile(schema);
    expect(body({ n: 2 })).toBe(true);
    expect(body.errors).toBeNull();
    expect(body({ n: '2' })).toBe(false);
    expect(body.errors?.[0]?.keyword).toBe('type');
    expect(body({ n: 0 })).toBe(false);
    expect(body.errors?.[0]?.keyword).toBe('minimum');
    const query = { n: '2' };
    expect(compile(schema, 'querystring')(query)).toBe(true);
    expect(query).toEqual({ n: 2 });
  });
});
