import type { FastifyInstance } from 'fastify';
import type { GatewayError } from '../protocol/gateway-error.js';
import { Errors } from './errors.js';

type Key = string | number;

/** Where a parsed body breaks a rule: the path from the body down to the offending place, and which rule. */
interface Breach {
  rule: 'depth' | '__proto__' | 'constructor';
  /** Innermost key first: built on the way back up, reversed once. */
  reversedPath: Key[];
}

/**
 * The first place a parsed JSON value nests objects and arrays deeper than
 * maxDepth (the value itself is level 1) or carries a key that could poison
 * a prototype: an own `__proto__`, or a `constructor` holding a `prototype`
 * (Fastify's onProtoPoisoning and onConstructorPoisoning rules). One walk,
 * no copy; the recursion stops at maxDepth, so no body can overflow the stack.
 */
function breachOf(value: object, depth: number, maxDepth: number): Breach | undefined {
  if (depth > maxDepth) return { rule: 'depth', reversedPath: [] };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'object' || item === null) continue;
      const found = breachOf(item, depth + 1, maxDepth);
      if (found) {
        found.reversedPath.push(i);
        return found;
      }
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, '__proto__')) return { rule: '__proto__', reversedPath: ['__proto__'] };
  const ctor = Object.hasOwn(record, 'constructor') ? record.constructor : undefined;
  if (typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype'))
    return { rule: 'constructor', reversedPath: ['constructor'] };
  for (const key in record) {
    const item = record[key];
    if (typeof item !== 'object' || item === null) continue;
    const found = breachOf(item, depth + 1, maxDepth);
    if (found) {
      found.reversedPath.push(key);
      return found;
    }
  }
  return undefined;
}

/** Path segments shown in a message: the first few, each cut short, as `tools[0].function.parameters…`. */
const SHOWN_SEGMENTS = 8;
const SHOWN_KEY_LENGTH = 40;

function fieldName(path: readonly Key[]): string {
  let name = '';
  for (const key of path.slice(0, SHOWN_SEGMENTS)) {
    if (typeof key === 'number') name += `[${key}]`;
    else name += `${name ? '.' : ''}${key.length > SHOWN_KEY_LENGTH ? `${key.slice(0, SHOWN_KEY_LENGTH)}…` : key}`;
  }
  return path.length > SHOWN_SEGMENTS ? `${name}…` : name;
}

/** The 400 a parsed body earns, or undefined when it keeps the gateway's JSON rules. */
export function checkJsonBody(value: unknown, maxDepth: number): GatewayError | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const breach = breachOf(value, 1, maxDepth);
  if (!breach) return undefined;
  const path = breach.reversedPath.reverse();
  if (breach.rule === 'depth') return Errors.jsonTooDeep(path.length > 0 ? fieldName(path) : 'Request body', maxDepth);
  return Errors.prototypeKey(fieldName(path), breach.rule);
}

/**
 * Replaces Fastify's JSON parser (secure-json-parse) with one that also
 * bounds nesting, in the same walk that looks for prototype-poisoning keys,
 * and says which rule a body broke: Fastify's answers every refusal with
 * "invalid JSON". JSON.parse itself does not recurse, so any depth parses;
 * the walk is what the gateway's own recursive code (validation, translation,
 * serialization) is then safe from. Fastify's text/plain parser goes: no
 * route takes text. SCIM's routes add the parser for application/scim+json.
 */
export function installJsonBodyParser(app: FastifyInstance, maxDepth: number, contentType = 'application/json'): void {
  // The API takes JSON (and multipart where a route says so): a text/plain body is a 415, not a string its schema refuses.
  if (contentType === 'application/json') app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(contentType, { parseAs: 'string' }, (_request, text, done) => {
    const body = text as string;
    if (body.length === 0) return done(Errors.malformedJson('the body is empty'), undefined);
    let value: unknown;
    try {
      // A byte-order mark is not JSON, but clients send one; Fastify's parser skipped it too.
      value = JSON.parse(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body);
    } catch {
      return done(Errors.malformedJson('the body is not valid JSON'), undefined);
    }
    const refused = checkJsonBody(value, maxDepth);
    if (refused) return done(refused, undefined);
    done(null, value);
  });
}
