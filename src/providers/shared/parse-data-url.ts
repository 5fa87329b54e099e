/** RFC 2397: `data:[<media type>][;parameter…][;base64],<data>`. */
const DATA_URL = /^data:([^,]*),(.*)$/s;

/**
 * The media type and base64 payload of a data URL, the way chat clients
 * inline images and files (a payload that is not base64 is percent-decoded
 * and encoded); undefined for any other URL, which the provider then fetches
 * itself. The media type defaults to text/plain, as the RFC says.
 */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  const [type = '', ...parameters] = (match[1] ?? '').split(';');
  const payload = match[2] ?? '';
  return {
    mediaType: type.trim().toLowerCase() || 'text/plain',
    data: parameters.some((parameter) => parameter.toLowerCase() === 'base64')
      ? payload
      : Buffer.from(decodeURIComponent(payload)).toString('base64'),
  };
}
