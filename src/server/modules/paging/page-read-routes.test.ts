import { describe, expect, test } from 'vitest';
import { createTestApp } from '../../../../tests/setup/test-app';
import type { Page } from '../../../shared/contracts/paging';
import { insertIntegration, insertRotation } from '../../seed/factories';
import {
  ackLinkIn,
  MINUTE,
  outboxFor,
  pageRotation,
  people,
  rotation,
  setUpPagingApp,
  t,
} from './paging-routes.fixtures';

setUpPagingApp();

describe('reading pages', () => {
  test('the rotation’s page history: who paged whom, when, message, urgency, state and times', async () => {
    const r = await rotation();
    const first = (await pageRotation(r.id, { message: 'First', urgency: 'low' }, people.iris)).row;
    t.clock.advance(MINUTE);
    await pageRotation(r.id, { message: 'Second', urgency: 'high' });
    await t.call(people.olivia, 'POST', `/api/pages/${first.id}/acknowledge`);

    for (const viewer of [people.noah, people.iris, people.outsider, people.admin]) {
      expect((await t.call(viewer, 'GET', `/api/rotations/${r.id}/pages`)).statusCode).toBe(200);
    }
    const res = await t.call(people.olivia, 'GET', `/api/rotations/${r.id}/pages`);
    const list = res.json() as Page[];
    expect(
      list.map((p) => [p.message, p.urgency, p.status, p.pagedBy?.name, p.target?.name]),
    ).toEqual([
      ['Second', 'high', 'triggered', 'Morgan Manager', 'Olivia Ortiz'],
      ['First', 'low', 'acknowledged', 'Iris Incident', 'Olivia Ortiz'],
    ]);
    expect(list[0]).toMatchObject({
      rotation: { id: r.id, name: r.name },
      actions: { acknowledge: true, resolve: true, escalate: true },
      reminderAt: new Date(t.clock.now().getTime() + 15 * MINUTE).toISOString(),
      escalatesAt: new Date(t.clock.now().getTime() + 30 * MINUTE).toISOString(),
    });
    expect(list[1].acknowledgedAt).toBe(t.clock.now().toISOString());
    expect(
      (await t.call(people.olivia, 'GET', `/api/rotations/${r.id}/pages?limit=1`)).json(),
    ).toHaveLength(1);
    const older = await t.call(
      people.olivia,
      'GET',
      `/api/rotations/${r.id}/pages?before=${list[0].id}`,
    );
    expect(older.json().map((p: Page) => p.message)).toEqual(['First']);
    expect((await t.call(people.olivia, 'GET', '/api/rotations/999999/pages')).statusCode).toBe(
      404,
    );
    expect(
      (await t.call(people.olivia, 'GET', `/api/rotations/${r.id}/pages?limit=0`)).statusCode,
    ).toBe(400);
  });

  test('a page an alert raised says which integration raised it, not a deleted user', async () => {
    const r = await rotation();
    await pageRotation(r.id, { message: 'By hand' });
    const { key } = await insertIntegration(t.database.db, t.cipher, {
      name: 'Grafana prod',
      rotationId: r.id,
    });
    const alert = await t.app.inject({
      method: 'POST',
      url: '/api/alerts/pagerduty/v2/enqueue',
      payload: {
        routing_key: key,
        event_action: 'trigger',
        payload: { summary: 'Disk full on db-1', source: 'db-1', severity: 'critical' },
      },
    });
    expect(alert.statusCode, alert.body).toBe(202);
    const list = (
      await t.call(people.olivia, 'GET', `/api/rotations/${r.id}/pages`)
    ).json() as Page[];
    expect(list.map((p) => [p.pagedBy?.name ?? null, p.raisedBy])).toEqual([
      [null, { kind: 'integration', user: null, name: 'Grafana prod' }],
      [
        'Morgan Manager',
        {
          kind: 'user',
          user: { id: people.manager.id, name: 'Morgan Manager' },
          name: 'Morgan Manager',
        },
      ],
    ]);
    // The acknowledgement link's page names the integration too ("Grafana prod paged Olivia").
    const raised = list[0] as Page;
    const [email] = (await outboxFor(raised.id)).filter((n) => n.channel === 'email');
    const shown = await t.call(null, 'GET', `/api/pages/ack/${ackLinkIn(email.content.text)}`);
    expect(shown.json().page.pagedByName).toBe('Grafana prod');
  });

  test('the history reads a fixed number of statements for 2 and for 12 pages', async () => {
    const counted: string[] = [];
    const c = await createTestApp({ db: { onQuery: (q) => counted.push(q) } });
    try {
      const pager = await c.createUser({ roles: ['incident_manager'] });
      const members = await Promise.all([0, 1, 2].map(() => c.createUser()));
      const r = await insertRotation(c.database.db, {
        memberIds: members.map((m) => m.id),
        holderId: members[0].id,
      });
      const cookie = await c.cookieFor(pager);
      const read = async () => {
        counted.length = 0;
        const res = await c.app.inject({
          method: 'GET',
          url: `/api/rotations/${r.id}/pages`,
          headers: { cookie },
        });
        expect(res.statusCode).toBe(200);
        return counted.length;
      };
      const send = async (n: number) => {
        for (let i = 0; i < n; i++) {
          await c.app.inject({
            method: 'POST',
            url: `/api/rotations/${r.id}/page`,
            payload: { message: `Page ${i}` },
            headers: { cookie },
          });
        }
      };
      await send(2);
      const few = await read();
      await send(10);
      expect(await read()).toBe(few);
    } finally {
      await c.close();
    }
  });

  test('pages for me: the unresolved pages I am the current recipient of', async () => {
    const r = await rotation();
    const open = (await pageRotation(r.id, { message: 'Open one' })).row;
    const resolved = (await pageRotation(r.id, { message: 'Resolved one' })).row;
    await t.call(people.manager, 'POST', `/api/pages/${resolved.id}/resolve`);
    const mine = (await t.call(people.olivia, 'GET', '/api/user/pages')).json() as Page[];
    expect(mine.map((p) => p.id)).toContain(open.id);
    expect(mine.map((p) => p.id)).not.toContain(resolved.id);
    expect(mine.find((p) => p.id === open.id)?.actions.acknowledge).toBe(true);
    expect(
      (await t.call(people.noah, 'GET', '/api/user/pages')).json().map((p: Page) => p.id),
    ).not.toContain(open.id);
  });
});
