import { describe, expect, it } from 'vitest';
import { readTranscriptionRequest, transcriptEvents } from './transcription-route.js';

/** A form encoded as a client sends it: its bytes and its content type (with the boundary). */
async function encoded(fields: Record<string, string>, file?: Blob) {
  const form = new FormData();
  if (file) form.append('file', file, 'a.wav');
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = new Response(form);
  return [Buffer.from(await response.arrayBuffer()), response.headers.get('content-type')!] as const;
}

const audio = new Blob([Buffer.from('RIFF....WAVE')]);

describe('the simulator’s reading of a transcription request', () => {
  it('reads OpenAI’s form', async () => {
    const read = await readTranscriptionRequest(
      ...(await encoded({ model: 'whisper-1', response_format: 'vtt', 'timestamp_granularities[]': 'word' }, audio)),
    );
    expect(read).toMatchObject({ ok: true, request: { model: 'whisper-1', format: 'vtt', granularities: ['word'], language: 'english' } });
  });

  it.each([
    ['no file', { model: 'whisper-1' }, undefined, "Missing required parameter: 'file'."],
    ['no model', {}, audio, 'you must provide a model parameter'],
    ['an unknown format', { model: 'whisper-1', response_format: 'xml' }, audio, "Invalid value: 'xml'."],
    ['a temperature of 3', { model: 'whisper-1', temperature: '3' }, audio, "Invalid value: '3'."],
    ['an empty file', { model: 'whisper-1' }, new Blob([]), 'Audio file is empty.'],
  ])('answers %s with OpenAI’s 400', async (_, fields, file, message) => {
    const read = await readTranscriptionRequest(...(await encoded(fields, file)));
    expect(read.ok ? undefined : [read.error.status, read.error.body.error.message]).toEqual([400, expect.stringContaining(message)]);
  });

  it('refuses a body that is not multipart', async () => {
    const read = await readTranscriptionRequest(Buffer.from('{}'), 'application/json');
    expect(read.ok ? undefined : read.error.body.error.message).toBe(
      'Invalid Content-Type header (application/json), expected multipart/form-data.',
    );
  });

  it('streams a delta per word, then the done event with the whole text and the usage', () => {
    const usage = { type: 'tokens', input_tokens: 10, output_tokens: 2, total_tokens: 12 };
    expect(transcriptEvents('Hi there.', usage).map((e) => JSON.parse(e))).toEqual([
      { type: 'transcript.text.delta', delta: 'Hi' },
      { type: 'transcript.text.delta', delta: ' there.' },
      { type: 'transcript.text.done', text: 'Hi there.', usage },
    ]);
    const [first] = transcriptEvents('Hi there.', usage, { logprobs: true }).map((e) => JSON.parse(e));
    expect(first.logprobs).toEqual([{ token: 'Hi', logprob: -0.01, bytes: [72, 105] }]);
  });
});
