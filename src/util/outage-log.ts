/** Where an outage is told: pino's warn and info, or nothing (a command-line run). */
export interface OutageLogger {
  warn(detail: object, message: string): void;
  info?(message: string): void;
}

/**
 * One warning when a shared service goes away and one line when it is back,
 * however many requests, connections and retries fail in between: a log that
 * says the same thing per request hides everything else.
 */
export interface OutageLog {
  /** The service failed; the first failure of an outage is logged, the others are not. */
  down(error: unknown): void;
  /** The service answered; ends the outage, if there was one. */
  up(): void;
  readonly isDown: boolean;
}

/** `service` names it ("PostgreSQL"), `meanwhile` says what the gateway does until it is back. */
export function outageLog(logger: OutageLogger, service: string, meanwhile: string): OutageLog {
  let down = false;
  return {
    down(error) {
      if (down) return;
      down = true;
      logger.warn({ err: error }, `${service} is unavailable: ${meanwhile} until it is back`);
    },
    up() {
      if (!down) return;
      down = false;
      logger.info?.(`${service} is back`);
    },
    get isDown() {
      return down;
    },
  };
}

/** An outage log that tells no one (a command-line run, a test). */
export const silentOutageLog = (): OutageLog => outageLog({ warn: () => undefined }, '', '');
