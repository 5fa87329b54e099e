import { describe, expect, it } from 'vitest';
import { htmlToPageText } from './html-to-page-text.js';

describe('htmlToPageText', () => {
  it('gives the title and the readable text, without scripts, styles, link targets or images', () => {
    const page = htmlToPageText(
      '<!doctype html><html><head><title>Rates &amp; fees</title><style>p{color:red}</style><script>track()</script></head>' +
        '<body><h1>Our rates</h1><p>See <a href="https://x.test/y">the table</a>.</p><img src="a.png" alt="chart"><ul><li>one</li><li>two</li></ul></body></html>',
    );
    expect(page.title).toBe('Rates & fees');
    expect(page.text).toBe('Our rates\n\nSee the table.\n\n * one\n * two');
  });

  it('has an empty title when the page has none', () => {
    expect(htmlToPageText('<p>just text</p>')).toEqual({ title: '', text: 'just text' });
  });
});
