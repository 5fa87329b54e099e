import { describe, expect, it } from 'vitest';
import type { UpstreamTranscription } from '../protocol/transcription.js';
import { renderTranscription, timestamp } from './render-transcription.js';

const answer: UpstreamTranscription = {
  text: 'Hello there. General Kenobi.',
  language: 'english',
  segments: [
    { id: 0, start: 0, end: 1.25, text: ' Hello there.' },
    { id: 1, start: 1.25, end: 3723.5, text: ' General Kenobi.' },
  ],
};
const usage = { type: 'duration', seconds: 3724 };

describe('renderTranscription', () => {
  it('writes times as SubRip and WebVTT do', () => {
    expect(timestamp(3723.5, ',')).toBe('01:02:03,500');
    expect(timestamp(0.0004, '.')).toBe('00:00:00.000');
  });

  it('answers json and text as OpenAI does', () => {
    expect(renderTranscription('json', answer, 3723.5, usage)).toEqual({
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ text: answer.text, usage }),
    });
    expect(renderTranscription('text', answer, 3723.5, usage).body).toBe(`${answer.text}\n`);
  });

  it('numbers the segments as SubRip cues', () => {
    expect(renderTranscription('srt', answer, 3723.5, usage).body).toBe(
      '1\n00:00:00,000 --> 00:00:01,250\nHello there.\n\n2\n00:00:01,250 --> 01:02:03,500\nGeneral Kenobi.\n',
    );
  });

  it('writes WebVTT with its header, and one cue over the audio when no segment came', () => {
    const rendered = renderTranscription('vtt', { text: 'Hi.' }, 2, usage);
    expect(rendered).toEqual({ contentType: 'text/vtt; charset=utf-8', body: 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nHi.\n' });
  });

  it('answers verbose_json with the task, language, duration, segments and usage', () => {
    expect(JSON.parse(renderTranscription('verbose_json', answer, 3723.5, usage).body)).toEqual({
      task: 'transcribe',
      language: 'english',
      duration: 3723.5,
      text: answer.text,
      segments: answer.segments,
      usage,
    });
  });
});
