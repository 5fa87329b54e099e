// The Dockerfile, checked where no Docker engine runs: parsed and validated by the parser of the Docker language
// server (dockerfile-ast, dockerfile-utils), then held to the rules of hadolint that apply to it (hadolint itself is
// not packaged for Debian: see docs/operations.md, "Containers") and to what the gateway needs of its image.
import { existsSync, readFileSync } from 'node:fs';
import { ValidationSeverity, validate } from 'dockerfile-utils';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import {
  argumentsOf as args,
  dockerfile,
  envOf as env,
  execForm,
  flagOf as flag,
  withKeyword as keyword,
  runtimeStage as runtime,
  stages,
  DOCKERFILE_TEXT as text,
} from '../support/dockerfile.js';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const manifest = JSON.parse(read('package.json')) as { engines: { node: string }; files: string[] };
const stageNames = [...stages.keys()];
const runs = () => keyword(dockerfile.getInstructions(), 'RUN').map((run) => run.getArgumentsContent() ?? '');

describe('the Dockerfile', () => {
  it('has no error or warning of the Docker language server, every optional check raised to an error', () => {
    const all = ValidationSeverity.ERROR;
    const problems = validate(text, {
      deprecatedMaintainer: all,
      directiveCasing: all,
      emptyContinuationLine: all,
      instructionCasing: all,
      instructionCmdMultiple: all,
      instructionEntrypointMultiple: all,
      instructionHealthcheckMultiple: all,
      instructionJSONInSingleQuotes: all,
      instructionWorkdirRelative: all,
    });
    expect(problems.map((p) => `line ${p.range.start.line + 1}: ${p.message}`)).toEqual([]);
  });

  it('builds in one stage and runs from another, both on a tagged Node.js image of the oldest line engines promises (DL3006, DL3007)', () => {
    expect(stageNames).toEqual(['build', 'runtime']);
    const oldest = semver.minVersion(manifest.engines.node)!;
    for (const from of dockerfile.getFROMs()) {
      expect(from.getImageName()).toBe('node');
      expect(from.getImageTag()).not.toBe('latest');
      expect(from.getImageTag()).toBe(`${oldest.major}-bookworm-slim`);
    }
  });

  it('runs as the unprivileged node user, in the runtime stage, to its end (DL3002)', () => {
    const users = keyword(runtime, 'USER');
    expect(users.map(args)).toEqual([['node']]);
    // Nothing after USER needs root, so nothing after it changes files of the image.
    const after = runtime.slice(runtime.indexOf(users[0]!));
    expect(keyword(after, 'RUN').concat(keyword(after, 'COPY'), keyword(after, 'ADD'))).toEqual([]);
  });

  it("keeps the program read-only to the server: only the data folder is the node user's", () => {
    for (const copy of keyword(runtime, 'COPY')) expect(flag(copy, 'chown'), copy.toString()).toBe('root:root');
    expect(runs().some((run) => /chown node:node \/app\/data\b/.test(run))).toBe(true);
    expect(keyword(runtime, 'VOLUME').map(args)).toEqual([['["/app/data"]']]);
    expect(keyword(runtime, 'WORKDIR').map(args)).toEqual([['/app']]);
  });

  it("checks its health on GET /health with Node's own fetch, the slim image having no curl", () => {
    const [healthcheck, ...more] = keyword(runtime, 'HEALTHCHECK');
    expect(more).toEqual([]);
    expect(healthcheck!.getArgumentsContent()).toMatch(/^CMD \[/);
    expect(execForm(healthcheck!)).toEqual(['node', 'scripts/healthcheck.mjs']);
    expect(read('scripts/healthcheck.mjs')).toContain('/health');
    expect(keyword(runtime, 'COPY').some((copy) => args(copy).includes('scripts/healthcheck.mjs'))).toBe(true);
  });

  it('serves on every interface at the port it exposes, and runs the built CLI in exec form (DL3025)', () => {
    const settings = env(runtime);
    expect(settings.get('HOST')).toBe('0.0.0.0');
    expect(keyword(runtime, 'EXPOSE').map(args)).toEqual([[settings.get('PORT')]]);
    expect(settings.get('PORT')).toBe('8080');
    expect(keyword(runtime, 'ENTRYPOINT').map(execForm)).toEqual([['node', 'dist/main.js']]);
    expect(keyword(runtime, 'CMD').map(execForm)).toEqual([['serve']]);
  });

  it('installs what the lockfile says (npm ci, never npm install) and keeps only production packages', () => {
    const all = runs().join('\n');
    expect(all).toMatch(/\bnpm ci\b/);
    expect(all).not.toMatch(/\bnpm (install|i)\b/);
    expect(all).toMatch(/\bnpm prune --omit=dev\b/);
    // better-sqlite3 is compiled in the build stage, which has the compilers; the runtime stage has none.
    expect(all).toMatch(/\bnpm rebuild better-sqlite3\b/);
    expect(keyword(runtime, 'RUN').map((run) => run.getArgumentsContent())).not.toContainEqual(expect.stringMatching(/apt-get|npm/));
  });

  it('installs Debian packages without recommends, with -y, and leaves no package lists behind (DL3009, DL3014, DL3015, DL3027)', () => {
    const installs = runs().filter((run) => /\bapt(-get)? install\b/.test(run));
    expect(installs.length).toBeGreaterThan(0);
    for (const run of runs()) expect(run).not.toMatch(/\bapt install\b|\bsudo\b|(^|&&\s*)cd /);
    for (const run of installs) {
      expect(run).toMatch(/apt-get install -y --no-install-recommends /);
      expect(run).toMatch(/apt-get update/);
      expect(run).toMatch(/rm -rf \/var\/lib\/apt\/lists\/\*/);
    }
  });

  it('copies from the build context with COPY only, from stages it defines, and nothing .dockerignore leaves out (DL3020, DL3022)', () => {
    expect(keyword(dockerfile.getInstructions(), 'ADD')).toEqual([]);
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    for (const copy of keyword(dockerfile.getInstructions(), 'COPY')) {
      const from = flag(copy, 'from');
      const sources = args(copy).slice(0, -1);
      if (from !== undefined) {
        expect(stageNames.slice(0, stageNames.indexOf(stageNames.find((name) => stages.get(name)!.includes(copy))!))).toContain(from);
        continue;
      }
      for (const source of sources) {
        expect(existsSync(new URL(source, root)), source).toBe(true);
        expect(
          ignored.filter((pattern) => source === pattern || source.startsWith(`${pattern}/`)),
          source,
        ).toEqual([]);
      }
    }
  });

  it("gives the runtime image every file the published package holds (package.json's files), as npm would", () => {
    const copied = keyword(runtime, 'COPY')
      .flatMap((copy) => args(copy).slice(0, -1))
      .map((path) => path.replace(/^\/app\//, ''));
    for (const path of ['package.json', 'node_modules', ...manifest.files]) expect(copied).toContain(path);
  });
});
