import { makeMp4 } from './make-mp4.js';

let fixture: Buffer | undefined;

/**
 * The one video every simulated job "renders": made by make-mp4.ts, byte for
 * byte the kept fixture.mp4 (make-mp4.test.ts checks it), so an install
 * without src/ serves it too.
 */
export const fixtureMp4 = (): Buffer => (fixture ??= makeMp4());
