// Builds the web console (console/) into dist/console: one bundle of the page's script and one of its styles,
// named by their content so that browsers may cache them for good, and the page that loads them. esbuild
// and every library bundled are local packages: the build needs no network.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'console');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: { app: 'console/src/main.tsx' },
  outdir: join(out, 'assets'),
  entryNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  legalComments: 'linked',
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
const script = outputs.find((name) => name.endsWith('.js'));
const style = outputs.find((name) => name.endsWith('.css'));
if (!script || !style) throw new Error(`the console build made no script or no style: ${outputs.join(', ')}`);

// No inline script or style: the Content-Security-Policy the gateway sends allows only files of its own.
writeFileSync(
  join(out, 'index.html'),
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Model Gateway console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="assets/${style}">
<script type="module" src="assets/${script}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The console needs JavaScript.</noscript>
</body>
</html>
`,
);
