import { describe, expect, it } from 'vitest';
import { multipleChoice } from './multiple-choice.js';

describe('multipleChoice', () => {
  it('weighs each lettered option by the words the rest of the message shares with it, likeliest first', () => {
    const odds = multipleChoice(
      'State:\nmy invoice shows a double charge\n\nA. Login problems\nB. Invoice and charge problems\n\nAnswer with one letter: A or B.',
    )!;
    expect(odds.map((o) => o.letter)).toEqual(['B', 'A']);
    expect(odds[0]!.probability).toBeGreaterThan(odds[1]!.probability);
    expect(odds.reduce((sum, o) => sum + o.probability, 0)).toBeCloseTo(0.97, 12);
  });

  it('is no multiple-choice question without lettered options and a request for one letter', () => {
    expect(multipleChoice('A. one\nB. two')).toBeUndefined();
    expect(multipleChoice('Answer with one letter, please.')).toBeUndefined();
  });
});
