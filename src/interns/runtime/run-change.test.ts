import { describe, expect, it } from 'vitest';
import { runChangeFor } from './run-change.js';

const now = new Date('2026-01-01T00:00:00.000Z');
const manual = { mode: 'manual', interactionDeadlineSeconds: 300 } as const;
const selfDrive = { mode: 'self-drive', interactionDeadlineSeconds: 300 } as const;

describe('runChangeFor', () => {
  it('a manual question pauses the run with its pending question until its interaction deadline; self-drive does not pause', () => {
    const question = { kind: 'question', content: { id: 'q', question: 'why?' } } as const;
    expect(runChangeFor(question, manual, now)).toEqual({
      status: 'awaiting_input',
      pending: '{"kind":"question","id":"q","question":"why?"}',
      interaction_deadline_at: '2026-01-01T00:05:00.000Z',
    });
    const approval = { kind: 'approval', content: { id: 'a', name: 'notify', arguments: '{}' } } as const;
    expect(runChangeFor(approval, { mode: 'manual', interactionDeadlineSeconds: 30 }, now)).toMatchObject({
      status: 'awaiting_input',
      interaction_deadline_at: '2026-01-01T00:00:30.000Z',
    });
    expect(runChangeFor(question, selfDrive, now)).toEqual({});
  });

  it('an answer resumes and clears the interaction deadline; an end ends with its reason and frees the lease', () => {
    expect(runChangeFor({ kind: 'answer', content: { id: 'q', answer: 'a', by: 'user' } }, manual, now)).toEqual({
      status: 'running',
      pending: null,
      interaction_deadline_at: null,
    });
    expect(runChangeFor({ kind: 'end', content: { reason: 'deadline' } }, selfDrive, now)).toEqual({
      status: 'ended',
      end_reason: 'deadline',
      error: null,
      ended_at: '2026-01-01T00:00:00.000Z',
      pending: null,
      interaction_deadline_at: null,
      claimed_by: null,
      claimed_until: null,
    });
  });

  it('other steps change nothing on the run', () => {
    expect(runChangeFor({ kind: 'steer', content: { text: 'x' } }, manual, now)).toEqual({});
  });
});
