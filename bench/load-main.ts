/** The measured part of a load process begins and ends with a mark, so that the servers' CPU is read around it and nothing else. */
export type Mark = 'start' | 'end';

/** What a load process prints last: its result, and its own CPU time between the marks (the load core's budget). */
export interface LoadOutput<Result> {
  result: Result;
  cpuSeconds: number;
}

/** This process's CPU time so far, all its threads, in seconds. */
export const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/**
 * Entry of a load process: the spec is JSON in argv[2]; stdout carries one
 * JSON line per mark and then the output; diagnostics go to stderr so they
 * never corrupt it.
 */
export function loadMain<Spec, Result>(run: (spec: Spec, mark: (m: Mark) => void) => Promise<Result>): void {
  const spec = JSON.parse(process.argv[2] ?? 'null') as Spec;
  const cpuAt: Partial<Record<Mark, number>> = {};
  const mark = (m: Mark) => {
    cpuAt[m] = cpuNow();
    process.stdout.write(`${JSON.stringify({ mark: m })}\n`);
  };
  run(spec, mark).then(
    (result) => {
      const output: LoadOutput<Result> = { result, cpuSeconds: (cpuAt.end ?? cpuNow()) - (cpuAt.start ?? 0) };
      process.stdout.write(`${JSON.stringify(output)}\n`, () => process.exit(0));
    },
    (error: unknown) => {
      process.stderr.write(`load: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
