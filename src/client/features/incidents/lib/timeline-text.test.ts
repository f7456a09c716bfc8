import type { TimelineEvent } from '@shared/contracts/incidents';
import { describe, expect, test } from 'vitest';
import {
  isTimelineProblem,
  listInWords,
  stepName,
  timelineDetail,
  timelineText,
} from './timeline-text';

const at = '2026-11-25T10:00:00.000Z';
const priya = { id: 2, name: 'Priya Shah' };
const noah = { id: 3, name: 'Noah Lee' };
const iris = { id: 4, name: 'Iris Incident' };

const event = (e: Partial<TimelineEvent> & Pick<TimelineEvent, 'kind'>): TimelineEvent => ({
  at,
  actor: null,
  ...e,
});

describe('timelineText', () => {
  test.each<[string, TimelineEvent, string]>([
    ['raised by a person', event({ kind: 'raised', actor: iris }), 'Raised by Iris Incident'],
    ['raised by a machine', event({ kind: 'raised' }), 'Raised'],
    [
      'raised by an integration',
      event({ kind: 'raised', source: 'Prometheus' }),
      'Raised by Prometheus (integration)',
    ],
    [
      'acknowledged by its integration',
      event({ kind: 'acknowledged', via: 'integration', source: 'Prometheus' }),
      'Acknowledged by Prometheus (integration)',
    ],
    [
      'resolved by its integration',
      event({ kind: 'resolved', via: 'integration', source: 'Prometheus' }),
      'Resolved by Prometheus (integration)',
    ],
    [
      'a changed alert',
      event({ kind: 'alert', source: 'Prometheus', alertOutcome: 'updated' }),
      'Alert from Prometheus changed: a new event',
    ],
    [
      'an alert folded into a storm',
      event({ kind: 'alert', source: 'Prometheus', alertOutcome: 'folded' }),
      'Alert from Prometheus folded into this storm',
    ],
    [
      'a step reached',
      event({
        kind: 'step_reached',
        step: 2,
        loop: 1,
        notified: [{ ...priya, reasons: ['holder'] }],
        automatic: true,
      }),
      'Step 2 reached: Priya Shah (holder)',
    ],
    [
      'a step reached in the second loop, with two people and a skip',
      event({
        kind: 'step_reached',
        step: 1,
        loop: 2,
        notified: [
          { ...priya, reasons: ['holder', 'member'] },
          { ...noah, reasons: ['member'] },
        ],
        skipped: [
          {
            target: { type: 'user', id: 9 },
            reason: 'person without a channel',
            person: { id: 9, name: 'Sam Sullivan' },
          },
        ],
      }),
      'Step 1 (loop 2) reached: Priya Shah (holder, member) and Noah Lee (member)',
    ],
    [
      'a step reached that notified nobody',
      event({ kind: 'step_reached', step: 1, loop: 1, notified: [] }),
      'Step 1 reached: nobody notified',
    ],
    [
      'a reminder',
      event({ kind: 'reminder', step: 2, loop: 1, notified: [{ ...priya, reasons: ['holder'] }] }),
      'Reminder at step 2: Priya Shah (holder)',
    ],
    [
      'a step skipped',
      event({
        kind: 'step_skipped',
        step: 3,
        loop: 1,
        skipReason: 'rotation suspended',
        skipped: [
          {
            target: { type: 'rotation-holder', id: 1 },
            reason: 'rotation suspended',
            person: null,
          },
        ],
      }),
      'Step 3 skipped: rotation suspended',
    ],
    [
      'a step skipped for several reasons',
      event({
        kind: 'step_skipped',
        step: 2,
        loop: 1,
        skipReason: 'nobody to notify',
        skipped: [
          {
            target: { type: 'rotation-holder', id: 1 },
            reason: 'rotation suspended',
            person: null,
          },
          { target: { type: 'user', id: 9 }, reason: 'person deleted', person: null },
        ],
      }),
      'Step 2 skipped: the holder (rotation suspended) and a named person (person deleted)',
    ],
    [
      'an email sent',
      event({ kind: 'notified', to: priya, channel: 'email', delivery: 'sent' }),
      'Email to Priya Shah sent',
    ],
    [
      'an SMS that failed and was retried',
      event({
        kind: 'notified',
        to: noah,
        channel: 'sms',
        delivery: 'retried',
        error: 'the number is unreachable',
      }),
      'SMS to Noah Lee failed: the number is unreachable, retrying',
    ],
    [
      'an SMS that failed',
      event({ kind: 'notified', to: noah, channel: 'sms', delivery: 'failed', error: 'rejected' }),
      'SMS to Noah Lee failed: rejected',
    ],
    [
      'an email not sent yet',
      event({ kind: 'notified', to: priya, channel: 'email', delivery: 'pending' }),
      'Email to Priya Shah waiting to be sent',
    ],
    [
      'an email a notification rule delayed (decision 251)',
      event({
        kind: 'notified',
        to: priya,
        channel: 'email',
        delivery: 'pending',
        dueAt: '2026-11-25T10:01:00.000Z',
      }),
      'Email to Priya Shah due after 1 minute (notification rule)',
    ],
    [
      'an email the acknowledgement stopped',
      event({
        kind: 'notified',
        to: priya,
        channel: 'email',
        delivery: 'stopped',
        error: 'the incident was acknowledged before it was due',
      }),
      'Email to Priya Shah stopped: the incident was acknowledged before it was due',
    ],
    [
      'a low-urgency email held to the working hours (decision 254)',
      event({
        kind: 'notified',
        to: priya,
        channel: 'email',
        delivery: 'pending',
        held: 'working-hours',
        dueAt: new Date(Date.parse(at) + 13 * 3_600_000).toISOString(),
      }),
      'Email to Priya Shah held until their working hours begin, in 13 hours',
    ],
    [
      'an SMS the limit holds (decision 254)',
      event({
        kind: 'notified',
        to: noah,
        channel: 'sms',
        delivery: 'pending',
        held: 'limit',
        dueAt: new Date(Date.parse(at) + 14 * 60_000).toISOString(),
      }),
      'SMS to Noah Lee held by the limit for 14 minutes, then bundled',
    ],
    [
      'an SMS the limit held and bundled into another (decision 254)',
      event({
        kind: 'notified',
        to: noah,
        channel: 'sms',
        delivery: 'bundled',
        held: 'limit',
        error: 'Held by the limit and bundled into notification 41',
      }),
      'SMS to Noah Lee held by the limit, then sent in one bundle with the others held',
    ],
    [
      'a call the limit holds, its words emailed at once (decision 265)',
      event({
        kind: 'notified',
        to: noah,
        channel: 'voice',
        delivery: 'pending',
        held: 'limit',
        limitEmail: 'emailed',
        dueAt: new Date(Date.parse(at) + 9 * 60_000).toISOString(),
      }),
      'Call to Noah Lee held by the limit for 9 minutes, then bundled; its words went by email at once',
    ],
    [
      'the email that carries what the limit held (decision 265)',
      event({
        kind: 'notified',
        to: noah,
        channel: 'email',
        delivery: 'sent',
        limitEmail: 'email',
      }),
      'Email to Noah Lee sent, in place of a text or call the limit held back',
    ],
    [
      'notification rules that could not reach the person',
      event({
        kind: 'rules_skipped',
        to: noah,
        rules: [
          { method: 'voice', delayMinutes: 3, reason: 'Phone calls are not set up yet' },
          { method: 'push', delayMinutes: 0, reason: 'Push notifications are not set up yet' },
        ],
        emailInstead: false,
      }),
      'Notification rules of Noah Lee skipped: Phone call after 3 minutes (Phone calls are not set up yet) and Push at once (Push notifications are not set up yet)',
    ],
    [
      'notification rules of which none could reach the person',
      event({
        kind: 'rules_skipped',
        to: noah,
        rules: [
          { method: 'push', delayMinutes: 0, reason: 'Push notifications are not set up yet' },
        ],
        emailInstead: true,
      }),
      'Notification rules of Noah Lee skipped: Push at once (Push notifications are not set up yet); no rule could reach them, so the page went by email',
    ],
    [
      'an escalation by hand',
      event({ kind: 'escalated', actor: iris, step: 3, loop: 1, reason: 'Priya is on a flight' }),
      'Escalated to step 3 by Iris Incident: Priya is on a flight',
    ],
    [
      'a page from before issue 16 escalated automatically',
      event({
        kind: 'escalated',
        notified: [{ ...noah, reasons: ['next on call'] }],
        automatic: true,
      }),
      'Escalated to Noah Lee automatically',
    ],
    [
      'a page from before issue 16 telling its backup',
      event({ kind: 'step_reached', notified: [{ ...noah, reasons: ['backup'] }] }),
      'Notified Noah Lee (backup)',
    ],
    [
      'a reassignment',
      event({
        kind: 'reassigned',
        actor: iris,
        notified: [{ ...noah, reasons: [] }],
        reason: null,
      }),
      'Reassigned to Noah Lee by Iris Incident',
    ],
    [
      'an acknowledgement by SMS reply',
      event({ kind: 'acknowledged', actor: priya, via: 'sms' }),
      'Acknowledged by Priya Shah by SMS reply',
    ],
    [
      'an acknowledgement by a key pressed on a call (decision 252)',
      event({ kind: 'acknowledged', actor: priya, via: 'phone' }),
      'Acknowledged by Priya Shah by phone',
    ],
    [
      'a call placed',
      event({ kind: 'notified', to: priya, channel: 'voice', delivery: 'sent' }),
      'Call to Priya Shah placed',
    ],
    [
      'a call nobody answered',
      event({
        kind: 'notified',
        to: priya,
        channel: 'voice',
        delivery: 'failed',
        error: 'The call was not answered',
      }),
      'Call to Priya Shah failed: The call was not answered',
    ],
    [
      'a call answered, 1 pressed',
      event({ kind: 'call', to: priya, callOutcome: 'answered', key: '1' }),
      'Call to Priya Shah: answered, pressed 1 to acknowledge',
    ],
    [
      'a call that was busy',
      event({ kind: 'call', to: noah, callOutcome: 'busy', key: null }),
      'Call to Noah Lee: busy',
    ],
    [
      'an acknowledgement from Slack',
      event({ kind: 'acknowledged', actor: priya, via: 'slack' }),
      'Acknowledged by Priya Shah from Slack',
    ],
    [
      'a resolution from Slack',
      event({ kind: 'resolved', actor: priya, via: 'slack' }),
      'Resolved by Priya Shah from Slack',
    ],
    [
      'an acknowledgement in the app',
      event({ kind: 'acknowledged', actor: priya, via: 'app' }),
      'Acknowledged by Priya Shah',
    ],
    [
      'a resolution from the link, by a deleted person',
      event({ kind: 'resolved', via: 'link' }),
      'Resolved by a deleted user from the email’s link',
    ],
    ['a note', event({ kind: 'note', actor: iris, text: 'Rolled back' }), 'Note by Iris Incident'],
    [
      'a resolution with a note (the note is shown under it)',
      event({ kind: 'resolved', actor: priya, via: 'app', text: 'Rolled back 1.4.2' }),
      'Resolved by Priya Shah',
    ],
    [
      'a reopen with a reason',
      event({ kind: 'reopened', actor: iris, reason: 'Errors are back' }),
      'Reopened by Iris Incident: Errors are back',
    ],
    [
      'a reopen without a reason',
      event({ kind: 'reopened', actor: iris }),
      'Reopened by Iris Incident',
    ],
    [
      'the policy running out',
      event({ kind: 'exhausted' }),
      'Policy ran out with nobody acknowledging',
    ],
  ])('%s', (_name, input, words) => {
    expect(timelineText(input)).toBe(words);
  });

  test('timelineDetail names the targets a step reached skipped, and nothing else', () => {
    const skipped = [
      {
        target: { type: 'rotation-backup' as const, id: 1 },
        reason: 'nobody to notify',
        person: null,
      },
      {
        target: { type: 'user' as const, id: 9 },
        reason: 'person without a channel',
        person: { id: 9, name: 'Sam Sullivan' },
      },
    ];
    expect(timelineDetail(event({ kind: 'step_reached', step: 1, skipped }))).toBe(
      'Skipped: the backup (nobody to notify) and Sam Sullivan (person without a channel)',
    );
    expect(timelineDetail(event({ kind: 'reminder', step: 1, skipped: skipped.slice(1) }))).toBe(
      'Skipped: Sam Sullivan (person without a channel)',
    );
    expect(timelineDetail(event({ kind: 'step_reached', step: 1, skipped: [] }))).toBeNull();
    expect(timelineDetail(event({ kind: 'step_skipped', step: 1, skipped }))).toBeNull();
  });

  test('only failures, skips and the end are problems', () => {
    expect(isTimelineProblem(event({ kind: 'notified', delivery: 'failed' }))).toBe(true);
    expect(isTimelineProblem(event({ kind: 'notified', delivery: 'retried' }))).toBe(false);
    expect(isTimelineProblem(event({ kind: 'step_skipped' }))).toBe(true);
    expect(isTimelineProblem(event({ kind: 'exhausted' }))).toBe(true);
    expect(isTimelineProblem(event({ kind: 'acknowledged' }))).toBe(false);
  });
});

describe('words', () => {
  test.each([
    [[], ''],
    [['a'], 'a'],
    [['a', 'b'], 'a and b'],
    [['a', 'b', 'c'], 'a, b and c'],
  ])('listInWords(%j) is %j', (items, words) => {
    expect(listInWords(items)).toBe(words);
  });

  test('stepName names the loop from the second on', () => {
    expect(stepName(2, 1)).toBe('Step 2');
    expect(stepName(2, 2)).toBe('Step 2 (loop 2)');
    expect(stepName(undefined, undefined)).toBe('A step');
  });
});

test('a call nobody answered draws the eye; an answered one does not', () => {
  expect(isTimelineProblem(event({ kind: 'call', callOutcome: 'no-answer' }))).toBe(true);
  expect(isTimelineProblem(event({ kind: 'call', callOutcome: 'machine' }))).toBe(true);
  expect(isTimelineProblem(event({ kind: 'call', callOutcome: 'answered', key: '2' }))).toBe(false);
});
