/**
 * Limits per person (issue 33, decision 254), as GoAlert has them: at most a few texts and calls
 * reach one person in a quarter of an hour. What the limit holds back waits for room and is then
 * sent as one message ("3 more pages: …"), never dropped. Pure: the instant and what was sent
 * come in; the outbox worker asks before it sends.
 */

/** The channels the limit counts, by name: a new channel joins by being named here. */
export const LIMITED_CHANNELS: readonly string[] = ['sms', 'voice'];

/** At most this many texts and calls together per person per window (GoAlert: 3 per 15 minutes). */
export const PERSON_LIMIT = { count: 3, windowMs: 15 * 60_000 } as const;

export type PersonLimit = { count: number; windowMs: number };

/** isLimitedChannel tells whether the limit counts a channel. */
export function isLimitedChannel(channel: string): boolean {
  return LIMITED_CHANNELS.includes(channel);
}

/** A due message the limit may hold: its person, its channel, and whether it was held already. */
export interface LimitCandidate {
  id: number;
  userId: number;
  channel: string;
  /** held by the limit before: it goes out in one bundle with the others held on its channel */
  heldByLimit: boolean;
}

export type LimitDecision =
  /** send it (a held one carries the bundle of every message held for its person and channel) */
  | { kind: 'send' }
  /** held by the limit before, and bundled into `leadId`, which is sent now */
  | { kind: 'bundle'; leadId: number }
  /** over the limit: wait until there is room */
  | { kind: 'hold'; until: Date };

/**
 * planLimits decides, for the due messages on limited channels, which go now, which wait and
 * until when, given what each person was sent on limited channels within the window. Per person,
 * messages held before go first (each channel's held messages are one bundle, one send), then the
 * new ones in order; each send takes one place of the limit; the rest wait until the oldest send
 * in the window leaves it.
 */
export function planLimits(
  candidates: readonly LimitCandidate[],
  sentAt: ReadonlyMap<number, readonly Date[]>,
  now: Date,
  limit: PersonLimit = PERSON_LIMIT,
): Map<number, LimitDecision> {
  const decisions = new Map<number, LimitDecision>();
  const byPerson = new Map<number, LimitCandidate[]>();
  for (const c of candidates) {
    if (!isLimitedChannel(c.channel)) continue;
    byPerson.set(c.userId, [...(byPerson.get(c.userId) ?? []), c]);
  }
  const windowStart = now.getTime() - limit.windowMs;
  for (const [userId, theirs] of byPerson) {
    // Each unit is one send: a channel's held messages together, or one new message.
    const units: LimitCandidate[][] = [];
    const heldByChannel = new Map<string, LimitCandidate[]>();
    for (const c of theirs.filter((x) => x.heldByLimit)) {
      const group = heldByChannel.get(c.channel);
      if (group) group.push(c);
      else heldByChannel.set(c.channel, [c]);
    }
    units.push(...heldByChannel.values());
    units.push(...theirs.filter((x) => !x.heldByLimit).map((x) => [x]));
    const sent = (sentAt.get(userId) ?? [])
      .map((d) => d.getTime())
      .filter((t) => t > windowStart && t <= now.getTime());
    const room = Math.max(0, limit.count - sent.length);
    const going = units.slice(0, room);
    for (const [lead, ...rest] of going) {
      decisions.set(lead.id, { kind: 'send' });
      for (const member of rest) decisions.set(member.id, { kind: 'bundle', leadId: lead.id });
    }
    const waiting = units.slice(room);
    if (waiting.length === 0) continue;
    // Room comes back when enough of the sends in the window (those now included) have left it.
    const times = [...sent, ...going.map(() => now.getTime())].sort((a, b) => a - b);
    const until = new Date(times[times.length - limit.count] + limit.windowMs);
    for (const unit of waiting) for (const c of unit) decisions.set(c.id, { kind: 'hold', until });
  }
  return decisions;
}

/** bundleText: "3 more pages: #12 Disk full; #13 API down; #14 Queue stuck". */
export function bundleText(subjects: readonly string[]): string {
  const n = subjects.length;
  return `${n} more page${n === 1 ? '' : 's'}: ${subjects.join('; ')}`;
}

/** limitWords: the limit in words, for the timeline and the docs. */
export function limitWords(limit: PersonLimit = PERSON_LIMIT): string {
  return `at most ${limit.count} texts and calls per ${Math.round(limit.windowMs / 60_000)} minutes`;
}
