import { describe, expect, test } from 'vitest';
import {
  ackLinkExpiresAt,
  ackLinkState,
  canAcknowledgePage,
  canEscalatePage,
  canResolvePage,
  type PageStatus,
} from './paging';

const paged = new Date('2026-11-02T12:00:00Z');
const at = (minutes: number) => new Date(paged.getTime() + minutes * 60_000);

describe('acknowledgement links', () => {
  test('work for a day from when the current recipient was paged, and only while open', () => {
    const open = { status: 'triggered' as const, createdAt: paged, escalatedAt: null };
    expect(ackLinkExpiresAt(open)).toEqual(at(24 * 60));
    expect(ackLinkState(open, at(24 * 60 - 1))).toBe('open');
    expect(ackLinkState(open, at(24 * 60))).toBe('expired');
    expect(ackLinkState({ ...open, status: 'escalated', escalatedAt: at(30) }, at(24 * 60))).toBe(
      'open',
    );
    expect(ackLinkState({ ...open, status: 'acknowledged' }, at(1))).toBe('acknowledged');
    expect(ackLinkState({ ...open, status: 'resolved' }, at(1))).toBe('resolved');
  });
});

describe('who may act on a page', () => {
  const rotation = { createdById: 10, memberUserIds: [1, 2, 11] };
  const open = { status: 'triggered' as PageStatus, pagedById: 20, targetUserId: 1 };
  const actor = (
    id: number,
    ...roles: ('admin' | 'manager' | 'on-call' | 'incident_manager')[]
  ) => ({
    id,
    roles,
  });

  test.each([
    ['the recipient', actor(1, 'on-call'), true, true, true],
    ['another member', actor(2, 'on-call'), false, false, false],
    ['the pager (incident manager)', actor(20, 'incident_manager'), false, true, true],
    ['another incident manager', actor(21, 'incident_manager'), false, false, true],
    ['an administrator', actor(30, 'admin'), false, true, true],
    ['the creating manager', actor(10, 'manager'), false, true, true],
    ['a manager member', actor(11, 'manager'), false, true, true],
    ['an unrelated manager', actor(12, 'manager'), false, false, false],
  ] as const)('%s: acknowledge %s, resolve %s, escalate %s', (_, who, ack, resolve, escalate) => {
    expect(canAcknowledgePage(who, open)).toBe(ack);
    expect(canResolvePage(who, open, rotation)).toBe(resolve);
    expect(canEscalatePage(who, open, rotation)).toBe(escalate);
  });

  test('an acknowledged page is resolved but not acknowledged or escalated again; a resolved one is done', () => {
    const recipient = actor(1, 'on-call');
    const acknowledged = { ...open, status: 'acknowledged' as const };
    expect(canAcknowledgePage(recipient, acknowledged)).toBe(false);
    expect(canEscalatePage(recipient, acknowledged, rotation)).toBe(false);
    expect(canResolvePage(recipient, acknowledged, rotation)).toBe(true);
    const resolved = { ...open, status: 'resolved' as const };
    expect(canResolvePage(actor(30, 'admin'), resolved, rotation)).toBe(false);
  });
});
