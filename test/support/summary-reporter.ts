import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the closing lines name: where to look when CI grows slow. */
const SLOWEST = 25;

/**
 * Prints the plain closing line "N passed, N failed, N skipped" that any CI
 * reader understands, after vitest's own summary, and before it the slowest
 * files with their import (collect) and test times.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    const timed = modules.map((module) => ({ path: module.relativeModuleId, ...module.diagnostic() }));
    timed.sort((a, b) => b.collectDuration + b.duration - (a.collectDuration + a.duration));
    const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
    process.stdout.write('\nSlowest files (import + tests, seconds):\n');
    for (const file of timed.slice(0, SLOWEST))
      process.stdout.write(
        `${seconds(file.collectDuration + file.duration)} = ${seconds(file.collectDuration)} + ${seconds(file.duration)}  ${file.path}\n`,
      );
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
