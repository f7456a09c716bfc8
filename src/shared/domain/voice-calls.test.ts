import { describe, expect, test } from 'vitest';
import {
  CALL_NOT_DELIVERED,
  callKeyOf,
  callOutcomeOf,
  callOutcomeWords,
  isCallDelivered,
  isMachine,
} from './voice-calls';

describe('what a call came to', () => {
  test.each([
    ['queued', undefined, null],
    ['initiated', undefined, null],
    ['ringing', undefined, null],
    ['in-progress', 'human', null],
    ['completed', undefined, 'answered'],
    ['completed', 'human', 'answered'],
    ['completed', 'unknown', 'answered'],
    ['completed', 'machine_start', 'machine'],
    ['completed', 'machine_end_beep', 'machine'],
    ['completed', 'fax', 'machine'],
    ['busy', undefined, 'busy'],
    ['no-answer', undefined, 'no-answer'],
    ['failed', undefined, 'failed'],
    ['canceled', undefined, 'canceled'],
    ['surprise', undefined, null],
    [undefined, undefined, null],
  ] as const)('status %s answered by %s: %s', (status, answeredBy, outcome) => {
    expect(callOutcomeOf(status, answeredBy)).toBe(outcome);
  });

  test('only a call a person answered counts as delivered', () => {
    expect(isCallDelivered('answered')).toBe(true);
    for (const outcome of ['no-answer', 'busy', 'failed', 'canceled', 'machine'] as const) {
      expect(isCallDelivered(outcome)).toBe(false);
      expect(CALL_NOT_DELIVERED[outcome]).toMatch(/^(The|An) /);
    }
  });

  test('machines and faxes are machines; people and unknown are not', () => {
    expect(isMachine('machine_end_silence')).toBe(true);
    expect(isMachine('fax')).toBe(true);
    expect(isMachine('human')).toBe(false);
    expect(isMachine('unknown')).toBe(false);
    expect(isMachine(null)).toBe(false);
    expect(isMachine('faxes')).toBe(false);
  });
});

describe('the keys', () => {
  test.each([
    ['1', '1'],
    [' 2 ', '2'],
    ['3', '3'],
    ['4', null],
    ['12', null],
    ['', null],
    [null, null],
    ['#', null],
  ] as const)('Digits %j: key %s', (digits, key) => {
    expect(callKeyOf(digits)).toBe(key);
  });

  test.each([
    ['answered', '1', 'answered, pressed 1 to acknowledge'],
    ['answered', '2', 'answered, pressed 2 to escalate'],
    ['answered', '3', 'answered, pressed 3 to hear it again'],
    ['answered', null, 'answered, no key pressed'],
    ['no-answer', null, 'not answered'],
    ['busy', null, 'busy'],
    ['machine', null, 'answered by a machine, nothing said'],
  ] as const)('%s with key %s reads "%s"', (outcome, key, words) => {
    expect(callOutcomeWords(outcome, key)).toBe(words);
  });
});
