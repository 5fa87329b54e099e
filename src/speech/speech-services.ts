import type { Run } from '../chat/run.js';
import type { RunServices } from '../chat/run-services.js';
import type { SpeechAdapter } from '../protocol/adapters.js';
import type { SpeechRequest } from '../protocol/speech.js';

/** What the speech flow needs beyond the request; built once in app.ts. */
export interface SpeechServices extends RunServices {
  adapters: Readonly<Record<string, SpeechAdapter>>;
  /** How long an SSE speech waits for its first upstream event before sending keep-alive comments. */
  keepAliveAfterMs: number;
}

export type SpeechRun = Run<SpeechRequest>;
