import { describe, expect, it } from 'vitest';
import { newFacts, RequestsInFlight } from './request-facts.js';

describe('RequestsInFlight', () => {
  it('finds a request by its id until it ends', () => {
    const inFlight = new RequestsInFlight();
    const facts = newFacts(0);
    inFlight.add('req-1', facts);
    expect(inFlight.get('req-1')).toBe(facts);
    inFlight.delete('req-1');
    expect(inFlight.get('req-1')).toBeUndefined();
    expect(inFlight.size).toBe(0);
  });

  it('gives no request the figures of an id two requests in flight share, until both ended', () => {
    const inFlight = new RequestsInFlight();
    inFlight.add('dup', newFacts(0));
    inFlight.add('dup', newFacts(1));
    expect(inFlight.get('dup')).toBeUndefined();
    inFlight.delete('dup');
    expect(inFlight.get('dup')).toBeUndefined();
    inFlight.delete('dup');
    expect(inFlight.size).toBe(0);
    const later = newFacts(2);
    inFlight.add('dup', later);
    expect(inFlight.get('dup')).toBe(later);
  });
});
