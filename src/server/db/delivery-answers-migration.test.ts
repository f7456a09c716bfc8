import { asc, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { databaseBefore } from '../../../tests/setup/migrate-to';
import { notifications } from './schema';

/**
 * The delivery answers migration (0021, decision 234) on a database whose delivery logs kept the
 * receivers' bodies: a delivery keeps "HTTP <status>", a failure its reason alone, and reasons that
 * quoted a network error take Baton's fixed words. Email and SMS answers are not destinations'.
 */

test('receivers’ bodies kept in chat deliveries are scrubbed; other channels keep theirs', async () => {
  const database = await databaseBefore('delivery_answers_scrubbed');
  try {
    const { db } = database;
    const secret = 'db_password=hunter2 vault_token=s.9f8e7d';
    const rows: [string, string, string | null, string | null][] = [
      // channel, status, last_error, provider_response
      ['chat', 'sent', null, `200 ${secret}`],
      ['chat', 'sent', null, '204'],
      ['chat', 'failed', 'The destination answered 410', secret],
      ['chat', 'pending', 'The destination answered 503', secret],
      ['chat', 'pending', 'The destination timed out: This operation was aborted', null],
      ['chat', 'failed', 'The destination unreachable: fetch failed', null],
      ['chat', 'failed', 'The destination was deleted', null],
      ['sms', 'failed', 'SMS provider answered 400', '{"message":"Invalid To number"}'],
      ['email', 'sent', null, '<abc@baton> 250 OK'],
    ];
    await db.execute(sql`insert into escalation_policies (id, name, repeat, steps)
                         values (1, 'Platform (default)', 1, ${JSON.stringify([
                           {
                             delayMinutes: 5,
                             assignment: 'everyone',
                             activeHours: null,
                             targets: [{ type: 'rotation-holder', id: 1 }],
                           },
                         ])}::jsonb)`);
    await db.execute(sql`insert into rotations (id, name, escalation_policy_id)
                         values (1, 'Platform', 1)`);
    await db.execute(sql`insert into destinations (id, kind, url_enc, url_hint, rotation_id, events)
                         values (1, 'webhook', 'sealed', 'hooks.example.com …hook', 1, '["handoff"]'::jsonb)`);
    for (const [i, [channel, status, lastError, providerResponse]] of rows.entries()) {
      const destinationId = channel === 'chat' ? 1 : null;
      await db.execute(sql`insert into notifications
          (channel, kind, content_enc, dedupe_key, status, last_error, provider_response, destination_id)
        values (${channel}, 'test', 'sealed', ${`key-${i}`}, ${status}, ${lastError}, ${providerResponse}, ${destinationId})`);
    }

    await database.migrate();

    const after = await db
      .select({
        lastError: notifications.lastError,
        providerResponse: notifications.providerResponse,
      })
      .from(notifications)
      .orderBy(asc(notifications.id));
    expect(after).toEqual([
      { lastError: null, providerResponse: 'HTTP 200' },
      { lastError: null, providerResponse: 'HTTP 204' },
      { lastError: 'The destination answered 410', providerResponse: null },
      { lastError: 'The destination answered 503', providerResponse: null },
      { lastError: 'Not delivered: timed out', providerResponse: null },
      { lastError: 'Not delivered: unreachable', providerResponse: null },
      { lastError: 'The destination was deleted', providerResponse: null },
      {
        lastError: 'SMS provider answered 400',
        providerResponse: '{"message":"Invalid To number"}',
      },
      { lastError: null, providerResponse: '<abc@baton> 250 OK' },
    ]);
  } finally {
    await database.close();
  }
});
