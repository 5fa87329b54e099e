import { describe, expect, it } from 'vitest';
import { advanceJob, type JobState, type PollPolicy } from './job-state.js';

const policy: PollPolicy = { intervalMs: 1_000, maxBackoffMs: 8_000, maxFailures: 3, maxAgeMs: 60_000 };
const now = new Date('2026-11-21T12:00:10.000Z');
const job: JobState = { status: 'pending', upstream_id: null, failures: 0, created_at: '2026-11-21T12:00:00.000Z', fallbacks: [] };

describe('advanceJob', () => {
  it('maps upstream queued to pending and in_progress to in_progress, polled again after the interval', () => {
    expect(advanceJob(job, { ok: true, state: { status: 'queued', upstreamId: 'v1' } }, now, policy)).toEqual({
      status: 'pending',
      upstream_id: 'v1',
      error: null,
      failures: 0,
      next_poll_at: '2026-11-21T12:00:11.000Z',
      charge: false,
    });
    expect(advanceJob(job, { ok: true, state: { status: 'in_progress', upstreamId: 'v1' } }, now, policy).status).toBe('in_progress');
  });

  it('completes with the seconds and outputs, and asks for the charge', () => {
    const change = advanceJob(job, { ok: true, state: { status: 'completed', upstreamId: 'v1', seconds: 8, outputs: 1 } }, now, policy);
    expect(change).toMatchObject({ status: 'completed', seconds: 8, outputs: 1, charge: true });
  });

  it('fails with the upstream message, without a charge', () => {
    const change = advanceJob(job, { ok: true, state: { status: 'failed', upstreamId: 'v1', message: 'nope' } }, now, policy);
    expect(change).toMatchObject({ status: 'failed', error: 'nope', charge: false });
  });

  it('ends cancelled when the upstream cancelled the job, without a charge', () => {
    const change = advanceJob(
      job,
      { ok: true, state: { status: 'cancelled', upstreamId: 'v1', message: 'Operation cancelled' } },
      now,
      policy,
    );
    expect(change).toMatchObject({ status: 'cancelled', error: 'Operation cancelled', charge: false });
  });

  it('moves a job no upstream took yet to the next planned endpoint at once, but not after a refusal or once submitted', () => {
    const planned = { ...job, failures: 2, fallbacks: [{ provider: 'b' }] };
    expect(advanceJob(planned, { ok: false, retryable: true, message: 'down' }, now, policy)).toEqual({
      status: 'pending',
      upstream_id: null,
      error: null,
      failures: 0,
      next_poll_at: now.toISOString(),
      charge: false,
      fallback: true,
    });
    expect(advanceJob(planned, { ok: false, retryable: false, message: 'bad prompt' }, now, policy)).toMatchObject({ status: 'failed' });
    const submitted = advanceJob(
      { ...planned, failures: 0, upstream_id: 'v1' },
      { ok: false, retryable: true, message: 'down' },
      now,
      policy,
    );
    expect(submitted).toMatchObject({ status: 'pending', failures: 1 });
    expect(submitted.fallback).toBeUndefined();
  });

  it('backs off exponentially on a retryable failure, keeping the status', () => {
    const first = advanceJob({ ...job, status: 'in_progress' }, { ok: false, retryable: true, message: 'down' }, now, policy);
    expect(first).toMatchObject({ status: 'in_progress', failures: 1, next_poll_at: '2026-11-21T12:00:12.000Z', error: null });
    const second = advanceJob({ ...job, failures: 2 }, { ok: false, retryable: true, message: 'down' }, now, {
      ...policy,
      maxFailures: 10,
    });
    expect(second.next_poll_at).toBe('2026-11-21T12:00:18.000Z');
  });

  it('gives up after maxFailures, or at once on a permanent refusal', () => {
    expect(advanceJob({ ...job, failures: 2 }, { ok: false, retryable: true, message: 'down' }, now, policy)).toMatchObject({
      status: 'failed',
      error: 'down',
    });
    expect(advanceJob(job, { ok: false, retryable: false, message: 'bad prompt' }, now, policy)).toMatchObject({
      status: 'failed',
      error: 'bad prompt',
    });
  });

  it('expires a job still running past maxAgeMs', () => {
    const late = new Date('2026-11-21T12:01:00.000Z');
    expect(advanceJob(job, { ok: true, state: { status: 'in_progress', upstreamId: 'v1' } }, late, policy)).toMatchObject({
      status: 'expired',
    });
  });
});
