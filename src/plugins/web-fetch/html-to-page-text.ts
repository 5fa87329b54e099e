import { convert, type HtmlToTextOptions } from 'html-to-text';

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } }));

const BODY: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    // The model reads the page; link targets and images are noise in its context.
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    ...HEADINGS,
  ],
};

const TITLE: HtmlToTextOptions = { wordwrap: false, baseElements: { selectors: ['title'], returnDomByDefault: false } };

/** A page's title and readable text (html-to-text: scripts and styles dropped, entities decoded). */
export function htmlToPageText(html: string): { title: string; text: string } {
  return { title: convert(html, TITLE).trim(), text: convert(html, BODY).trim() };
}
