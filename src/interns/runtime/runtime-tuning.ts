import type { InternRuntimeOptions } from './intern-runtime-service.js';

/** What an operator or a test may tune of the interns runtime (AppOptions.internRuntime); the rest comes from the app. */
export type InternRuntimeTuning = Partial<
  Pick<
    InternRuntimeOptions,
    'spawn' | 'backoff' | 'leaseMs' | 'tickMs' | 'ackTimeoutMs' | 'startTimeoutMs' | 'maxTurns' | 'defaultModel' | 'secrets'
  >
>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The interns runtime of this instance (absent when the app runs none). */
    internRuntime: import('../intern-runtime.js').InternRuntime | undefined;
  }
}
