/** Adapters append paths such as `/chat/completions`, so a trailing slash would double. */
export const normalizeBaseUrl = (url: string): string => url.replace(/\/+$/, '');
