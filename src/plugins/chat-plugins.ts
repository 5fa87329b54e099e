import type { Catalog } from '../catalog/types.js';
import type { ChatRun } from '../chat/chat-run.js';
import type { ChatCompletion } from '../chat/types.js';
import { Errors } from '../http/errors.js';
import type { Clock } from '../util/clock.js';
import { contextCompressionStage } from './context-compression/context-compression-stage.js';
import { fileParserStage, pdfSupportOf } from './file-parser/file-parser-stage.js';
import type { PluginServices } from './plugin-services.js';
import { activePlugin, type StageEntry } from './stage-entry.js';
import { FETCH_LIMITS } from './plugin-services.js';
import { WEB_FETCH_TOOL_NAME, WebFetchTool, type WebFetchPluginFields } from './web-fetch/web-fetch-tool.js';
import { urlCitations } from './web/url-citations.js';
import { nativeSearchOf } from './web/native-search-support.js';
import { webSearchStage } from './web/web-search-stage.js';

/** What the plugin stages need; built once in app.ts. */
export interface ChatPluginServices extends PluginServices {
  catalog: Catalog;
  clock: Clock;
}

const withEntries = (run: ChatRun, entries: StageEntry[]): ChatRun =>
  entries.length === 0 ? run : { ...run, routing: { ...run.routing, pipeline: [...(run.routing.pipeline ?? []), ...entries] } };

/**
 * The pre-request plugin stages, in order: file-parser (PDFs to text or to
 * the model), web (search results into the prompt), context-compression
 * (last, so that parsed files and search results count). Each stage that
 * ran leaves an entry in `routing.pipeline`. A request with no plugin and
 * no file costs a few property reads.
 */
export async function prepareChatPlugins(services: ChatPluginServices, run: ChatRun, signal: AbortSignal): Promise<ChatRun> {
  let request = run.request;
  const entries: StageEntry[] = [];
  const filed = await fileParserStage(request, pdfSupportOf(services.catalog, run.attempts), services, signal);
  request = filed.request;
  if (filed.entry) entries.push(filed.entry);

  const searched = await webSearchStage(request, { external: services.search, native: nativeSearchOf(services.catalog, run.attempts) }, services.clock, signal);
  request = searched.request;
  if (searched.entry) entries.push(searched.entry);

  const compressed = await contextCompressionStage(request, run.attempts, services.tokens);
  request = compressed.request;
  if (compressed.entry) entries.push(compressed.entry);

  const fetching = activePlugin(request.plugins, 'web-fetch');
  if (fetching && request.stream) throw Errors.invalidRequest('plugins web-fetch: the web_fetch server tool runs only with stream: false on this gateway');
  if (fetching && request.tools?.some((tool) => tool.function.name === WEB_FETCH_TOOL_NAME))
    throw Errors.invalidRequest(`tools: the function name ${WEB_FETCH_TOOL_NAME} is the web-fetch plugin's server tool; rename the client tool`);

  return withEntries({ ...run, request, ...(searched.results?.length ? { citations: searched.results } : {}) }, entries);
}

/** The web_fetch tool for this run, when the web-fetch plugin is on. */
export function webFetchToolFor(services: PluginServices, run: ChatRun): WebFetchTool | undefined {
  const plugin = activePlugin(run.request.plugins, 'web-fetch');
  if (!plugin) return undefined;
  return new WebFetchTool(plugin as WebFetchPluginFields, {
    fetcher: services.fetcher,
    tokens: services.tokens,
    pdfText: async (bytes) => (await services.pdfText.text(bytes)).text,
    ...FETCH_LIMITS.page,
  });
}

/** A non-streaming answer with the web plugin's results as url_citation annotations on its message. */
export function withCitations(run: ChatRun, completion: ChatCompletion): ChatCompletion {
  if (!run.citations) return completion;
  const results = run.citations;
  return {
    ...completion,
    choices: completion.choices.map((choice) => ({
      ...choice,
      message: { ...choice.message, annotations: [...(choice.message.annotations ?? []), ...urlCitations(choice.message.content ?? '', results)] },
    })),
  };
}

export { withEntries };
