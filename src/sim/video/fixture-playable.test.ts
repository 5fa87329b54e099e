import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasFfmpeg } from '../has-ffmpeg.testing.js';

const FIXTURE = fileURLToPath(new URL('./fixture.mp4', import.meta.url));

/** The simulator's video must be one a player can play, not only well-formed boxes. (.ci/run installs ffmpeg.) */
describe.skipIf(!hasFfmpeg)('the simulator’s MP4 fixture', () => {
  it('is an H.264 video that ffprobe reads and ffmpeg decodes frame by frame without an error', () => {
    const probe = execFileSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name,width,height,nb_frames', '-of', 'json', FIXTURE],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(probe).streams[0]).toMatchObject({ codec_name: 'h264', width: 32, height: 32, nb_frames: '4' });
    const frames = execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', FIXTURE, '-f', 'framemd5', '-'], { encoding: 'utf8' });
    expect(frames.split('\n').filter((line) => line.startsWith('0,'))).toHaveLength(4);
  });
});
