import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { describe, expect, test } from 'vitest';
import { HANDOFF_CSV_COLUMNS, type HandoffHistoryPage } from '../../../shared/contracts/audit';
import { insertHandoffs, insertRotation } from '../../seed/factories';
import { adminCookie, onCallCookie, setUpAuditSuite, t } from './audit-routes.fixtures';

// The handoff history and its export. The administrative trail is in
// audit-admin-trail-routes.test.ts, its search, filters and export in
// audit-admin-trail-search-routes.test.ts.
let queries: string[] = [];
setUpAuditSuite((q) => queries.push(q));

async function history(query: string, cookie = onCallCookie) {
  return t.app.inject({ url: `/api/audit-log/handoffs?${query}`, headers: { cookie } });
}

async function historyPage(query: string, cookie = onCallCookie): Promise<HandoffHistoryPage> {
  const res = await history(query, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const minutesAgo = (n: number) => new Date(t.clock.now().getTime() - n * 60_000);

describe('GET /api/audit-log/handoffs', () => {
  test('answers entries newest first, with people and rotation, 20 at a time by default', async () => {
    const giver = await t.createUser({ name: 'Gina Giver' });
    const taker = await t.createUser({ name: 'Theo Taker' });
    const rotation = await insertRotation(t.database.db, {
      name: 'Paging Depth Rotation',
      memberIds: [giver.id, taker.id],
    });
    await insertHandoffs(
      t.database.db,
      Array.from({ length: 45 }, (_, i) => ({
        rotationId: rotation.id,
        fromUserId: giver.id,
        toUserId: taker.id,
        status: 'success',
        notes: `note ${i}`,
        occurredAt: minutesAgo(100 - i),
      })),
    );

    const first = await historyPage('search=paging%20depth');
    expect(first.entries).toHaveLength(20);
    expect(first.entries[0]).toMatchObject({
      status: 'success',
      kind: 'pass',
      fromUser: { id: giver.id, name: 'Gina Giver', email: giver.email },
      toUser: { id: taker.id, name: 'Theo Taker', email: taker.email },
      rotation: { id: rotation.id, name: 'Paging Depth Rotation' },
      notes: 'note 44',
      urgent: false,
      acknowledgedAt: null,
    });
    expect(first.entries[0].timestamp).toBe(minutesAgo(56).toISOString());
    expect(first.nextCursor).toEqual(expect.any(String));

    const second = await historyPage(`search=paging%20depth&before=${first.nextCursor}`);
    const third = await historyPage(`search=paging%20depth&before=${second.nextCursor}`);
    expect(second.entries).toHaveLength(20);
    expect(third.entries).toHaveLength(5);
    expect(third.nextCursor).toBeNull();
    const notes = [...first.entries, ...second.entries, ...third.entries].map((e) => e.notes);
    expect(notes).toEqual(Array.from({ length: 45 }, (_, i) => `note ${44 - i}`));
  });

  test('pages through handoffs recorded within the same millisecond without losing or repeating any', async () => {
    const rotation = await insertRotation(t.database.db, { name: 'Microsecond Rotation' });
    // now() plus microsecond offsets, and several rows sharing one instant: the cursor must keep
    // PostgreSQL's microseconds and break ties by id.
    await t.database.db.execute(
      sql`insert into handoffs (rotation_id, kind, status, occurred_at)
          select ${rotation.id}, 'pass', 'success',
                 timestamptz '2026-10-01 10:00:00.123456+00' + ((g / 3) * interval '1 microsecond')
            from generate_series(1, 25) g`,
    );
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: HandoffHistoryPage = await historyPage(
        `search=microsecond&limit=4${cursor ? `&before=${cursor}` : ''}`,
      );
      seen.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
  });

  test('searches rotation names, from-person and to-person names, ignoring case', async () => {
    const ziggy = await t.createUser({ name: 'Ziggy Quartz' });
    const yolanda = await t.createUser({ name: 'Yolanda Fern' });
    const xavier = await t.createUser({ name: 'Xavier Plum' });
    const red = await insertRotation(t.database.db, { name: 'Crimson_Search 100%' });
    const blue = await insertRotation(t.database.db, { name: 'Cobalt Search' });
    const [h1, h2, h3] = await insertHandoffs(t.database.db, [
      { rotationId: red.id, fromUserId: ziggy.id, toUserId: yolanda.id, occurredAt: minutesAgo(3) },
      {
        rotationId: blue.id,
        fromUserId: yolanda.id,
        toUserId: xavier.id,
        occurredAt: minutesAgo(2),
      },
      { rotationId: blue.id, fromUserId: xavier.id, toUserId: null, occurredAt: minutesAgo(1) },
    ]);
    const ids = async (search: string) =>
      (await historyPage(`search=${encodeURIComponent(search)}`)).entries.map((e) => e.id);

    expect(await ids('crimson')).toEqual([h1.id]);
    expect(await ids('COBALT SEARCH')).toEqual([h3.id, h2.id]);
    expect(await ids('ziggy')).toEqual([h1.id]); // from-person
    expect(await ids('yolanda fern')).toEqual([h2.id, h1.id]); // from and to
    expect(await ids('PLUM')).toEqual([h3.id, h2.id]);
    // LIKE wildcards are matched literally.
    expect(await ids('n_s')).toEqual([h1.id]);
    expect(await ids('100%')).toEqual([h1.id]);
    expect(await ids('%')).toEqual([h1.id]);
    expect(await ids('no such person or rotation')).toEqual([]);
    // A deleted person shows as null, not as an error.
    expect((await historyPage('search=cobalt')).entries[0].toUser).toBeNull();
  });

  test('a name changed, a user added or deleted is seen by the very next search', async () => {
    const walt = await t.createUser({ name: 'Walter Quince', roles: ['on-call'] });
    const rotation = await insertRotation(t.database.db, { name: 'Renames Rotation' });
    const [h] = await insertHandoffs(t.database.db, [
      { rotationId: rotation.id, fromUserId: null, toUserId: walt.id, occurredAt: minutesAgo(4) },
    ]);
    const ids = async (search: string) =>
      (await historyPage(`search=${encodeURIComponent(search)}`)).entries.map((e) => e.id);
    expect(await ids('quince')).toEqual([h.id]);
    expect(await ids('quince')).toEqual([h.id]); // asked again: the same answer

    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${walt.id}`,
      headers: { cookie: await t.cookieFor(walt) },
      payload: { name: 'Walter Medlar' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await ids('quince')).toEqual([]);
    expect(await ids('medlar')).toEqual([h.id]);

    const vera = await t.createUser({ name: 'Vera Medlar' });
    const [h2] = await insertHandoffs(t.database.db, [
      {
        rotationId: rotation.id,
        fromUserId: walt.id,
        toUserId: vera.id,
        occurredAt: minutesAgo(2),
      },
    ]);
    expect(await ids('vera medlar')).toEqual([h2.id]);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${vera.id}`,
      headers: { cookie: adminCookie },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await ids('vera medlar')).toEqual([]);
  });

  test('filters by status on the server, with or without a search', async () => {
    const rotation = await insertRotation(t.database.db, { name: 'Status Filter Rotation' });
    await insertHandoffs(
      t.database.db,
      ['success', 'acknowledged', 'missed', 'escalated', 'missed', 'handed-over'].map(
        (status, i) => ({ rotationId: rotation.id, status, occurredAt: minutesAgo(10 - i) }),
      ),
    );
    const statuses = async (query: string) =>
      (await historyPage(`search=status%20filter&${query}`)).entries.map((e) => e.status);
    expect(await statuses('status=missed')).toEqual(['missed', 'missed']);
    expect(await statuses('status=escalated')).toEqual(['escalated']);
    expect(await statuses('status=all')).toHaveLength(6);
    expect(await statuses('status=')).toContain('handed-over');
    const all = await historyPage('status=acknowledged&limit=100');
    expect(all.entries.length).toBeGreaterThan(0);
    expect(all.entries.every((e) => e.status === 'acknowledged')).toBe(true);
  });

  test("filters by rotation: one rotation's handoffs, with status and search too (decision 187)", async () => {
    const mine = await insertRotation(t.database.db, { name: 'Rotation Filter Mine' });
    const other = await insertRotation(t.database.db, { name: 'Rotation Filter Other' });
    const [first, , third] = await insertHandoffs(t.database.db, [
      { rotationId: mine.id, status: 'success', notes: 'mine 1', occurredAt: minutesAgo(9) },
      { rotationId: other.id, status: 'success', notes: 'other', occurredAt: minutesAgo(8) },
      { rotationId: mine.id, status: 'missed', notes: 'mine 2', occurredAt: minutesAgo(7) },
    ]);
    const page = await historyPage(`rotationId=${mine.id}&limit=10`);
    expect(page.entries.map((e) => e.id)).toEqual([third.id, first.id]);
    expect(page.entries.map((e) => e.notes)).toEqual(['mine 2', 'mine 1']);
    expect(page.entries.every((e) => e.rotation.id === mine.id)).toBe(true);
    const missed = await historyPage(`rotationId=${mine.id}&status=missed`);
    expect(missed.entries.map((e) => e.id)).toEqual([third.id]);
    // The search narrows within the rotation, never widens past it.
    const searched = await historyPage(`rotationId=${mine.id}&search=rotation%20filter`);
    expect(searched.entries.map((e) => e.id)).toEqual([third.id, first.id]);
    expect((await historyPage('rotationId=999999')).entries).toEqual([]);
  });

  test("every role that opens the rotation page reads that rotation's history (decision 187)", async () => {
    const rotation = await insertRotation(t.database.db, { name: 'Rotation History Roles' });
    const [handoff] = await insertHandoffs(t.database.db, [
      { rotationId: rotation.id, notes: 'for everyone', occurredAt: minutesAgo(4) },
    ]);
    for (const roles of [['on-call'], ['manager'], ['incident_manager'], ['admin']] as const) {
      const viewer = await t.createUser({ roles: [...roles] });
      const cookie = await t.cookieFor(viewer);
      const page = await t.app.inject({
        url: `/api/rotations/${rotation.id}`,
        headers: { cookie },
      });
      expect(page.statusCode, `${roles} rotation page`).toBe(200);
      const res = await history(`rotationId=${rotation.id}&limit=10`, cookie);
      expect(res.statusCode, `${roles} history`).toBe(200);
      expect((res.json() as HandoffHistoryPage).entries.map((e) => e.id)).toEqual([handoff.id]);
    }
  });

  test.each([
    ['rotationId=abc', /rotationId/],
    ['rotationId=0', /rotationId/],
    ['status=pending', /Status must be one of/],
    ['limit=0', /limit must be at least 1/],
    ['limit=101', /limit must be at most 100/],
    ['limit=ten', /limit must be a number/],
    ['before=not-a-cursor', /before is not a valid cursor/],
    [`search=${'x'.repeat(201)}`, /Search must be at most 200/],
  ])('refuses %s with 400', async (query, message) => {
    const res = await history(query);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  test('reads a page in a fixed number of queries, however many users and handoffs match', async () => {
    const rotation = await insertRotation(t.database.db, { name: 'Query Count Rotation' });
    const people = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.createUser({ name: `Counted Person ${i}` })),
    );
    await insertHandoffs(
      t.database.db,
      people.slice(1).map((p, i) => ({
        rotationId: rotation.id,
        fromUserId: people[i].id,
        toUserId: p.id,
        occurredAt: minutesAgo(50 - i),
      })),
    );
    const count = async (query: string) => {
      await history(query); // warm the session cache path alike for both calls
      queries = [];
      const res = await history(query);
      expect(res.statusCode).toBe(200);
      return { n: queries.length, entries: (res.json() as HandoffHistoryPage).entries.length };
    };
    const small = await count('search=counted%20person%200&limit=1');
    const large = await count('search=counted%20person&limit=20');
    expect(large.entries).toBe(11);
    expect(small.entries).toBe(1);
    expect(large.n).toBe(small.n);
    const plain = await count('limit=20');
    // Without a search no names are read. With one, PostgreSQL reads them each time; PGlite keeps
    // them while nothing is written (decision 144).
    expect(plain.n).toBe(large.n - (t.database.changeCount ? 0 : 1));
  });
});

describe('GET /api/audit-log/handoffs.csv', () => {
  test('exports the filtered history as RFC 4180 CSV that parses cleanly, formulas neutralised', async () => {
    const evil = await t.createUser({ name: '=HYPERLINK("http://evil.example","x")' });
    const plus = await t.createUser({ name: '+Plus Person' });
    const rotation = await insertRotation(t.database.db, { name: '@Export, "Quoted" Rotation' });
    await insertHandoffs(t.database.db, [
      {
        rotationId: rotation.id,
        fromUserId: evil.id,
        toUserId: plus.id,
        status: 'success',
        notes: 'line one\r\nline two, with "quotes"',
        occurredAt: minutesAgo(6),
      },
      {
        rotationId: rotation.id,
        fromUserId: plus.id,
        toUserId: evil.id,
        status: 'missed',
        notes: '-1+2',
        occurredAt: minutesAgo(5),
      },
      {
        rotationId: rotation.id,
        fromUserId: plus.id,
        toUserId: evil.id,
        status: 'escalated',
        notes: '\tcmd',
        occurredAt: minutesAgo(4),
      },
    ]);

    const res = await t.app.inject({
      url: '/api/audit-log/handoffs.csv?search=export',
      headers: { cookie: adminCookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="baton-handoffs-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    // Records end with CRLF (RFC 4180); the body starts with a UTF-8 byte order mark for
    // spreadsheets.
    expect(res.body.startsWith('\ufeffid,time,')).toBe(true);
    expect(res.body.endsWith('\r\n')).toBe(true);

    const parsed = Papa.parse<Record<string, string>>(res.body.replace(/^\ufeff/, ''), {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([...HANDOFF_CSV_COLUMNS]);
    expect(parsed.data).toHaveLength(3);
    const [escalated, missed, success] = parsed.data;
    expect(success).toMatchObject({
      rotation: `'@Export, "Quoted" Rotation`,
      from: `'=HYPERLINK("http://evil.example","x")`,
      to: "'+Plus Person",
      status: 'success',
      notes: 'line one\r\nline two, with "quotes"',
      entry: 'Baton passed successfully from =HYPERLINK("http://evil.example","x") to +Plus Person',
    });
    expect(missed.notes).toBe("'-1+2");
    expect(missed.entry).toBe(
      `'=HYPERLINK("http://evil.example","x") missed handoff acknowledgment`,
    );
    expect(escalated.notes).toBe("'\tcmd");
    expect(escalated.entry).toBe('Handoff to =HYPERLINK("http://evil.example","x") was escalated');
    // No cell a spreadsheet would evaluate.
    for (const row of parsed.data) {
      for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  test('exports with the status filter and refuses everyone but administrators', async () => {
    const res = await t.app.inject({
      url: '/api/audit-log/handoffs.csv?status=missed',
      headers: { cookie: adminCookie },
    });
    const rows = Papa.parse<Record<string, string>>(res.body.replace(/^\ufeff/, ''), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.status === 'missed')).toBe(true);

    const target = await insertRotation(t.database.db, { name: 'CSV Rotation Filter' });
    await insertHandoffs(t.database.db, [{ rotationId: target.id, notes: 'only' }]);
    const filtered = await t.app.inject({
      url: `/api/audit-log/handoffs.csv?rotationId=${target.id}`,
      headers: { cookie: adminCookie },
    });
    const filteredRows = Papa.parse<Record<string, string>>(filtered.body.replace(/^\ufeff/, ''), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(filteredRows.map((r) => [r.rotation, r.notes])).toEqual([
      ['CSV Rotation Filter', 'only'],
    ]);

    const denied = await t.app.inject({
      url: '/api/audit-log/handoffs.csv',
      headers: { cookie: onCallCookie },
    });
    expect(denied.statusCode).toBe(403);
    const bad = await t.app.inject({
      url: '/api/audit-log/handoffs.csv?status=bogus',
      headers: { cookie: adminCookie },
    });
    expect(bad.statusCode).toBe(400);
  });
});
