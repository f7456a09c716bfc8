import { describe, expect, it } from 'vitest';
import { delayText, listInWords, recipientText, targetText } from './policy-text';

describe('policy text', () => {
  it('names a recipient with their reasons and channels', () => {
    expect(
      recipientText({
        userId: 1,
        name: 'Priya Shah',
        reasons: ['holder'],
        channels: ['sms', 'email'],
      }),
    ).toBe('Priya Shah (holder), by SMS and email');
    expect(
      recipientText({
        userId: 2,
        name: 'Sam Lee',
        reasons: ['member', 'named'],
        channels: ['email'],
      }),
    ).toBe('Sam Lee (member, named), by email');
  });

  it('joins lists and counts minutes in words', () => {
    expect(listInWords([])).toBe('');
    expect(listInWords(['a'])).toBe('a');
    expect(listInWords(['a', 'b', 'c'])).toBe('a, b and c');
    expect(delayText(1)).toBe('1 minute');
    expect(delayText(30)).toBe('30 minutes');
  });

  it('names what a target reaches', () => {
    expect(targetText('rotation-holder', 'Database')).toBe("Database's holder");
    expect(targetText('rotation-next', 'Database')).toBe("Database's next on call");
    expect(targetText('rotation-backup', 'Database')).toBe("Database's backup");
    expect(targetText('rotation-members', 'Database')).toBe('every member of Database');
    expect(targetText('user', 'Sam Lee')).toBe('Sam Lee');
  });
});
