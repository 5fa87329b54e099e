import type { ChatMessage, ChatRequest, SystemMessage } from '../../protocol/chat.js';
import type { SearchResult } from '../../protocol/search-engine.js';
import { contentText } from '../context-compression/message-tokens.js';

/** The reference's default `search_prompt`, dated the day of the search. */
export const defaultSearchPrompt = (date: string) =>
  `A web search was conducted on ${date}. Incorporate the following web search results into your response.\n\n` +
  'IMPORTANT: Cite them using markdown links named using the domain of the source.\nExample: [nytimes.com](https://nytimes.com/some-page).';

/** What the plugin searches for: the last user message's text, or nothing when it has none. */
export function searchQueryOf(messages: readonly ChatMessage[]): string | undefined {
  const last = messages.findLast((message) => message.role === 'user');
  const text = last ? contentText(last.content).trim() : '';
  return text === '' ? undefined : text;
}

/** The results as one system message: the prompt, then each result numbered with its URL, title, date and text. */
export function searchResultsMessage(results: readonly SearchResult[], prompt: string): SystemMessage {
  const listed = results.map((result, i) =>
    [
      `[${i + 1}] ${result.title}`,
      `URL: ${result.url}`,
      ...(result.publishedDate ? [`Published: ${result.publishedDate.slice(0, 10)}`] : []),
      result.content,
    ].join('\n'),
  );
  return { role: 'system', content: [prompt, ...listed].join('\n\n') };
}

/** The request with the results' message just before the last user message, where the reference's plugin puts it. */
export function withSearchResults(request: ChatRequest, message: SystemMessage): ChatRequest {
  const at = request.messages.findLastIndex((m) => m.role === 'user');
  const messages = [...request.messages];
  messages.splice(at < 0 ? messages.length : at, 0, message);
  return { ...request, messages };
}
