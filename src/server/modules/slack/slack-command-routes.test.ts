import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { OnCall, OnCalls } from '../../../shared/contracts/oncalls';
import type { User } from '../../../shared/contracts/users';
import { rotations, scheduleEntries } from '../../db/schema';
import { runEngineTick } from '../../engine-tasks';
import { insertRotation } from '../../seed/factories';
import { SLACK_COMMAND_MESSAGES } from './slack-commands';
import { SLACK_PEOPLE_MESSAGES } from './slack-people';
import { command, people, SLACK, setUpSlackSuite, t } from './slack-routes.fixtures';

// The /baton command: who holds the baton, as GET /api/oncalls answers, and its usage.
setUpSlackSuite();

describe('/baton', () => {
  test('who <rotation>: who holds the baton now, since when, and who is next, when', async () => {
    const r = await insertRotation(t.database.db, {
      name: 'Payments primary',
      memberIds: [people.olivia.id, people.noah.id],
      holderId: people.olivia.id,
      createdById: people.manager.id,
      now: t.clock.now(),
    });
    await insertRotation(t.database.db, { name: 'Payments secondary', now: t.clock.now() });
    const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, r.id));
    const next = Math.floor((row.nextHandoffAt as Date).getTime() / 1000);
    for (const text of ['who payments PRIMARY', 'who Payments p', 'WHO   payments   primary']) {
      const res = await command(SLACK.noah, text);
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json<{ response_type: string; text: string }>();
      expect(answer.response_type).toBe('ephemeral');
      expect(answer.text).toMatch(
        /^\*Payments primary\*: Olivia &lt;Ortiz&gt; holds the baton since <!date\^\d+\^/,
      );
      expect(answer.text).toContain(`\nNext: Noah Nakamura from <!date^${next}^`);
    }
    const several = (await command(SLACK.noah, 'who payments')).json<{ text: string }>();
    expect(several.text).toBe(
      SLACK_COMMAND_MESSAGES.several('payments', ['Payments primary', 'Payments secondary']),
    );
    const none = (await command(SLACK.noah, 'who billing')).json<{ text: string }>();
    expect(none.text).toBe(SLACK_COMMAND_MESSAGES.noRotation('billing'));
  });

  test('who <rotation> answers as GET /api/oncalls does: suspended, covered, nobody on call', async () => {
    // Mon 2 Nov, 12:00 UTC. "Relay weekly" hands over on Mondays at 09:00 (Ana, Ben, Cal, Dan):
    // Ana holds it, Dan covers Ben's week of 9 Nov. "Relay paused" is suspended, though its row
    // still names Ana. "Relay shifts" is scheduled: Ben until 3 Nov 12:00, nobody, Cal 5–7 Nov.
    const start = t.clock.now();
    const [ana, ben, cal, dan] = await Promise.all(
      ['Ana Relay', 'Ben Relay', 'Cal Relay', 'Dan Relay'].map((name) => t.createUser({ name })),
    );
    const as = async (user: User, method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, payload, headers: { cookie: await t.cookieFor(user) } });
    try {
      const weekly = await insertRotation(t.database.db, {
        name: 'Relay weekly',
        memberIds: [ana.id, ben.id, cal.id, dan.id],
        holderId: ana.id,
        holderSince: new Date('2026-11-02T09:00:00Z'),
        now: start,
      });
      const asked = await as(ben, 'POST', `/api/rotations/${weekly.id}/cover-plans`, {
        coveringUserId: dan.id,
        startTime: '2026-11-09T09:00:00Z',
        endTime: '2026-11-16T09:00:00Z',
        notes: 'Holiday',
      });
      expect(asked.statusCode, asked.body).toBe(201);
      const accepted = await as(dan, 'POST', `/api/coverage-requests/${asked.json().id}/accept`);
      expect(accepted.statusCode, accepted.body).toBe(200);
      const paused = await insertRotation(t.database.db, {
        name: 'Relay paused',
        memberIds: [ana.id],
        holderId: ana.id,
        holderSince: new Date('2026-10-20T09:00:00Z'),
        suspended: true,
        now: start,
      });
      const shifts = await insertRotation(t.database.db, {
        name: 'Relay shifts',
        type: 'scheduled',
        memberIds: [ben.id, cal.id],
        holderId: ben.id,
        holderSince: new Date('2026-11-01T12:00:00Z'),
        now: start,
      });
      await t.database.db.insert(scheduleEntries).values([
        {
          rotationId: shifts.id,
          userId: ben.id,
          startAt: new Date('2026-11-01T12:00:00Z'),
          endAt: new Date('2026-11-03T12:00:00Z'),
        },
        {
          rotationId: shifts.id,
          userId: cal.id,
          startAt: new Date('2026-11-05T12:00:00Z'),
          endAt: new Date('2026-11-07T12:00:00Z'),
        },
      ]);
      // The engine's next change is the end of Ben's entry (the factory counts a weekly turn).
      await t.database.db
        .update(rotations)
        .set({ nextHandoffAt: new Date('2026-11-03T12:00:00Z') })
        .where(eq(rotations.id, shifts.id));
      const rotationIds = { weekly: weekly.id, paused: paused.id, shifts: shifts.id };

      const iso = (seconds: string) => new Date(Number(seconds) * 1000).toISOString();
      /** What `/baton who` says: holder, since, next [name, from] (null: none), suspended. */
      const slackSays = async (name: string) => {
        const res = await command(SLACK.noah, `who ${name}`);
        expect(res.statusCode, res.body).toBe(200);
        const [first, second, ...rest] = res.json<{ text: string }>().text.split('\n');
        expect(rest).toEqual([]);
        const holds = /^\*[^*]+\*: (.+) holds the baton since <!date\^(\d+)\^[^>]*>\.$/.exec(first);
        if (!holds) expect(first).toBe(`*${name}*: nobody holds the baton now.`);
        const next = /^Next: (.+) from <!date\^(\d+)\^[^>]*>\.$/.exec(second);
        if (!next) {
          expect(second).toMatch(
            /^(The rotation is suspended: nobody is next\.|Nobody is next in the coming 62 days\.)$/,
          );
        }
        return {
          holder: holds ? holds[1] : null,
          since: holds ? iso(holds[2]) : null,
          next: next ? [next[1], iso(next[2])] : null,
          suspended: second.startsWith('The rotation is suspended'),
        };
      };
      const oncall = async (id: number, at?: string) => {
        const query = at ? `?rotationId=${id}&at=${at}` : `?rotationId=${id}`;
        const res = await as(people.noah, 'GET', `/api/oncalls${query}`);
        expect(res.statusCode, res.body).toBe(200);
        return (res.json() as OnCalls).oncalls[0] as OnCall;
      };
      /** Slack's answer, checked against GET /api/oncalls now and ?at= its next holder's start. */
      const agreed = async (key: keyof typeof rotationIds) => {
        const name = `Relay ${key}`;
        const says = await slackSays(name);
        const now = await oncall(rotationIds[key]);
        expect(says).toEqual({
          holder: now.holder?.name ?? null,
          since: now.holder ? now.since : null,
          next: now.next ? [now.next.holder.name, now.next.from] : null,
          suspended: now.rotation.suspended,
        });
        if (says.next) {
          const then = await oncall(rotationIds[key], says.next[1]);
          expect([then.holder?.name, then.since]).toEqual(says.next);
        }
        return says;
      };
      const at = async (instant: string) => {
        t.clock.set(instant);
        await runEngineTick(
          { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock },
          t.clock.now(),
        );
      };

      // Now: Ana's turn; next the covered shift, Dan in Ben's place.
      expect(await agreed('weekly')).toMatchObject({
        holder: 'Ana Relay',
        since: '2026-11-02T09:00:00.000Z',
        next: ['Dan Relay', '2026-11-09T09:00:00.000Z'],
      });
      expect(await oncall(weekly.id, '2026-11-09T09:00:00Z')).toMatchObject({
        source: 'coverage',
        coveredUserId: ben.id,
      });
      // Suspended: nobody on call from now on, though the row still names Ana.
      expect(await agreed('paused')).toEqual({
        holder: null,
        since: null,
        next: null,
        suspended: true,
      });
      expect(await agreed('shifts')).toMatchObject({
        holder: 'Ben Relay',
        since: '2026-11-01T12:00:00.000Z',
        next: ['Cal Relay', '2026-11-05T12:00:00.000Z'],
      });

      // Between the entries nobody is on call; Cal comes next.
      await at('2026-11-04T00:00:00Z');
      expect(await agreed('shifts')).toMatchObject({
        holder: null,
        next: ['Cal Relay', '2026-11-05T12:00:00.000Z'],
      });
      expect(await agreed('weekly')).toMatchObject({ holder: 'Ana Relay' });

      // The covered shift: Dan holds it for Ben, Cal takes over after; no entries are left.
      await at('2026-11-10T12:00:00Z');
      expect(await agreed('weekly')).toEqual({
        holder: 'Dan Relay',
        since: '2026-11-09T09:00:00.000Z',
        next: ['Cal Relay', '2026-11-16T09:00:00.000Z'],
        suspended: false,
      });
      expect((await oncall(weekly.id)).source).toBe('coverage');
      expect(await agreed('shifts')).toEqual({
        holder: null,
        since: null,
        next: null,
        suspended: false,
      });
      expect(await agreed('paused')).toMatchObject({ holder: null, suspended: true });
    } finally {
      t.clock.set(start);
    }
  });

  test('who <rotation> in a gap: everyone is away until when, and who keeps the baton', async () => {
    const start = t.clock.now();
    const hal = await t.createUser({ name: 'Hal Alone' });
    const engineAt = async (instant: Date) => {
      t.clock.set(instant);
      await runEngineTick(
        { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock },
        instant,
      );
    };
    try {
      const lone = await insertRotation(t.database.db, {
        name: 'Lone desk',
        memberIds: [hal.id],
        holderId: hal.id,
        holderSince: new Date(start.getTime() - 86_400_000),
        now: start,
      });
      // Away for two weeks from within the next turn: that turn is a gap (decision 217).
      const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, lone.id));
      const boundary = (row.nextHandoffAt as Date).getTime();
      const away = await t.app.inject({
        method: 'POST',
        url: `/api/users/${hal.id}/time-off`,
        headers: { cookie: await t.cookieFor(hal) },
        payload: {
          startTime: new Date(boundary + 3_600_000).toISOString(),
          endTime: new Date(boundary + 15 * 86_400_000).toISOString(),
        },
      });
      expect(away.statusCode, away.body).toBe(201);
      const says = async () =>
        (await command(SLACK.noah, 'who lone')).json<{ text: string }>().text;
      const oncall = async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/oncalls?rotationId=${lone.id}`,
          headers: { cookie: await t.cookieFor(people.noah) },
        });
        return (res.json() as OnCalls).oncalls[0] as OnCall;
      };

      // Before the gap: no line about it.
      expect((await oncall()).gap).toBeNull();
      expect(await says()).not.toContain('away');
      await engineAt(new Date(boundary + 2 * 3_600_000));
      const { gap } = await oncall();
      expect(gap).not.toBeNull();
      const lines = (await says()).split('\n');
      expect(lines[0]).toMatch(/^\*Lone desk\*: Hal Alone holds the baton since <!date\^\d+\^/);
      expect(lines[1]).toMatch(
        new RegExp(
          `^Everyone is away until <!date\\^${Date.parse(gap?.end ?? '') / 1000}\\^[^>]*>: the baton stays with Hal Alone\\.$`,
        ),
      );
      expect(lines).toHaveLength(3);
    } finally {
      t.clock.set(start);
    }
  });

  test('help, nothing or anything else: the usage; a stranger: why not', async () => {
    for (const text of ['', 'help', 'dance']) {
      expect((await command(SLACK.noah, text)).json<{ text: string }>().text).toBe(
        SLACK_COMMAND_MESSAGES.usage,
      );
    }
    expect((await command(SLACK.stranger, 'who payments')).json<{ text: string }>().text).toBe(
      SLACK_PEOPLE_MESSAGES.unknown('stranger@elsewhere.test', 'http://localhost:3000'),
    );
  });
});
