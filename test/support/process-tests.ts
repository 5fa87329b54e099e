/**
 * The time a test gets when it starts gateway processes (from the sources, through tsx) and takes them through an
 * outage or a crash: each start alone can take seconds of CPU on a loaded 2-core machine, past vitest's 20 s default.
 */
export const PROCESS_TESTS = { timeout: 90_000 };
