import { expect, it } from 'vitest';
import { videoCost } from './video-cost.js';

it('prices seconds of video at video_second, less the discount', () => {
  expect(videoCost({ prompt: 0, completion: 0, video_second: 0.1 }, 8)).toBeCloseTo(0.8);
  expect(videoCost({ prompt: 0, completion: 0, video_second: 0.1, discount: 0.5 }, 4)).toBeCloseTo(0.2);
  expect(videoCost({ prompt: 0, completion: 0 }, 4)).toBe(0);
});

it('prices a size or resolution listed in video_second_by_size at its own rate, the size first', () => {
  const pricing = { prompt: 0, completion: 0, video_second: 0.3, video_second_by_size: { '1792x1024': 0.5, '1080p': 0.5 } };
  expect(videoCost(pricing, 4, { size: '1792x1024' })).toBeCloseTo(2);
  expect(videoCost(pricing, 4, { resolution: '1080p', aspect_ratio: '16:9' } as { resolution: string })).toBeCloseTo(2);
  expect(videoCost(pricing, 4, { size: '1280x720', resolution: '1080p' })).toBeCloseTo(1.2);
  expect(videoCost(pricing, 4, { resolution: '720p' })).toBeCloseTo(1.2);
  expect(videoCost(pricing, 4)).toBeCloseTo(1.2);
});

it('is a finite amount ≥ 0 whatever it is given', () => {
  expect(videoCost({ prompt: 0, completion: 0, video_second: 0.1 }, 1e308 * 10)).toBe(0);
  expect(videoCost({ prompt: 0, completion: 0, video_second: 0.1 }, -4)).toBe(0);
  expect(videoCost({ prompt: 0, completion: 0, video_second: 0.1 }, NaN)).toBe(0);
});
