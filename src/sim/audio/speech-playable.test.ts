import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasFfmpeg } from '../has-ffmpeg.testing.js';
import { tonePcm } from './sim-audio.js';
import { speechAudio } from './speech-route.js';

/** ffprobe's and ffmpeg's reading of raw PCM needs its format said; the containers say theirs. */
const RAW = ['-f', 's16le', '-ar', '24000', '-ac', '1'];

/**
 * The simulator's speech must be audio a player plays in every format OpenAI
 * serves, not only well-formed headers: ffprobe names the codec, and ffmpeg
 * decodes every frame without an error (-xerror) to as many samples as the
 * text takes to say. (.ci/run installs ffmpeg.)
 */
describe.skipIf(!hasFfmpeg)('the simulator’s speech, played', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-speech-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // 5 seconds at speed 1; at speed 0.25, 82 seconds (FLAC frame numbers past 127, Ogg pages past one second).
  const long = 'x'.repeat(1_024);

  it.each([
    ['mp3', 'mp3', 48_000],
    ['opus', 'opus', 48_000],
    ['aac', 'aac', 24_000],
    ['flac', 'flac', 24_000],
    ['wav', 'pcm_s16le', 24_000],
    ['pcm', 'pcm_s16le', 24_000],
  ])('%s is %s that decodes whole, as long as the text', (format, codec, rate) => {
    for (const [input, speed] of [
      ['Hi', 1],
      [long, 0.25],
    ] as const) {
      const file = join(dir, `speech.${format}`);
      writeFileSync(file, speechAudio({ input, format, speed }));
      const raw = format === 'pcm' ? RAW : [];
      const probe = execFileSync(
        'ffprobe',
        ['-v', 'error', ...raw, '-show_entries', 'stream=codec_name,sample_rate,channels', '-of', 'json', file],
        {
          encoding: 'utf8',
        },
      );
      expect(JSON.parse(probe).streams[0]).toMatchObject({ codec_name: codec, sample_rate: String(rate), channels: 1 });
      const decoded = execFileSync('ffmpeg', ['-v', 'error', '-xerror', ...raw, '-i', file, '-f', 's16le', '-ar', '24000', '-'], {
        maxBuffer: 64 * 1024 * 1024,
      });
      const expected = tonePcm([...input].length, speed);
      // Lossless formats give the tone back exactly; the silent ones its length, within a frame (MP3's 1,152 samples at 48 kHz).
      if (['flac', 'wav', 'pcm'].includes(format)) expect(decoded.equals(expected)).toBe(true);
      else expect(Math.abs(decoded.length - expected.length)).toBeLessThanOrEqual(4_096);
    }
  });
});
