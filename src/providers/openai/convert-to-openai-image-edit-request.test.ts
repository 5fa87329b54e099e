import { describe, expect, it } from 'vitest';
import { convertToOpenAIImageEditRequest } from './convert-to-openai-image-edit-request.js';

const image = (name: string) => ({ bytes: Buffer.from(name), filename: `${name}.png`, contentType: 'image/png' });
const request = { model: 'm', prompt: 'a cat', response_format: 'b64_json' as const, n: 2, style: 'vivid' };

describe('convertToOpenAIImageEditRequest', () => {
  it('sends one image as `image`, the fields as text, mask and input fidelity, and no style', async () => {
    const form = convertToOpenAIImageEditRequest(
      { ...request, images: [image('a')], mask: image('m'), input_fidelity: 'high' },
      { upstreamModel: 'gpt-image-1' },
      undefined,
      true,
    );
    expect([...form.keys()]).toEqual(['model', 'prompt', 'n', 'stream', 'image', 'mask', 'input_fidelity']);
    expect(form.get('n')).toBe('2');
    expect(form.get('stream')).toBe('true');
    const file = form.get('image') as File;
    expect([file.name, file.type, await file.text()]).toEqual(['a.png', 'image/png', 'a']);
  });

  it('sends several images as `image[]`', () => {
    const form = convertToOpenAIImageEditRequest({ ...request, images: [image('a'), image('b')] }, { upstreamModel: 'gpt-image-1' });
    expect(form.getAll('image[]').map((f) => (f as File).name)).toEqual(['a.png', 'b.png']);
    expect(form.has('image')).toBe(false);
  });
});
