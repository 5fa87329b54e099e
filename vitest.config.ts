import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'console/src/**/*.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
