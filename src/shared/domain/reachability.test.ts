import { describe, expect, test } from 'vitest';
import { reachGapWords, reachOf } from './reachability';

const phone = '+15550100001';

describe('reachOf', () => {
  test('each method with why not: email reaches, SMS with a phone, calls and push not set up', () => {
    const reach = reachOf({ phone, notificationPreference: 'both', notificationRules: null });
    expect(reach.methods).toEqual([
      { method: 'email', whyNot: null },
      { method: 'sms', whyNot: null },
      { method: 'voice', whyNot: 'Phone calls are not set up yet' },
      { method: 'push', whyNot: 'No device is set up for push' },
    ]);
    expect(reach.gaps).toEqual([]);
  });

  test('calls reach once Twilio is set up, push once a device is (decisions 252, 253)', () => {
    const reach = reachOf(
      { phone, notificationPreference: 'email', notificationRules: null },
      {},
      { voice: true, pushDevices: 1 },
    );
    expect(reach.methods.map((m) => m.whyNot)).toEqual([null, null, null, null]);
    const noPhone = reachOf(
      { phone: null, notificationPreference: 'email', notificationRules: null },
      {},
      { voice: true, pushDevices: 0 },
    );
    expect(noPhone.methods.slice(2)).toEqual([
      { method: 'voice', whyNot: 'Phone calls need a phone number on the profile' },
      { method: 'push', whyNot: 'No device is set up for push' },
    ]);
  });

  test("the server's missing setting comes before the profile's", () => {
    const reach = reachOf(
      { phone, notificationPreference: 'sms', notificationRules: null },
      { sms: 'SMS is not configured on this server' },
    );
    expect(reach.methods[1]).toEqual({
      method: 'sms',
      whyNot: 'SMS is not configured on this server',
    });
  });

  test('rules none of which can reach an urgency leave a gap, with why', () => {
    const reach = reachOf({
      phone: null,
      notificationPreference: 'email',
      notificationRules: {
        high: [
          { method: 'sms', delayMinutes: 0 },
          { method: 'push', delayMinutes: 1 },
        ],
        low: [{ method: 'email', delayMinutes: 0 }],
      },
    });
    expect(reach.gaps).toEqual([
      {
        urgency: 'high',
        reasons: ['SMS needs a phone number on the profile', 'No device is set up for push'],
      },
    ]);
    expect(reachGapWords(reach.gaps)).toBe(
      'high urgency: SMS needs a phone number on the profile; No device is set up for push',
    );
  });

  test('without rules of their own, the preference always reaches (email at least)', () => {
    expect(
      reachOf({ phone: null, notificationPreference: 'sms', notificationRules: null }).gaps,
    ).toEqual([]);
  });
});
