import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../protocol/chat.js';
import type { SearchResult } from '../../protocol/search-engine.js';
import { defaultSearchPrompt, searchQueryOf, searchResultsMessage, withSearchResults } from './search-results-message.js';
import { urlCitations } from './url-citations.js';

const MOON: SearchResult = {
  url: 'https://science.example.org/moon/distance',
  title: 'How far is the Moon?',
  content: 'About 384,400 km.',
  publishedDate: '2025-03-02T00:00:00.000Z',
};
const MARS: SearchResult = { url: 'https://blog.example.net/mars', title: 'Mars rovers', content: 'Rovers.' };

describe('urlCitations', () => {
  it('gives the position of a markdown link to a result, and 0..0 for a result not cited', () => {
    const content = 'The Moon is 384,400 km away ([science.example.org](https://science.example.org/moon/distance/)).';
    const citations = urlCitations(content, [MOON, MARS]);
    const start = content.indexOf('[science');
    expect(citations).toEqual([
      {
        type: 'url_citation',
        url_citation: { url: MOON.url, title: MOON.title, content: MOON.content, start_index: start, end_index: content.length - 2 },
      },
      { type: 'url_citation', url_citation: { url: MARS.url, title: MARS.title, content: 'Rovers.', start_index: 0, end_index: 0 } },
    ]);
    expect(content.slice(citations[0]?.url_citation.start_index, citations[0]?.url_citation.end_index)).toBe(
      '[science.example.org](https://science.example.org/moon/distance/)',
    );
  });

  it('finds a bare URL, and counts positions in code points', () => {
    const content = '🌕 See https://blog.example.net/mars for more.';
    const [citation] = urlCitations(content, [MARS]);
    expect(citation?.url_citation.start_index).toBe(6);
    expect(citation?.url_citation.end_index).toBe(6 + MARS.url.length);
  });
});

describe('search results message', () => {
  it('searches for the last user message', () => {
    expect(
      searchQueryOf([
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: ' moon distance ' }] },
      ]),
    ).toBe('moon distance');
    expect(searchQueryOf([{ role: 'system', content: 'x' }])).toBeUndefined();
  });

  it('lists the results after the prompt and goes just before the last user message', () => {
    const message = searchResultsMessage([MOON, MARS], defaultSearchPrompt('2026-11-21'));
    expect(message.content).toBe(
      `${defaultSearchPrompt('2026-11-21')}\n\n[1] How far is the Moon?\nURL: https://science.example.org/moon/distance\nPublished: 2025-03-02\nAbout 384,400 km.\n\n[2] Mars rovers\nURL: https://blog.example.net/mars\nRovers.`,
    );
    const request: ChatRequest = {
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'q' },
      ],
    };
    expect(withSearchResults(request, message).messages.map((m) => m.role)).toEqual(['system', 'system', 'user']);
    expect(request.messages).toHaveLength(2);
  });
});
