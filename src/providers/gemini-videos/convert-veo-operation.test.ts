import { describe, expect, it } from 'vitest';
import { fromVeoOperation, veoSamples } from './convert-veo-operation.js';

const NAME = 'models/veo-3.1-generate-preview/operations/zkh6hz5ixj9b';
const URI = 'https://generativelanguage.googleapis.com/v1beta/files/3kkzs5uvd0ak:download?alt=media';
const done = (generateVideoResponse: Record<string, unknown>) => ({
  name: NAME,
  done: true,
  response: { '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse', generateVideoResponse },
});

describe('Veo operations', () => {
  it('runs until done: the create answer (name only) and a poll with metadata', () => {
    expect(fromVeoOperation({ name: NAME })).toEqual({ status: 'in_progress', upstreamId: NAME });
    expect(fromVeoOperation({ name: NAME, done: false, metadata: {} })).toEqual({ status: 'in_progress', upstreamId: NAME });
  });

  it('completes with one output per generated sample; Veo does not report seconds', () => {
    const body = done({ generatedSamples: [{ video: { uri: URI } }, { video: { uri: `${URI}2` } }] });
    expect(fromVeoOperation(body)).toEqual({ status: 'completed', upstreamId: NAME, seconds: null, outputs: 2 });
    expect(veoSamples(body)).toEqual([{ uri: URI }, { uri: `${URI}2` }]);
    expect(veoSamples(done({ generatedSamples: [{ video: { encodedVideo: 'AAAA', encoding: 'video/mp4' } }] }))).toEqual([
      { bytes: 'AAAA', mimeType: 'video/mp4' },
    ]);
  });

  it('fails with the operation’s error, or cancels for code CANCELLED', () => {
    expect(fromVeoOperation({ name: NAME, done: true, error: { code: 13, message: 'Internal error' } })).toEqual({
      status: 'failed',
      upstreamId: NAME,
      message: 'Internal error',
    });
    expect(fromVeoOperation({ name: NAME, done: true, error: { code: 1, message: 'Operation cancelled' } })).toMatchObject({
      status: 'cancelled',
    });
  });

  it('fails a result whose videos Responsible AI filtered, with Google’s reasons', () => {
    const filtered = done({ raiMediaFilteredCount: 1, raiMediaFilteredReasons: ["We can't create videos of that person."] });
    expect(fromVeoOperation(filtered)).toEqual({
      status: 'failed',
      upstreamId: NAME,
      message: "Veo filtered the video: We can't create videos of that person.",
    });
    expect(fromVeoOperation(done({}))).toMatchObject({ status: 'failed', message: 'Veo finished without a video' });
  });

  it('is not an operation without a name', () => {
    expect(fromVeoOperation({ done: true })).toBeUndefined();
    expect(fromVeoOperation('nope')).toBeUndefined();
  });
});
