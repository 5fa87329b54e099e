import { expect, it } from 'vitest';
import { videoCost } from './video-cost.js';

it('prices seconds of video at video_second, less the discount', () => {
  expect(videoCost({ prompt: 0, completion: 0, video_second: 0.1 }, 8)).toBeCloseTo(0.8);
  expect(videoCost({ prompt: 0, completion: 0, video_second: 0.1, discount: 0.5 }, 4)).toBeCloseTo(0.2);
  expect(videoCost({ prompt: 0, completion: 0 }, 4)).toBe(0);
});
