import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fusedQuery, PreparedStatements, toText } from './pglite-query';

describe('toText: a parameter as PostgreSQL reads it', () => {
  test.each([
    [null, null],
    [undefined, null],
    ['it\'s "quoted"', 'it\'s "quoted"'],
    [42, '42'],
    [1.5, '1.5'],
    [12345678901234567890n, '12345678901234567890'],
    [true, 'true'],
    [false, 'false'],
    [new Date('2026-12-02T11:00:00.123Z'), '2026-12-02T11:00:00.123Z'],
    [new Uint8Array([0, 15, 255]), '\\x000fff'],
    [[1, 2, null], '{"1","2",null}'],
    [['a"b', 'c\\d', 'e,f'], '{"a\\"b","c\\\\d","e,f"}'],
    [
      [
        [1, 2],
        [3, 4],
      ],
      '{{"1","2"},{"3","4"}}',
    ],
    [{ a: 1, b: [true], c: 2n }, '{"a":1,"b":[true],"c":"2"}'],
  ])('%s → %s', (value, text) => {
    expect(toText(value)).toBe(text);
  });
});

describe('PreparedStatements', () => {
  test('a statement is prepared once and named the same after', () => {
    const prepared = new PreparedStatements(3);
    const first = prepared.use('select 1');
    expect(first.parse).toBe(true);
    expect(prepared.use('select 1')).toEqual({ name: first.name, parse: false });
    expect(prepared.use('select 2').name).not.toBe(first.name);
  });

  test('past the limit the least recently run is closed, and prepared again when it returns', () => {
    const prepared = new PreparedStatements(2);
    const a = prepared.use('a').name;
    const b = prepared.use('b').name;
    prepared.use('a');
    prepared.use('c');
    expect(prepared.takeClosing()).toEqual([b]);
    expect(prepared.takeClosing()).toEqual([]);
    expect(prepared.use('a')).toEqual({ name: a, parse: false });
    expect(prepared.use('b').parse).toBe(true);
    expect(prepared.size).toBe(2);
  });

  test('a statement forgotten is closed and prepared again under a new name', () => {
    const prepared = new PreparedStatements();
    const a = prepared.use('a').name;
    prepared.forget('a');
    prepared.forget('never run');
    expect(prepared.takeClosing()).toEqual([a]);
    const again = prepared.use('a');
    expect(again.parse).toBe(true);
    expect(again.name).not.toBe(a);
  });

  test('two connections never share a name', () => {
    expect(new PreparedStatements().use('a').name).not.toBe(new PreparedStatements().use('a').name);
  });
});

describe('statements in one call, against PGlite itself', () => {
  let client: PGlite;
  const preparedCount = async () =>
    (await client.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements'))
      .rows[0].n;
  // Drizzle's parsers: timestamps, intervals and dates as PostgreSQL's text.
  const asText = (value: string) => value;
  const drizzleOptions = {
    rowMode: 'array' as const,
    parsers: { [types.TIMESTAMPTZ]: asText, [types.DATE]: asText },
  };

  beforeAll(async () => {
    client = await PGlite.create();
    await client.exec(`
      create table things (
        id serial primary key, name text not null unique, at timestamptz, day date,
        flag boolean, data jsonb, tags text[], big bigint, raw bytea, amount numeric
      );
    `);
  });
  afterAll(() => client.close());

  test('answers as PGlite does, in both row modes, with the caller parsers laid over its own', async () => {
    const fused = fusedQuery(client);
    const values = [
      'one',
      new Date('2026-12-02T11:00:00Z'),
      '2026-12-02',
      true,
      { a: [1, 'x'] },
      ['a', 'b"c', null],
      9007199254740993n,
      new Uint8Array([1, 2]),
      '12.50',
    ];
    const insert =
      'insert into things (name, at, day, flag, data, tags, big, raw, amount) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *';
    const ours = await fused.query<unknown[]>(insert, values, drizzleOptions);
    const theirs = await client.query<unknown[]>(
      insert,
      ['two', ...values.slice(1)],
      drizzleOptions,
    );
    expect(ours.fields).toEqual(theirs.fields);
    // Each value read back as written, the timestamp as PostgreSQL's text (Drizzle's parser).
    expect(ours.rows[0].slice(1)).toEqual(['one', '2026-12-02 11:00:00+00', ...values.slice(2)]);
    expect(ours.rows[0].slice(2)).toEqual(theirs.rows[0].slice(2));
    const select = 'select id, name, at from things where name = any($1) order by id';
    const asObjects = await fused.query<{ at: Date }>(select, [['one', 'two']]);
    expect(asObjects.rows.map((r) => r.at)).toEqual([
      new Date('2026-12-02T11:00:00Z'),
      new Date('2026-12-02T11:00:00Z'),
    ]);
    expect(asObjects).toEqual(await client.query(select, [['one', 'two']]));
    expect(ours.affectedRows).toBe(1);
  });

  test('a statement is prepared once however often it runs, and only that one', async () => {
    const fused = fusedQuery(client);
    const before = await preparedCount();
    for (let i = 0; i < 5; i++) {
      const found = await fused.query('select count(*)::int as n from things where id > $1', [i]);
      expect(typeof (found.rows[0] as { n: number }).n).toBe('number');
    }
    expect(await preparedCount()).toBe(before + 1);
  });

  test("an error keeps PostgreSQL's code and the statement, and the statement is prepared again after", async () => {
    const fused = fusedQuery(client);
    const insert = 'insert into things (name) values ($1)';
    await fused.query(insert, ['dup']);
    const failure = await fused.query(insert, ['dup']).catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: '23505', query: insert, params: ['dup'] });
    await fused.query(insert, ['not a dup']);
    const syntax = await fused.query('select from where', []).catch((err: unknown) => err);
    expect(syntax).toMatchObject({ code: '42601' });
    // The failed statement's name was closed with the next message outside a transaction.
    const names = await client.query<{ name: string }>(
      'select name from pg_prepared_statements where statement = $1',
      [insert],
    );
    expect(names.rows).toHaveLength(1);
  });

  test('a statement whose table changed shape fails once, and is prepared anew on its next run', async () => {
    const fused = fusedQuery(client);
    await client.exec('create table shapes (a int); insert into shapes values (1)');
    const select = 'select * from shapes';
    await fused.query(select);
    await client.exec('alter table shapes add column b int');
    await expect(fused.query(select)).rejects.toMatchObject({ code: '0A000' });
    const again = await fused.query(select);
    expect(again.fields.map((f) => f.name)).toEqual(['a', 'b']);
  });

  test('inside a transaction: its statements are prepared the same way, a rollback keeps them, a closed one refuses', async () => {
    const fused = fusedQuery(client);
    const insert = 'insert into things (name) values ($1) returning id';
    let kept: ReturnType<typeof fused.inTransaction> | undefined;
    await expect(
      client.transaction(async (tx) => {
        kept = fused.inTransaction(tx);
        await kept.query(insert, ['rolled back']);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(
      (await client.query('select 1 from things where name = $1', ['rolled back'])).rows,
    ).toEqual([]);
    await expect(kept?.query(insert, ['late'])).rejects.toThrow('Transaction is closed');
    await client.transaction(async (tx) => {
      const inside = fused.inTransaction(tx);
      await inside.query(insert, ['committed']);
      const failure = await inside.query(insert, ['committed']).catch((err: unknown) => err);
      expect(failure).toMatchObject({ code: '23505' });
      await inside.rollback();
    });
    await client.transaction(async (tx) => {
      await fused.inTransaction(tx).query(insert, ['committed']);
    });
    expect(
      (await client.query('select 1 from things where name = $1', ['committed'])).rows,
    ).toHaveLength(1);
  });

  test('past the limit, the least recently run statements are closed on the connection', async () => {
    const fused = fusedQuery(client);
    const before = await preparedCount();
    // PREPARED_LIMIT distinct statements and more: the count stays at the limit.
    for (let i = 0; i < 520; i++) await fused.query(`select ${i} as n`);
    await fused.query('select 1 as n');
    expect(await preparedCount()).toBeLessThanOrEqual(before + 500);
    expect(await preparedCount()).toBeGreaterThanOrEqual(before + 499);
  });
});
