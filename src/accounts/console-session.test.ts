import { describe, expect, it } from 'vitest';
import {
  csrfTokenFor,
  csrfTokenMatches,
  hashSessionId,
  newSessionId,
  SESSION_IDLE_MS,
  sameOrigin,
  sessionEnded,
  sessionEndsAt,
} from './console-session.js';

describe('console sessions', () => {
  it('draws ids that differ, and stores only their hash', () => {
    const a = newSessionId();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSessionId()).not.toBe(a);
    expect(hashSessionId(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSessionId(a)).not.toContain(a);
  });

  it('binds the CSRF token to its session', () => {
    const id = newSessionId();
    const token = csrfTokenFor(id);
    expect(csrfTokenMatches(id, token)).toBe(true);
    expect(csrfTokenMatches(newSessionId(), token)).toBe(false);
    expect(csrfTokenMatches(id, undefined)).toBe(false);
    expect(csrfTokenMatches(id, `${token}x`)).toBe(false);
    expect(csrfTokenMatches(id, '')).toBe(false);
  });

  it('ends a session idle too long or past its end', () => {
    const session = { last_seen_at: '2026-11-21T00:00:00.000Z', expires_at: '2026-11-25T00:00:00.000Z' };
    const idleEnd = Date.parse(session.last_seen_at) + SESSION_IDLE_MS;
    expect(sessionEnded(session, new Date(idleEnd - 1))).toBe(false);
    expect(sessionEnded(session, new Date(idleEnd))).toBe(true);
    expect(sessionEndsAt(session)).toBe(new Date(idleEnd).toISOString());
    const ending = { last_seen_at: '2026-11-24T23:00:00.000Z', expires_at: '2026-11-25T00:00:00.000Z' };
    expect(sessionEnded(ending, new Date('2026-11-25T00:00:00.000Z'))).toBe(true);
    expect(sessionEndsAt(ending)).toBe(ending.expires_at);
  });

  it('accepts only the gateway’s own origin', () => {
    expect(sameOrigin('http://127.0.0.1:8080', 'http', '127.0.0.1:8080')).toBe(true);
    expect(sameOrigin('https://gw.example', 'https', 'gw.example')).toBe(true);
    expect(sameOrigin('https://gw.example:443', 'https', 'gw.example')).toBe(true);
    expect(sameOrigin('http://gw.example', 'https', 'gw.example')).toBe(false);
    expect(sameOrigin('https://evil.example', 'https', 'gw.example')).toBe(false);
    expect(sameOrigin('null', 'https', 'gw.example')).toBe(false);
    expect(sameOrigin(undefined, 'https', 'gw.example')).toBe(false);
  });
});
