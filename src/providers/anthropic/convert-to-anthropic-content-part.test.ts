import { describe, expect, it } from 'vitest';
import { convertToAnthropicContentPart } from './convert-to-anthropic-content-part.js';

describe('convertToAnthropicContentPart', () => {
  it('keeps a text part with its cache breakpoint', () => {
    expect(convertToAnthropicContentPart({ type: 'text', text: 'Long document', cache_control: { type: 'ephemeral' } })).toEqual({
      type: 'text',
      text: 'Long document',
      cache_control: { type: 'ephemeral' },
    });
  });

  it('sends an image URL for Anthropic to fetch, without the OpenAI detail hint', () => {
    expect(convertToAnthropicContentPart({ type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'high' } })).toEqual(
      {
        type: 'image',
        source: { type: 'url', url: 'https://example.com/cat.jpg' },
      },
    );
  });

  it('sends an inline image as base64 with its media type', () => {
    expect(convertToAnthropicContentPart({ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } })).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
    });
  });

  it('sends files as documents titled by their name, and inline image files as images', () => {
    expect(
      convertToAnthropicContentPart({ type: 'file', file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } }),
    ).toEqual({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
      title: 'report.pdf',
    });
    expect(convertToAnthropicContentPart({ type: 'file', file: { file_data: 'https://example.com/report.pdf' } })).toEqual({
      type: 'document',
      source: { type: 'url', url: 'https://example.com/report.pdf' },
    });
    expect(convertToAnthropicContentPart({ type: 'file', file: { file_data: 'data:image/webp;base64,UklGRg==' } })).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/webp', data: 'UklGRg==' },
    });
  });

  it('leaves out what Anthropic cannot take: audio, empty text, another store’s file ids', () => {
    expect(convertToAnthropicContentPart({ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } })).toBeUndefined();
    expect(convertToAnthropicContentPart({ type: 'text', text: '' })).toBeUndefined();
    expect(convertToAnthropicContentPart({ type: 'file', file: { file_id: 'file-abc' } })).toBeUndefined();
  });
});
