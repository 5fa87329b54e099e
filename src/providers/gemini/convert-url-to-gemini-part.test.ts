import { describe, expect, it } from 'vitest';
import { convertUrlToGeminiPart } from './convert-url-to-gemini-part.js';

describe('convertUrlToGeminiPart', () => {
  it('sends a base64 data URL inline with its type', () => {
    expect(convertUrlToGeminiPart('data:image/png;base64,iVBORw0KGgo=')).toEqual({
      inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' },
    });
  });

  it('sends an http(s) URL as fileData with the type guessed from its extension, query ignored', () => {
    expect(convertUrlToGeminiPart('https://example.com/cat.JPG?sig=abc.def')).toEqual({
      fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat.JPG?sig=abc.def' },
    });
    expect(convertUrlToGeminiPart('https://example.com/report.pdf').fileData?.mimeType).toBe('application/pdf');
  });

  it('prefers the file name for the type, and leaves the type out when nothing tells it', () => {
    expect(convertUrlToGeminiPart('https://example.com/download?id=7', 'notes.txt').fileData).toEqual({
      mimeType: 'text/plain',
      fileUri: 'https://example.com/download?id=7',
    });
    expect(convertUrlToGeminiPart('https://example.com/image').fileData).toEqual({ fileUri: 'https://example.com/image' });
  });
});
