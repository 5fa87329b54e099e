/** Where the process is in its life: starting (not yet serving), serving, or draining after a stop was asked. */
export type Phase = 'starting' | 'serving' | 'draining';

/**
 * The phase readiness reports (GET /ready). The start of `serve` moves it to
 * serving once the server listens and the database is set up, and its stop
 * to draining before anything closes, so that a load balancer stops sending
 * requests while those in flight finish.
 */
export class Lifecycle {
  private current: Phase = 'starting';

  get phase(): Phase {
    return this.current;
  }

  serving(): void {
    if (this.current === 'starting') this.current = 'serving';
  }

  draining(): void {
    this.current = 'draining';
  }
}
