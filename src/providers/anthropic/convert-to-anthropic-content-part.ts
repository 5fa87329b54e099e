import type { ContentPart, TextPart } from '../../protocol/chat.js';
import { parseDataUrl } from '../shared/parse-data-url.js';
import type { AnthropicContentBlock, AnthropicSource, AnthropicTextBlock } from './anthropic-messages-api-types.js';

/**
 * The Anthropic block for a part of user content, or undefined for a part
 * Anthropic cannot take: audio (Claude has no audio input), empty text
 * (refused as an empty block) and files by id (ids of another provider's
 * file store). Images go by URL or inline base64; other files are
 * documents (PDF, plain text), likewise.
 */
export function convertToAnthropicContentPart(part: ContentPart): AnthropicContentBlock | undefined {
  switch (part.type) {
    case 'text':
      return convertToAnthropicTextPart(part);
    case 'image_url':
      return { type: 'image', source: sourceOf(part.image_url.url) };
    case 'file': {
      const { file_data: data, filename } = part.file;
      if (data === undefined) return undefined;
      const source = sourceOf(data);
      if (source.type === 'base64' && source.media_type.startsWith('image/')) return { type: 'image', source };
      return filename ? { type: 'document', source, title: filename } : { type: 'document', source };
    }
    case 'input_audio':
      return undefined;
  }
}

/** A text block with its cache breakpoint; none for empty text, which Anthropic refuses. */
export function convertToAnthropicTextPart(part: TextPart): AnthropicTextBlock | undefined {
  if (part.text === '') return undefined;
  return part.cache_control ? { type: 'text', text: part.text, cache_control: part.cache_control } : { type: 'text', text: part.text };
}

function sourceOf(url: string): AnthropicSource {
  const inline = parseDataUrl(url);
  return inline ? { type: 'base64', media_type: inline.mediaType, data: inline.data } : { type: 'url', url };
}
