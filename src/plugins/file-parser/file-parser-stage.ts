import type { Catalog, Endpoint } from '../../catalog/types.js';
import type { ChatRequest } from '../../protocol/chat.js';
import type { Attempt } from '../../routing/plan-attempts.js';
import type { PluginServices } from '../plugin-services.js';
import type { RequestStage } from '../request-stage.js';
import { type FileParserFields, type PdfSupport, parsePdfParts } from './parse-pdf-parts.js';

/** Adapter kinds that send a PDF to the model as a document (Anthropic document blocks, Gemini inline data, OpenAI file parts). */
const PDF_KINDS = new Set(['openai', 'anthropic', 'gemini']);

/**
 * What every planned endpoint can do with a PDF: native only if each of
 * them reads files (its model's input modalities include `file`), fetching
 * URLs only if each is Anthropic; so any fallback can take the request.
 */
export function pdfSupportOf(catalog: Catalog, attempts: readonly Attempt<Endpoint>[]): PdfSupport {
  const kinds = attempts.map((attempt) => {
    const model = catalog.getModel(attempt.modelId);
    const kind = catalog.providers.get(attempt.endpoint.provider)?.kind;
    return { kind, reads: model?.architecture.input_modalities.includes('file') === true && kind !== undefined && PDF_KINDS.has(kind) };
  });
  return {
    native: kinds.length > 0 && kinds.every((k) => k.reads),
    fetchesUrls: kinds.length > 0 && kinds.every((k) => k.kind === 'anthropic'),
  };
}

/** Whether a user message carries a file: the file-parser's work, which it does unless turned off. */
export const hasFileParts = (request: ChatRequest) =>
  request.messages.some((m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((part) => part.type === 'file'));

/**
 * The file-parser stage. It is on by default whenever a user message carries
 * a file, as the reference parses PDFs for models that cannot read them;
 * `{"id": "file-parser", "enabled": false}` turns it off.
 */
export function fileParserStage(services: Pick<PluginServices, 'pdfText' | 'download'> & { catalog: Catalog }): RequestStage<ChatRequest> {
  return {
    name: 'file-parser',
    applies: ({ run }) => hasFileParts(run.request) && run.request.plugins?.find((p) => p.id === 'file-parser')?.enabled !== false,
    async run({ run, plugins, signal }) {
      const fields = (plugins.get('file-parser') ?? {}) as FileParserFields;
      const parsed = await parsePdfParts(run.request, fields, pdfSupportOf(services.catalog, run.attempts), {
        cache: services.pdfText,
        download: (url) => services.download(url, signal),
      });
      if (parsed.files.length === 0) return { entries: [] };
      const text = parsed.files.filter((f) => f.engine === 'pdf-text').length;
      const native = parsed.files.length - text;
      const summary = [
        text ? `${text} PDF${text === 1 ? '' : 's'} as text` : '',
        native ? `${native} PDF${native === 1 ? '' : 's'} sent natively` : '',
      ]
        .filter(Boolean)
        .join(', ');
      return {
        entries: [{ type: 'plugin', name: 'file-parser', summary, data: { files: parsed.files } }],
        run: { ...run, request: parsed.request },
      };
    },
  };
}
