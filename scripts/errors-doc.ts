/**
 * Writes docs/errors.md from the error catalogue (src/http/errors.ts) and the
 * table of the other Error classes (src/http/error-classes.ts):
 * `npm run docs:errors`. test/repository/errors-doc.test.ts fails when the
 * committed file is not what this renders.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ERROR_CLASSES } from '../src/http/error-classes.js';
import { type CatalogueEntry, ERROR_CATALOGUE } from '../src/http/errors.js';

export const ERRORS_DOC = fileURLToPath(new URL('../docs/errors.md', import.meta.url));

/** A table cell: a pipe would end it. */
const cell = (text: string) => text.replace(/\|/g, '\\|');
const code = (text: string) => `\`${cell(text)}\``;
/** By status, then by name (code points, not the locale's order: the file is the same everywhere); an entry that passes a client error on sorts after the 4xx statuses. */
const order = (e: CatalogueEntry) => (e.status === '4xx' ? 499 : e.status);

export function renderErrorsDoc(): string {
  const entries = [...ERROR_CATALOGUE].sort((a, b) => order(a) - order(b) || (a.code < b.code ? -1 : 1));
  return `# Errors

<!-- Generated from src/http/errors.ts and src/http/error-classes.ts by \`npm run docs:errors\`: edit those, then run it. -->

Every error answer has the status below and the spec's envelope as its body,
\`{"error": {"code": <status>, "message": "…", "metadata": {…}}}\` (see
[the API](api.md)), and names its catalogue entry in a header:

\`\`\`
X-Error-Code: GW_ERR_SPEND_LIMIT_REACHED
\`\`\`

A code name never changes and is never given to another error: match on it
rather than on the message, whose words may improve. The body carries no name
(its shape is the spec's). The same name is in the log line of a failed request
(\`code\`), in the ledger row of a failed generation (\`error_name\`, beside
\`error_code\`, its status) and in \`GET /generation\`'s \`error.name\`.

- Node's and the router's own answers (a request that timed out, headers or
  chunk extensions too large, bytes that are not HTTP, a URL that does not
  decode, a path parameter too long, an unknown route) carry a name too; any
  other client error the HTTP framework raises is \`GW_ERR_REQUEST_REJECTED\`
  with its status.
- On \`/interns\` paths spec 7.3 words 401s as "Invalid or missing API key",
  drops the metadata of 401 and 403, and adds \`reason\` and \`retryable\` to the
  others: the code stays the error's own.
- A stream that fails after its \`200\` and headers were sent ends with an error
  chunk \`{"error": {"code", "message", "metadata"}}\` and \`[DONE]\`; a header
  can no longer be sent, and the chunk keeps the reference's shape, so the name
  is in the ledger row and the log only. A chat that fails before its stream
  starts is an ordinary error answer, with the header.

## The catalogue

The message column shows each message with example values; \`{name}\` stands
for what the gateway fills in. Status \`4xx\` passes on another's client error
status (the provider's, the HTTP framework's).

| Code | Status | What happened | Message |
|---|---|---|---|
${entries.map((e) => `| ${code(e.code)} | ${e.status} | ${cell(e.description)} | ${code(e.example)} |`).join('\n')}

## Other errors

Errors raised as other classes become entries of the catalogue where a client
is told of them; some never reach a client.

| Class | Declared in | Becomes | Where |
|---|---|---|---|
${ERROR_CLASSES.map((c) => `| ${c.name} | ${code(c.file)} | ${c.becomes.length > 0 ? c.becomes.map(code).join(', ') : 'no client sees it'} | ${cell(c.where)} |`).join('\n')}
`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) writeFileSync(ERRORS_DOC, renderErrorsDoc());
