import { type HandoffTimings, handoffTimingsInMinutes } from '@shared/contracts/help';
import { DEFAULT_HANDOFF_TIMINGS } from '@shared/domain/handoff-flow';
import { PAGE_TIMINGS } from '@shared/domain/paging';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, test } from 'vitest';
import { minutesText, urgenciesWhere } from '../lib/durations';
import { HandoffEmergencySteps, HandoffStandardSteps, PagingFlowSteps } from './flow-timings';

/** text renders a component to its visible text (tags dropped, spaces collapsed). */
const text = (element: React.ReactElement) =>
  renderToStaticMarkup(element)
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ');

describe('minutesText', () => {
  test.each([
    [1, '1 minute'],
    [15, '15 minutes'],
    [60, '60 minutes'],
    [90, '90 minutes'],
    [120, '2 hours'],
    [1440, '1 day'],
    [2880, '2 days'],
  ])('%i → %s', (minutes, expected) => {
    expect(minutesText(minutes)).toBe(expected);
  });
});

describe('the handoff flow in the help shows the server’s timings', () => {
  test('the documented defaults, from DEFAULT_HANDOFF_TIMINGS', () => {
    const defaults = handoffTimingsInMinutes(DEFAULT_HANDOFF_TIMINGS);
    const standard = text(createElement(HandoffStandardSteps, { timings: defaults }));
    expect(standard).toContain('30 minutes before the shift ends');
    expect(standard).toContain('The next person acknowledges within 30 minutes');
    expect(standard).toContain('the handoff is marked missed');
    expect(standard).toContain('30 minutes late');
    expect(standard).toContain('60 minutes late');
    expect(standard).toContain('stays backup for 15 minutes');
  });

  test('a deployment’s own HANDOFF_*_MINUTES, every number from the timings it is given', () => {
    const configured: HandoffTimings = {
      noticeBeforeMinutes: 45,
      escalateAfterMinutes: 20,
      autoTransferAfterMinutes: 120,
      acknowledgeWithinMinutes: 10,
      backupMinutes: 25,
    };
    const standard = text(createElement(HandoffStandardSteps, { timings: configured }));
    expect(standard).toContain('45 minutes before the shift ends');
    expect(standard).toContain('acknowledges within 10 minutes');
    expect(standard).toContain('20 minutes late');
    expect(standard).toContain('2 hours late');
    expect(standard).toContain('stays backup for 25 minutes');
    expect(standard).not.toMatch(/\b(30|60|15) minutes\b/);
    const emergency = text(createElement(HandoffEmergencySteps, { timings: configured }));
    expect(emergency).toContain('not acknowledged within 10 minutes');
  });
});

describe('the paging flow in the help follows the default escalation policy', () => {
  const timings = { ...PAGE_TIMINGS };
  afterEach(() => {
    Object.assign(PAGE_TIMINGS, timings);
  });

  test('reminder, escalation and the end of the policy from the default policy; link lifetime', () => {
    const flow = text(createElement(PagingFlowSteps));
    expect(flow).toContain('15 minutes without acknowledgement — a reminder');
    expect(flow).toContain('30 minutes without acknowledgement — the next person');
    expect(flow).toContain('45 minutes without acknowledgement — the policy has run out');
    expect(flow).toContain(
      'Every urgency follows these steps. Low-urgency pages go by email only.',
    );
    expect(flow).toContain('expires after 1 day');
  });

  test('other constants, other words', () => {
    Object.assign(PAGE_TIMINGS, { reminderAfterMs: 10 * 60_000, escalateAfterMs: 45 * 60_000 });
    const flow = text(createElement(PagingFlowSteps));
    expect(flow).toContain('10 minutes without acknowledgement — a reminder');
    expect(flow).toContain('45 minutes without acknowledgement — the next person');
    expect(flow).toContain('55 minutes without acknowledgement — the policy has run out');
    expect(urgenciesWhere((p) => p.emailOnly)).toBe('Low');
  });
});
