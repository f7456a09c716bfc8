import { asc, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { databaseBefore } from '../../../tests/setup/migrate-to';
import { integrations } from './schema';

/**
 * The integration source migration (0030, decision 260): an existing integration is for the tool
 * that sent its latest alert, the screen's test alert aside; one nothing has sent to is generic.
 */

test('each integration takes the format of its latest real alert, else generic', async () => {
  const database = await databaseBefore('integration_source');
  try {
    const { db } = database;
    await db.execute(sql`insert into escalation_policies (id, name, repeat, steps)
                         values (1, 'Platform (default)', 0, ${JSON.stringify([
                           {
                             delayMinutes: 5,
                             assignment: 'everyone',
                             activeHours: null,
                             targets: [{ type: 'rotation-holder', id: 1 }],
                           },
                         ])}::jsonb)`);
    await db.execute(sql`insert into rotations (id, name, escalation_policy_id)
                         values (1, 'Platform', 1)`);
    const sent: Record<number, string[]> = {
      1: ['pagerduty', 'alertmanager'],
      2: ['grafana', 'test'],
      3: ['test'],
      4: [],
      5: ['email'],
    };
    for (const [id, formats] of Object.entries(sent)) {
      await db.execute(sql`insert into integrations (id, name, rotation_id, key_hash, key_hint)
                           values (${Number(id)}, ${`I${id}`}, 1, ${`hash-${id}`}, 'abcd')`);
      for (const [i, format] of formats.entries()) {
        await db.execute(sql`insert into alerts (integration_id, format, action, outcome,
                               dedup_key_hash, event_hash, event_enc, payload_enc, received_at, last_seen_at)
                             values (${Number(id)}, ${format}, 'trigger', 'raised', ${`d${id}${i}`},
                               ${`e${id}${i}`}, 'sealed', 'sealed', now(), now())`);
      }
    }

    await database.migrate();

    const after = await db
      .select({ id: integrations.id, source: integrations.source })
      .from(integrations)
      .orderBy(asc(integrations.id));
    expect(after).toEqual([
      { id: 1, source: 'alertmanager' },
      { id: 2, source: 'grafana' },
      { id: 3, source: 'generic' },
      { id: 4, source: 'generic' },
      { id: 5, source: 'email' },
    ]);
  } finally {
    await database.close();
  }
});
