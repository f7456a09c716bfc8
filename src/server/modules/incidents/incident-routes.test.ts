import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { type IncidentList, IncidentListSchema } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import {
  at,
  type IncidentSeed,
  insertEvent,
  insertIncident,
  insertNotification,
  people,
  rotation,
  setUpIncidentApp,
  t,
} from './incident-routes.fixtures';

// Counting SQL statements is switched on only by the query-count tests.
let counting = false;
let statements = 0;

setUpIncidentApp({
  onQuery: () => {
    if (counting) statements += 1;
  },
});

async function list(user: User, query = ''): Promise<IncidentList> {
  const res = await t.call(user, 'GET', `/api/incidents${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as IncidentList;
  expect(IncidentListSchema.parse(body)).toEqual(body);
  return body;
}

const idsOf = (l: IncidentList) => l.incidents.map((i) => i.id);

describe('GET /api/incidents', () => {
  /** A spread of incidents a minute apart, newest last: */
  async function spread() {
    const a = await rotation('Alpha');
    const b = await rotation('Beta');
    const seeds: IncidentSeed[] = [
      { rotationId: a.id, title: 'Checkout errors', severity: 'P1', status: 'resolved' },
      { rotationId: a.id, title: 'Checkout latency', severity: 'P2', status: 'acknowledged' },
      { rotationId: b.id, title: 'Disk full', severity: 'P1', status: 'escalated' },
      {
        rotationId: b.id,
        title: null,
        message: 'checkout page blank',
        severity: 'P3',
        assigneeIds: [people.noah.id],
      },
      {
        rotationId: null,
        title: 'Certificate expiry',
        severity: 'P2',
        assigneeIds: [people.priya.id],
      },
    ];
    const ids: number[] = [];
    for (const [i, seed] of seeds.entries()) {
      ids.push(await insertIncident({ ...seed, createdAt: at(i) }));
    }
    return { a, b, ids };
  }

  test('newest first, with the counts by status, triggered including escalated', async () => {
    const { ids } = await spread();
    const all = await list(people.outsider);
    expect(idsOf(all)).toEqual([...ids].reverse());
    expect(all.counts).toEqual({ triggered: 3, acknowledged: 1, resolved: 1 });
    expect(all.nextBefore).toBeNull();
    expect(all.incidents.every((i) => i.timeline === undefined)).toBe(true);
    expect(all.incidents[2]).toMatchObject({ title: 'Disk full', status: 'triggered' });
    expect(all.incidents[1].title).toBe('checkout page blank'); // a page: its message
  });

  test('filters: status, open, severity, rotation, mine; counts ignore only the status', async () => {
    const { a, b, ids } = await spread();
    const triggered = await list(people.olivia, '?status=triggered');
    expect(idsOf(triggered)).toEqual([ids[4], ids[3], ids[2]]);
    expect(triggered.counts).toEqual({ triggered: 3, acknowledged: 1, resolved: 1 });
    expect(idsOf(await list(people.olivia, '?open=true'))).toEqual([
      ids[4],
      ids[3],
      ids[2],
      ids[1],
    ]);
    expect(idsOf(await list(people.olivia, '?open=false'))).toHaveLength(5);
    const p1 = await list(people.olivia, '?severity=P1');
    expect(idsOf(p1)).toEqual([ids[2], ids[0]]);
    expect(p1.counts).toEqual({ triggered: 1, acknowledged: 0, resolved: 1 });
    const alpha = await list(people.olivia, `?rotationId=${a.id}`);
    expect(idsOf(alpha)).toEqual([ids[1], ids[0]]);
    expect(alpha.incidents[0].rotation).toEqual({ id: a.id, name: 'Alpha' });
    expect(idsOf(await list(people.olivia, `?rotationId=${b.id}&status=resolved`))).toEqual([]);
    // mine: the incidents that notified the viewer
    const noahs = await list(people.noah, '?mine=true');
    expect(idsOf(noahs)).toEqual([ids[3]]);
    expect(noahs.counts).toEqual({ triggered: 1, acknowledged: 0, resolved: 0 });
    expect(idsOf(await list(people.olivia, '?mine=true&open=true'))).toEqual([ids[2], ids[1]]);
    expect(idsOf(await list(people.outsider, '?mine=true'))).toEqual([]);
  });

  test('paging: limit, nextBefore and before walk every incident once, ties by id', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      // two incidents share each instant: the id breaks the tie
      ids.push(await insertIncident({ createdAt: at(Math.floor(i / 2)) }));
    }
    const seen: number[] = [];
    let before: number | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const page: IncidentList = await list(
        people.olivia,
        `?limit=3${before === null ? '' : `&before=${before}`}`,
      );
      seen.push(...idsOf(page));
      expect(page.counts.triggered).toBe(7);
      before = page.nextBefore;
      if (before === null) break;
    }
    expect(seen).toEqual([...ids].reverse());
    // A cursor whose incident is gone still pages on, by id.
    expect(idsOf(await list(people.olivia, '?before=999999&limit=2'))).toEqual([ids[6], ids[5]]);
  });

  test('search: words of the sealed title, any case; counts and paging over the matches', async () => {
    const { ids } = await spread();
    const checkout = await list(people.olivia, '?q=CHECKOUT');
    expect(idsOf(checkout)).toEqual([ids[3], ids[1], ids[0]]);
    expect(checkout.counts).toEqual({ triggered: 1, acknowledged: 1, resolved: 1 });
    expect(idsOf(await list(people.olivia, '?q=checkout%20latency'))).toEqual([ids[1]]);
    expect(idsOf(await list(people.olivia, '?q=latency%20checkout'))).toEqual([ids[1]]);
    expect(idsOf(await list(people.olivia, '?q=nothing'))).toEqual([]);
    const open = await list(people.olivia, '?q=checkout&status=triggered');
    expect(idsOf(open)).toEqual([ids[3]]);
    expect(open.counts).toEqual({ triggered: 1, acknowledged: 1, resolved: 1 });
    // paging through the matches
    const first = await list(people.olivia, '?q=checkout&limit=2');
    expect(idsOf(first)).toEqual([ids[3], ids[1]]);
    expect(first.nextBefore).toBe(ids[1]);
    const second = await list(people.olivia, `?q=checkout&limit=2&before=${ids[1]}`);
    expect(idsOf(second)).toEqual([ids[0]]);
    expect(second.nextBefore).toBeNull();
    // a cursor the search does not match (from the whole list) pages on from where it stands
    expect(idsOf(await list(people.olivia, `?q=checkout&before=${ids[2]}`))).toEqual([
      ids[1],
      ids[0],
    ]);
    // blank words search nothing: the whole list
    expect(idsOf(await list(people.olivia, '?q=%20%20'))).toHaveLength(5);
  });

  test('bad queries are 400 with a message; signed-out callers 401', async () => {
    for (const query of [
      'status=escalated',
      'status=open',
      'severity=P4',
      'open=yes',
      'mine=1',
      'limit=0',
      'limit=201',
      'limit=abc',
      'before=abc',
      'before=-1',
      'rotationId=x',
      `q=${'x'.repeat(201)}`,
    ]) {
      const res = await t.call(people.olivia, 'GET', `/api/incidents?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toEqual(expect.any(String));
    }
    expect((await t.call(null, 'GET', '/api/incidents')).statusCode).toBe(401);
  });
});

describe('query counts', () => {
  async function count(user: User, url: string) {
    await t.call(user, 'GET', url); // warm the session cookie cache
    await t.database.db.execute(sql`select pg_current_xact_id()`);
    statements = 0;
    counting = true;
    const res = await t.call(user, 'GET', url);
    counting = false;
    expect(res.statusCode, res.body).toBe(200);
    return statements;
  }

  async function seed(n: number, r: { id: number }) {
    for (let i = 0; i < n; i++) {
      const id = await insertIncident({
        rotationId: i % 3 === 1 ? null : r.id,
        title: `Incident ${i}`,
        assigneeIds: [people.olivia.id, people.noah.id],
        acknowledgedById: people.priya.id,
      });
      await insertEvent(id, 'incident.raised', { source: 'user' }, { actor: people.manager.id });
      await insertNotification(id, {
        userId: people.noah.id,
        channel: 'email',
        status: 'sent',
        attempts: 1,
        at: t.clock.now(),
      });
    }
  }

  test('the list, the search and the timeline run as many statements for 1 incident as for 30', async () => {
    const r = await rotation();
    await seed(1, r);
    const [oneId] = (await list(people.olivia)).incidents.map((i) => i.id);
    const few = {
      list: await count(people.olivia, '/api/incidents?limit=100'),
      search: await count(people.olivia, '/api/incidents?q=incident&limit=100'),
      one: await count(people.olivia, `/api/incidents/${oneId}`),
    };
    await seed(29, r);
    const many = {
      list: await count(people.olivia, '/api/incidents?limit=100'),
      search: await count(people.olivia, '/api/incidents?q=incident&limit=100'),
      one: await count(people.olivia, `/api/incidents/${oneId}`),
    };
    expect((await list(people.olivia, '?limit=100')).incidents).toHaveLength(30);
    expect(many).toEqual(few);
  });
});
