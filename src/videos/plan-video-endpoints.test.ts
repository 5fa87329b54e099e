import { describe, expect, it } from 'vitest';
import { VIDEO } from '../catalog/defaults.js';
import type { Endpoint, Model } from '../catalog/types.js';
import { planVideoEndpoints } from './plan-video-endpoints.js';

const endpoint = (provider: string, video_second: number): Endpoint => ({
  provider,
  upstreamModel: 'm',
  pricing: { prompt: 0, completion: 0, video_second },
});
const model: Model = {
  id: 'acme/video',
  name: 'Video',
  description: '',
  created: 0,
  architecture: VIDEO,
  endpoints: [endpoint('dear', 0.5), endpoint('cheap', 0.1), endpoint('chat-only', 0.01)],
};
const makesVideo = (e: Endpoint) => e.provider !== 'chat-only';
const providers = (provider: Record<string, unknown> | undefined, random = () => 0.5) =>
  planVideoEndpoints(model, makesVideo, provider, random).attempts.map((a) => a.endpoint.provider);

describe('planVideoEndpoints', () => {
  it('plans only endpoints whose protocol makes video, cheaper per second first when draws are even', () => {
    expect(providers(undefined)).toEqual(['cheap', 'dear']);
  });

  it('follows order, sort, only and allow_fallbacks', () => {
    expect(providers({ order: ['dear'] })).toEqual(['dear', 'cheap']);
    expect(providers({ order: ['dear'], allow_fallbacks: false })).toEqual(['dear']);
    expect(providers({ sort: 'price' }, () => 0.99)).toEqual(['cheap', 'dear']);
    expect(providers({ only: ['dear'], options: { dear: { x: 1 } } })).toEqual(['dear']);
    expect(providers({ allow_fallbacks: false })).toEqual(['cheap']);
  });

  it('names the preference that left nothing', () => {
    const plan = planVideoEndpoints(model, makesVideo, { ignore: ['dear', 'cheap'] }, () => 0.5);
    expect(plan.attempts).toEqual([]);
    expect(plan.noEndpoint).toMatch(
      /^No endpoints found for acme\/video matching your provider preferences: provider\.ignore removed the last candidate/,
    );
  });
});
