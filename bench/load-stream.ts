// Streaming first-byte and whole-stream times (see streams.ts).
import { loadMain } from './load-main.js';
import { runStreams } from './streams.js';

loadMain(runStreams);
