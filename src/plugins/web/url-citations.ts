import type { UrlCitation } from '../../protocol/chat.js';
import type { SearchResult } from '../../protocol/search-engine.js';

const MARKDOWN_LINK = /\[[^\]\n]*\]\((https?:\/\/[^\s)]+)\)/g;

/** Host lower-cased and a trailing slash dropped, so that a model's copy of a URL still matches. */
function sameUrl(a: string, b: string): boolean {
  const normal = (href: string) => {
    try {
      const url = new URL(href);
      return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}${url.search}`;
    } catch {
      return href;
    }
  };
  return normal(a) === normal(b);
}

/** A position in code points, as OpenAI counts annotation indexes (not UTF-16 units). */
const codePoints = (text: string, end: number) => [...text.slice(0, end)].length;

/**
 * One `url_citation` per search result, in result order, with the result's
 * text as `content`. A result the answer cites (a markdown link to it, or
 * its bare URL) has the indexes of that first citation in the message; one
 * it does not cite has 0 and 0, as the reference's plugin returns them.
 */
export function urlCitations(content: string, results: readonly SearchResult[]): UrlCitation[] {
  const links = [...content.matchAll(MARKDOWN_LINK)].map((match) => ({
    url: match[1] as string,
    start: match.index,
    end: match.index + match[0].length,
  }));
  return results.map((result) => {
    let span = links.find((link) => sameUrl(link.url, result.url));
    if (!span) {
      const at = content.indexOf(result.url);
      if (at >= 0) span = { url: result.url, start: at, end: at + result.url.length };
    }
    return {
      type: 'url_citation',
      url_citation: {
        url: result.url,
        title: result.title,
        ...(result.content ? { content: result.content } : {}),
        start_index: span ? codePoints(content, span.start) : 0,
        end_index: span ? codePoints(content, span.end) : 0,
      },
    };
  });
}
