import { expect, it } from 'vitest';
import { toUpstreamVideoRequest } from './upstream-video-request.js';

it('keeps the serving provider’s allowed options, by its id first, then by the protocol’s reference slug', () => {
  const request = {
    model: 'google/veo-3.1',
    prompt: 'p',
    provider: {
      only: ['google'],
      options: { google: { negativePrompt: 'rain', secret: 1 }, 'google-ai-studio': { negativePrompt: 'snow' }, openai: { x: 1 } },
    },
  };
  expect(toUpstreamVideoRequest(request, 'google', 'google-ai-studio', ['negativePrompt'])).toEqual({
    model: 'google/veo-3.1',
    prompt: 'p',
    passthrough: { negativePrompt: 'rain' },
  });
  expect(toUpstreamVideoRequest(request, 'veo-eu', 'google-ai-studio', ['negativePrompt']).passthrough).toEqual({ negativePrompt: 'snow' });
  expect(toUpstreamVideoRequest({ model: 'm' }, 'google', 'google-ai-studio', ['negativePrompt']).passthrough).toEqual({});
});
