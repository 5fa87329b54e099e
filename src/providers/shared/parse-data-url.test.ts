import { describe, expect, it } from 'vitest';
import { parseDataUrl } from './parse-data-url.js';

describe('parseDataUrl', () => {
  it('reads the media type and the base64 payload', () => {
    expect(parseDataUrl('data:image/png;base64,iVBORw0KGgo=')).toEqual({ mediaType: 'image/png', data: 'iVBORw0KGgo=' });
  });

  it('skips parameters before ;base64 and lowercases the media type', () => {
    expect(parseDataUrl('data:Application/PDF;name=a.pdf;base64,JVBERi0=')).toEqual({ mediaType: 'application/pdf', data: 'JVBERi0=' });
  });

  it('encodes a percent-encoded payload as base64, text/plain when no type is given', () => {
    expect(parseDataUrl('data:,hello%20world')).toEqual({ mediaType: 'text/plain', data: Buffer.from('hello world').toString('base64') });
  });

  it('knows nothing of other URLs', () => {
    expect(parseDataUrl('https://example.com/cat.png')).toBeUndefined();
    expect(parseDataUrl('data:image/png;base64')).toBeUndefined();
  });
});
