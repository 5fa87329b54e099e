import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { PdfText } from './extract-pdf-text.js';

export interface CachedPdfText extends PdfText {
  /** SHA-256 of the file, hex: the cache key, also shown in the pipeline entry. */
  sha256: string;
  cached: boolean;
}

/**
 * Parsed PDF text by content hash, least recently used out first, bounded by
 * the characters it holds. The same file sent again (every turn of a
 * conversation resends it) is parsed once; concurrent requests for the same
 * file share one parse.
 */
export class PdfTextCache {
  private readonly cache: LRUCache<string, PdfText, Uint8Array>;

  constructor(parse: (bytes: Uint8Array) => Promise<PdfText>, maxCharacters = 50_000_000) {
    this.cache = new LRUCache<string, PdfText, Uint8Array>({
      maxSize: maxCharacters,
      sizeCalculation: (value) => Math.max(1, value.text.length),
      fetchMethod: (_key, _stale, { context }) => parse(context),
    });
  }

  async text(bytes: Uint8Array): Promise<CachedPdfText> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const cached = this.cache.has(sha256);
    const value = await this.cache.fetch(sha256, { context: bytes });
    // fetchMethod never resolves undefined; a failed parse rejects and is not kept.
    return { ...(value as PdfText), sha256, cached };
  }
}
