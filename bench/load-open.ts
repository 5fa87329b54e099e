// Open-loop latency at a fixed request rate (see open-loop.ts).
import { loadMain } from './load-main.js';
import { runOpenLoop } from './open-loop.js';

loadMain(runOpenLoop);
