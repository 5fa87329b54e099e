/**
 * The import rules of src/ (tests and test helpers excluded), checked by `npm run lint`:
 * dependencies point down, with protocol/ (the shared vocabulary) at the bottom and
 * api/, cli/, app.ts and main.ts at the top.
 */
const TESTS = '\\.(test|testing)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'An import cycle means two files cannot be read, tested or moved apart: inject the dependency or move the shared part down.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'protocol-stands-alone',
      comment: 'protocol/ is the vocabulary every part speaks: it imports nothing else of src/.',
      severity: 'error',
      from: { path: '^src/protocol/' },
      to: { path: '^src/', pathNot: '^src/protocol/' },
    },
    {
      name: 'helpers-stand-alone',
      comment: 'util/ and net/ hold generic helpers: they import nothing else of src/ but protocol/.',
      severity: 'error',
      from: { path: '^src/(util|net)/' },
      to: { path: '^src/', pathNot: '^src/(util|net|protocol)/' },
    },
    {
      name: 'providers-speak-protocol',
      comment:
        "An adapter translates between protocol/ and one upstream: it imports nothing of src/ but protocol/, util/ and net/ (as the AI SDK's provider packages depend only on its provider interfaces).",
      severity: 'error',
      from: { path: '^src/providers/' },
      to: { path: '^src/', pathNot: '^src/(providers|protocol|util|net)/' },
    },
    {
      name: 'store-knows-no-domain',
      comment: 'store/ reads and writes plain records: it imports no domain folder (accounting/, videos/, interns/, chat/, ...).',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: '^src/(store|util|protocol)/' },
    },
    {
      name: 'only-the-top-imports-api',
      comment: 'api/ (routes and schemas) is the top floor: only app.ts, main.ts and cli/ build on it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(api/|cli/|app\\.ts$|main\\.ts$)' },
      to: { path: '^src/api/' },
    },
  ],
  options: {
    includeOnly: '^src/',
    exclude: { path: TESTS },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
