import { describe, expect, test } from 'vitest';
import { NotificationRulesSchema } from '../contracts/notification-rules';
import {
  delayWords,
  phoneRuleProblem,
  planRules,
  preferenceRules,
  RULE_UNREACHABLE,
  rulesPreview,
  rulesWords,
  ruleUrgencyOf,
  unreachableReason,
} from './notification-rules';

const PHONE = '+15551234567';

describe('the rules a preference means', () => {
  test.each([
    ['email', PHONE, [{ method: 'email', delayMinutes: 0 }]],
    ['sms', PHONE, [{ method: 'sms', delayMinutes: 0 }]],
    [
      'both',
      PHONE,
      [
        { method: 'email', delayMinutes: 0 },
        { method: 'sms', delayMinutes: 0 },
      ],
    ],
    // SMS without a usable number goes by email, as the preference does.
    ['sms', null, [{ method: 'email', delayMinutes: 0 }]],
    ['both', '555-0100', [{ method: 'email', delayMinutes: 0 }]],
  ] as const)('%s with phone %s: high urgency %j, low urgency email', (preference, phone, high) => {
    expect(preferenceRules(preference, phone)).toEqual({
      high,
      low: [{ method: 'email', delayMinutes: 0 }],
    });
  });
});

test('medium urgency follows high; low is low', () => {
  expect(ruleUrgencyOf('high')).toBe('high');
  expect(ruleUrgencyOf('medium')).toBe('high');
  expect(ruleUrgencyOf('low')).toBe('low');
});

describe('which rules reach a person', () => {
  test.each([
    ['email', null, null],
    ['sms', PHONE, null],
    ['sms', null, RULE_UNREACHABLE.noPhoneSms],
    ['sms', '12345', RULE_UNREACHABLE.noPhoneSms],
    ['voice', PHONE, 'Phone calls are not set up yet'],
    ['voice', null, RULE_UNREACHABLE.noPhoneVoice],
    ['push', PHONE, 'No device is set up for push'],
  ] as const)('%s with phone %s: %s', (method, phone, reason) => {
    expect(unreachableReason(method, phone)).toBe(reason);
  });

  test('push reaches a person with a device set up for push (decision 253)', () => {
    expect(unreachableReason('push', null, { pushDevices: 0 })).toBe(RULE_UNREACHABLE.noPushDevice);
    expect(unreachableReason('push', null, { pushDevices: 2 })).toBeNull();
    const plan = planRules(
      [
        { method: 'push', delayMinutes: 0 },
        { method: 'email', delayMinutes: 2 },
      ],
      null,
      { pushDevices: 1 },
    );
    expect(plan.deliveries).toEqual([
      { channel: 'push', delayMinutes: 0 },
      { channel: 'email', delayMinutes: 2 },
    ]);
    expect(plan.skipped).toEqual([]);
  });

  test('with Twilio configured a call reaches a person with a phone (decision 252)', () => {
    expect(unreachableReason('voice', PHONE, { voice: true })).toBeNull();
    expect(unreachableReason('voice', null, { voice: true })).toBe(RULE_UNREACHABLE.noPhoneVoice);
    expect(unreachableReason('voice', PHONE, { voice: false })).toBe(
      RULE_UNREACHABLE.voiceNotSetUp,
    );
    const plan = planRules(
      [
        { method: 'sms', delayMinutes: 0 },
        { method: 'voice', delayMinutes: 1 },
      ],
      PHONE,
      { voice: true },
    );
    expect(plan.deliveries).toEqual([
      { channel: 'sms', delayMinutes: 0 },
      { channel: 'voice', delayMinutes: 1 },
    ]);
    expect(plan.skipped).toEqual([]);
  });

  test('a rule that needs a phone cannot be saved without one; calls and push can with one', () => {
    expect(phoneRuleProblem('sms', null)).toBe(RULE_UNREACHABLE.noPhoneSms);
    expect(phoneRuleProblem('voice', '')).toBe(RULE_UNREACHABLE.noPhoneVoice);
    expect(phoneRuleProblem('email', null)).toBeNull();
    expect(phoneRuleProblem('push', null)).toBeNull();
    expect(phoneRuleProblem('voice', PHONE)).toBeNull();
  });

  test('the plan sends what reaches, each once, and skips the rest with why', () => {
    const plan = planRules(
      [
        { method: 'sms', delayMinutes: 0 },
        { method: 'voice', delayMinutes: 3 },
        { method: 'email', delayMinutes: 1 },
        { method: 'sms', delayMinutes: 0 },
        { method: 'push', delayMinutes: 0 },
      ],
      PHONE,
    );
    expect(plan.deliveries).toEqual([
      { channel: 'sms', delayMinutes: 0 },
      { channel: 'email', delayMinutes: 1 },
    ]);
    expect(plan.skipped).toEqual([
      { method: 'voice', delayMinutes: 3, reason: RULE_UNREACHABLE.voiceNotSetUp },
      { method: 'push', delayMinutes: 0, reason: RULE_UNREACHABLE.noPushDevice },
    ]);
    expect(plan.emailInstead).toBe(false);
  });

  test('rules that reach nobody send the page by email at once instead', () => {
    const plan = planRules([{ method: 'sms', delayMinutes: 5 }], null);
    expect(plan.deliveries).toEqual([{ channel: 'email', delayMinutes: 0 }]);
    expect(plan.skipped).toEqual([
      { method: 'sms', delayMinutes: 5, reason: RULE_UNREACHABLE.noPhoneSms },
    ]);
    expect(plan.emailInstead).toBe(true);
  });
});

describe('the preview in words', () => {
  test.each([
    [0, 'at once'],
    [1, 'after 1 minute'],
    [3, 'after 3 minutes'],
  ])('%i minutes: %s', (minutes, words) => {
    expect(delayWords(minutes)).toBe(words);
  });

  test('each urgency in delay order', () => {
    expect(
      rulesPreview({
        high: [
          { method: 'email', delayMinutes: 1 },
          { method: 'sms', delayMinutes: 0 },
        ],
        low: [{ method: 'email', delayMinutes: 0 }],
      }),
    ).toBe('High urgency: SMS at once, email after 1 minute; low urgency: email at once');
    expect(
      rulesWords([
        { method: 'push', delayMinutes: 0 },
        { method: 'voice', delayMinutes: 3 },
        { method: 'sms', delayMinutes: 1 },
      ]),
    ).toBe('push at once, SMS after 1 minute, call after 3 minutes');
  });
});

describe('the contract', () => {
  const valid = {
    high: [{ method: 'sms', delayMinutes: 0 }],
    low: [{ method: 'email', delayMinutes: 60 }],
  };

  test('takes rules of every method with whole delays 0 to 60', () => {
    expect(NotificationRulesSchema.safeParse(valid).success).toBe(true);
  });

  test.each([
    [{ ...valid, high: [valid.high[0], { method: 'pager', delayMinutes: 0 }] }, 'high.1.method'],
    [{ ...valid, low: [{ method: 'email', delayMinutes: 61 }] }, 'low.0.delayMinutes'],
    [{ ...valid, low: [{ method: 'email', delayMinutes: -1 }] }, 'low.0.delayMinutes'],
    [{ ...valid, high: [{ method: 'email', delayMinutes: 1.5 }] }, 'high.0.delayMinutes'],
    [{ ...valid, high: [] }, 'high'],
    [{ ...valid, high: Array(9).fill(valid.high[0]) }, 'high'],
    [{ high: valid.high }, 'low'],
  ])('refuses %j naming %s', (input, field) => {
    const parsed = NotificationRulesSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].path.join('.')).toBe(field);
  });
});
