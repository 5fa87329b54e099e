import { describe, expect, it } from 'vitest';
import { runChangeFor } from './run-change.js';

const now = new Date('2026-01-01T00:00:00.000Z');

describe('runChangeFor', () => {
  it('a manual question pauses the run with its pending question; self-drive does not pause', () => {
    const question = { kind: 'question', content: { id: 'q', question: 'why?' } } as const;
    expect(runChangeFor(question, 'manual', now)).toEqual({ status: 'awaiting_input', pending: '{"kind":"question","id":"q","question":"why?"}' });
    expect(runChangeFor(question, 'self-drive', now)).toEqual({});
  });

  it('an answer resumes; an end ends with its reason and frees the lease', () => {
    expect(runChangeFor({ kind: 'answer', content: { id: 'q', answer: 'a', by: 'user' } }, 'manual', now)).toEqual({ status: 'running', pending: null });
    expect(runChangeFor({ kind: 'end', content: { reason: 'deadline' } }, 'self-drive', now)).toEqual({
      status: 'ended', end_reason: 'deadline', error: null, ended_at: '2026-01-01T00:00:00.000Z', pending: null, claimed_by: null, claimed_until: null,
    });
  });

  it('other steps change nothing on the run', () => {
    expect(runChangeFor({ kind: 'steer', content: { text: 'x' } }, 'manual', now)).toEqual({});
  });
});
