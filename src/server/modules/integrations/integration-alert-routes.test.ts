import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { Incident } from '../../../shared/contracts/incidents';
import {
  type AlertList,
  INTEGRATION_MESSAGES,
  type TestAlertPreview,
  type TestAlertResult,
} from '../../../shared/contracts/integrations';
import type { User } from '../../../shared/contracts/users';
import { alerts, pages } from '../../db/schema';
import {
  create,
  insertAlert,
  insertIncident,
  list,
  people,
  rotation,
  START,
  setUpIntegrationSuite,
  suffix,
  t,
} from './integration-routes.fixtures';

let counting = false;
let statements = 0;
setUpIntegrationSuite(() => {
  if (counting) statements += 1;
});

describe('alerts', () => {
  test('an integration’s alerts: newest first, 50 a page, opened; an incident’s alone', async () => {
    const r = await rotation();
    const created = await create(people.manager, { name: 'Alertmanager', rotationId: r.id });
    const incidentId = await insertIncident(r.id, created.id);
    const ids: number[] = [];
    for (let i = 0; i < 52; i++) {
      ids.push(
        await insertAlert(created.id, {
          pageId: i % 2 === 0 ? incidentId : null,
          summary: `Disk ${i}`,
          payload: `{"n":${i}}`,
        }),
      );
    }
    const first = await t.call(people.olivia, 'GET', `/api/integrations/${created.id}/alerts`);
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json() as AlertList;
    expect(page1.alerts).toHaveLength(50);
    expect(page1.alerts.map((a) => a.id)).toEqual([...ids].reverse().slice(0, 50));
    expect(page1.nextCursor).toBe(ids[2]);
    expect(page1.alerts[0]).toEqual({
      id: ids[51],
      integrationId: created.id,
      integrationName: 'Alertmanager',
      incidentId: null,
      format: 'alertmanager',
      action: 'trigger',
      outcome: 'ignored',
      summary: 'Disk 51',
      source: 'prometheus',
      severity: 'P2',
      details: [{ section: 'Labels', label: 'instance', value: 'db-1:9100' }],
      links: [{ href: 'https://grafana.example.com/d/1', text: 'Dashboard' }],
      receivedAt: START.replace('Z', '.000Z'),
      lastSeenAt: START.replace('Z', '.000Z'),
      seenCount: 1,
      payload: '{"n":51}',
      payloadCut: false,
    });
    const second = (
      await t.call(
        people.olivia,
        'GET',
        `/api/integrations/${created.id}/alerts?before=${page1.nextCursor}`,
      )
    ).json() as AlertList;
    expect(second.alerts.map((a) => a.id)).toEqual([ids[1], ids[0]]);
    expect(second.nextCursor).toBeNull();

    // A member of the rotation reads them. (Issue 30: this was the outsider, another team's
    // member, who is now refused: see the test below.)
    const ofIncident = await t.call(people.olivia, 'GET', `/api/incidents/${incidentId}/alerts`);
    expect(ofIncident.statusCode, ofIncident.body).toBe(200);
    const incidentAlerts = (ofIncident.json() as AlertList).alerts;
    expect(incidentAlerts).toHaveLength(26);
    expect(incidentAlerts.every((a) => a.incidentId === incidentId)).toBe(true);
    expect((await t.call(people.olivia, 'GET', '/api/incidents/999999/alerts')).statusCode).toBe(
      404,
    );
  });

  test('an incident’s alerts: another team’s member reads no payload, though the incident reads to every role (issue 30)', async () => {
    const r = await rotation();
    const created = await create(people.manager, { name: 'Alertmanager', rotationId: r.id });
    const incidentId = await insertIncident(r.id, created.id);
    await insertAlert(created.id, { pageId: incidentId, payload: '{"secret":"db password"}' });
    const policy = await create(people.manager, {
      name: 'Policy source',
      escalationPolicyId: r.escalationPolicyId,
    });
    const policyIncident = await insertIncident(r.id, policy.id);
    await insertAlert(policy.id, { pageId: policyIncident, payload: '{"n":2}' });

    for (const id of [incidentId, policyIncident]) {
      // The incident itself is not hidden (decision 205) ...
      expect((await t.call(people.outsider, 'GET', `/api/incidents/${id}`)).statusCode).toBe(200);
      // ... but its alerts are the integration's, as the integration's own list is.
      const refused = await t.call(people.outsider, 'GET', `/api/incidents/${id}/alerts`);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toEqual({
        message: INTEGRATION_MESSAGES.mayNotViewAlerts,
        code: 'FORBIDDEN',
      });
      expect(refused.body).not.toContain('db password');
      expect(
        (await t.call(people.outsider, 'GET', `/api/integrations/${created.id}/alerts`)).statusCode,
      ).toBe(403);
      // Members, incident managers, managers and administrators read them.
      for (const reader of [people.noah, people.iris, people.otherManager, people.admin]) {
        const res = await t.call(reader, 'GET', `/api/incidents/${id}/alerts`);
        expect(res.statusCode, res.body).toBe(200);
        expect((res.json() as AlertList).alerts).toHaveLength(1);
      }
    }
    // An incident with no alerts has none to hide: an empty list.
    const quiet = await insertIncident(r.id, null);
    const none = await t.call(people.outsider, 'GET', `/api/incidents/${quiet}/alerts`);
    expect(none.statusCode, none.body).toBe(200);
    expect((none.json() as AlertList).alerts).toEqual([]);
  });
});

describe('query counts', () => {
  async function count(user: User, url: string) {
    await t.call(user, 'GET', url);
    await t.database.db.execute(sql`select 1`);
    statements = 0;
    counting = true;
    const res = await t.call(user, 'GET', url);
    counting = false;
    expect(res.statusCode, res.body).toBe(200);
    return statements;
  }

  test('the list and the alert lists run as many statements for 2 as for 20', async () => {
    const r = await rotation();
    const seed = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const made = await create(people.manager, {
          name: `Source ${i} ${suffix()}`,
          ...(i % 2 === 0 ? { rotationId: r.id } : { escalationPolicyId: r.escalationPolicyId }),
        });
        const incidentId = await insertIncident(r.id, made.id);
        await insertAlert(made.id, { pageId: incidentId });
      }
    };
    await seed(2);
    const [one] = await list(people.olivia);
    const [incident] = await t.database.db.select().from(pages).limit(1);
    const urls = [
      '/api/integrations',
      `/api/integrations/${one.id}/alerts`,
      `/api/incidents/${incident.id}/alerts`,
    ];
    const few = [];
    for (const url of urls) few.push(await count(people.olivia, url));
    await seed(18);
    const many = [];
    for (const url of urls) many.push(await count(people.olivia, url));
    expect(await list(people.olivia)).toHaveLength(20);
    expect(many).toEqual(few);
  });
});

describe('send test alert', () => {
  test('raises an incident through the integration, as its tool would; each test its own', async () => {
    const r = await rotation();
    const created = await create(people.manager, { name: 'Prometheus', rotationId: r.id });
    t.clock.set('2026-11-02T12:05:00Z');
    const res = await t.call(people.manager, 'POST', `/api/integrations/${created.id}/test`);
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json() as TestAlertResult;
    expect(result).toEqual({ incidentId: expect.any(Number), outcome: 'raised' });

    const incident = (
      await t.call(people.olivia, 'GET', `/api/incidents/${result.incidentId}`)
    ).json() as Incident;
    expect(incident).toMatchObject({
      title: 'Test alert from Prometheus',
      severity: 'P3',
      urgency: 'low',
      rotation: { id: r.id },
      integration: { id: created.id, name: 'Prometheus' },
      raisedBy: { kind: 'integration', user: null, name: 'Prometheus' },
      alertCount: 1,
      storm: false,
    });
    expect(incident.assignees.map((p) => p.id)).toEqual([people.olivia.id]);

    const second = await t.call(people.admin, 'POST', `/api/integrations/${created.id}/test`, {
      severity: 'P1',
    });
    expect(second.statusCode, second.body).toBe(201);
    const again = second.json() as TestAlertResult;
    expect(again.outcome).toBe('raised');
    expect(again.incidentId).not.toBe(result.incidentId);
    const p1 = (await t.call(people.olivia, 'GET', `/api/incidents/${again.incidentId}`)).json();
    expect(p1).toMatchObject({ severity: 'P1', urgency: 'high' });

    const alertList = (
      await t.call(people.olivia, 'GET', `/api/integrations/${created.id}/alerts`)
    ).json() as AlertList;
    expect(alertList.alerts.map((a) => [a.incidentId, a.format, a.outcome, a.severity])).toEqual([
      [again.incidentId, 'test', 'raised', 'P1'],
      [result.incidentId, 'test', 'raised', 'P3'],
    ]);
    const [latest, first] = alertList.alerts;
    expect(latest).toMatchObject({ summary: 'Test alert from Prometheus', source: 'Baton' });
    expect(first.details).toContainEqual({
      section: 'Test alert',
      label: 'sent by',
      value: 'Morgan Manager',
    });
    expect(JSON.parse(first.payload ?? '')).toMatchObject({ test: true, sentBy: 'Morgan Manager' });
    const ofIncident = (
      await t.call(people.olivia, 'GET', `/api/incidents/${result.incidentId}/alerts`)
    ).json() as AlertList;
    expect(ofIncident.alerts.map((a) => a.id)).toEqual([first.id]);

    const [shown] = await list(people.manager);
    expect(shown).toMatchObject({
      lastUsedAt: '2026-11-02T12:05:00.000Z',
      counts: { alerts: 2, incidents: 2, openIncidents: 2 },
    });
  });

  test('only those who manage it; 404 first; a bad severity is 400 and raises nothing', async () => {
    const r = await rotation();
    const created = await create(people.manager, { name: 'Grafana', rotationId: r.id });
    for (const user of [people.olivia, people.iris, people.otherManager]) {
      const res = await t.call(user, 'POST', `/api/integrations/${created.id}/test`);
      expect(res.statusCode, user.name).toBe(403);
      expect(res.json().message).toBe(INTEGRATION_MESSAGES.mayNotManage);
    }
    expect(
      (await t.call(people.otherManager, 'POST', '/api/integrations/999999/test')).statusCode,
    ).toBe(404);
    const bad = await t.call(people.manager, 'POST', `/api/integrations/${created.id}/test`, {
      severity: 'P4',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(`severity: ${INTEGRATION_MESSAGES.severity}`);
    expect(await t.database.db.select().from(alerts)).toEqual([]);
    expect(await t.database.db.select().from(pages)).toEqual([]);
  });
});

describe('whom a test alert would page (decision 261)', () => {
  test('the people of the first step that reaches someone, each with why; nothing written', async () => {
    const r = await rotation('Payments');
    const created = await create(people.manager, { name: 'Prometheus', rotationId: r.id });
    const res = await t.call(people.manager, 'GET', `/api/integrations/${created.id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json() as TestAlertPreview;
    expect(preview).toEqual({
      rotation: { id: r.id, name: 'Payments' },
      policyName: expect.any(String),
      step: 1,
      pages: [{ id: people.olivia.id, name: people.olivia.name, reasons: ['holder'] }],
    });
    expect(await t.database.db.select().from(alerts)).toEqual([]);
    expect(await t.database.db.select().from(pages)).toEqual([]);

    // Nobody holds the baton: the holder's steps are skipped and the next on call is paged.
    await t.database.db.execute(sql`UPDATE rotations SET holder_user_id = NULL WHERE id = ${r.id}`);
    const nobody = (
      await t.call(people.manager, 'GET', `/api/integrations/${created.id}/test`)
    ).json() as TestAlertPreview;
    expect(nobody.step).toBe(3);
    expect(nobody.pages.map((p) => [p.name, p.reasons])).toEqual([
      [people.olivia.name, ['next on call']],
    ]);
  });

  test('only those who manage it, 404 first', async () => {
    const r = await rotation();
    const created = await create(people.manager, { name: 'Grafana', rotationId: r.id });
    for (const user of [people.olivia, people.iris, people.otherManager]) {
      const res = await t.call(user, 'GET', `/api/integrations/${created.id}/test`);
      expect(res.statusCode, user.name).toBe(403);
    }
    expect(
      (await t.call(people.otherManager, 'GET', '/api/integrations/999999/test')).statusCode,
    ).toBe(404);
  });
});
