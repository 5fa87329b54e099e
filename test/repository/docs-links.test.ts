import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The documents a reader follows links through: the README, docs/ and the benchmark harness's notes. */
const documents = [
  'README.md',
  'bench/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text of a document outside fenced code blocks, line by line (a link inside a code block is an example, not a link). */
function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined;
      return '';
    }
    return fence === undefined ? line : '';
  });
}

const withoutCodeSpans = (line: string) => line.replace(/(`+)[^`]*?\1/g, '');

/** GitHub's heading anchors: markup dropped, lower case, punctuation removed, each space a hyphen, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every link target of a document's prose: inline links and images, and reference definitions. */
function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(markdown).map(withoutCodeSpans)) {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]!);
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (definition) targets.push(definition[1]!);
  }
  return targets;
}

/** The repository paths a document names in code spans (`src/chat/…`), placeholders (`<kind>`, `*`) left out. */
function namedPaths(markdown: string): string[] {
  const spans = proseLines(markdown).flatMap((line) => [...line.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!));
  return spans.filter((span) => /^(src|test|bench|scripts|examples|docs)\/[\w./-]*$/.test(span));
}

/** What is wrong with a relative link of `document`: a missing file, or an anchor no heading of its file has. */
function brokenLink(document: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:: not a file of the repository
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = pathPart === '' ? join(root, document) : resolve(dirname(join(root, document)), decodeURIComponent(pathPart));
  if (!file.startsWith(root)) return `${target}: outside the repository`;
  if (!existsSync(file)) return `${target}: no such file (${relative(root, file)})`;
  if (anchor === undefined) return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return `${target}: an anchor in a file that has no headings`;
  const anchors = headingAnchors(readFileSync(file, 'utf8'));
  return anchors.has(decodeURIComponent(anchor)) ? undefined : `${target}: ${relative(root, file)} has no heading "#${anchor}"`;
}

describe('links of the README and docs/', () => {
  it('slug headings as GitHub does', () => {
    expect(githubSlug('When PostgreSQL or Redis go away')).toBe('when-postgresql-or-redis-go-away');
    expect(githubSlug('Try it: one command')).toBe('try-it-one-command');
    expect(githubSlug('`GET /health` and `/ready`')).toBe('get-health-and-ready');
    expect(githubSlug('Limits, timeouts — and [links](x.md)')).toBe('limits-timeouts--and-links');
    expect([...headingAnchors('# A\n## A\n```\n# not a heading\n```\n### A')]).toEqual(['a', 'a-1', 'a-2']);
  });

  it('find inline links, images and reference definitions, never in code', () => {
    const text = '[a](docs/a.md#x) ![b](b.png "B") `[c](c.md)`\n```\n[d](d.md)\n```\n[e]: ./e.md\n';
    expect(linkTargets(text)).toEqual(['docs/a.md#x', 'b.png', './e.md']);
  });

  it.each(documents)('%s: every relative link reaches a file, and every anchor a heading of it', (document) => {
    const broken = linkTargets(readFileSync(join(root, document), 'utf8'))
      .map((target) => brokenLink(document, target))
      .filter((problem) => problem !== undefined);
    expect(broken).toEqual([]);
  });

  // bench/README.md names its own output folder (bench/results/), made by a run and not committed.
  it.each(documents.filter((document) => document !== 'bench/README.md'))(
    '%s: every file or folder it names in code (`src/…`) is in the repository',
    (document) => {
      const missing = namedPaths(readFileSync(join(root, document), 'utf8')).filter((path) => !existsSync(join(root, path)));
      expect(missing).toEqual([]);
    },
  );

  it('the README links to every page of docs/', () => {
    const linked = new Set(
      linkTargets(readFileSync(join(root, 'README.md'), 'utf8'))
        .map((target) => target.split('#')[0]!)
        .filter((path) => path.startsWith('docs/')),
    );
    const pages = documents.filter((document) => document.startsWith('docs/'));
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});
