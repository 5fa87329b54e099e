import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'console/src/**/*.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    // One file per core: vitest's default (cores − 1) ran a 2-core CI machine's files one at a time. One more than
    // the cores was slower still on that machine (files that start processes fought for the CPU).
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
