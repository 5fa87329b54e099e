import { execFileSync } from 'node:child_process';

/** Whether ffprobe and ffmpeg are here, for the tests that check the simulator's media really plays (.ci/run installs them). */
export const hasFfmpeg = (() => {
  try {
    execFileSync('ffprobe', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
