import { and, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { INCIDENT_MESSAGES, type Incident } from '../../../shared/contracts/incidents';
import type { Page } from '../../../shared/contracts/paging';
import { auditEvents, notifications, pages } from '../../db/schema';
import { insertIntegration } from '../../seed/factories';
import { at, getIncident, people, rotation, setUpIncidentApp, t } from './incident-routes.fixtures';

/**
 * Resolution notes and Reopen (decision 261) through the app: the note sealed on the timeline and
 * shown on the incident; a resolved incident back to triggered, its policy climbed again from step
 * 1; who may, and the refusals in order (404, 403, 409). And issue 35's bug: an incident an
 * integration raised never reads as a deleted user's.
 */

setUpIncidentApp();

/** A page on a fresh rotation: Olivia holds it, so step 1 pages her. */
async function paged(message = 'Checkout is failing') {
  const r = await rotation('Payments');
  const res = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/page`, { message });
  expect(res.statusCode, res.body).toBe(201);
  const [row] = await t.database.db.select().from(pages).where(eq(pages.rotationId, r.id));
  return { r, id: row.id };
}

const post = (who: keyof typeof people, id: number, action: string, body?: unknown) =>
  t.call(people[who], 'POST', `/api/incidents/${id}/${action}`, body);

const pagesTo = async (incidentId: number, userId: number) =>
  (
    await t.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.pageId, incidentId), eq(notifications.userId, userId)))
  ).filter((n) => n.kind === 'page').length;

describe('a resolution note', () => {
  test('is given when resolving, shown on the incident and in the timeline, sealed at rest', async () => {
    const { id } = await paged();
    t.clock.set(at(4));
    expect((await post('olivia', id, 'acknowledge')).statusCode).toBe(200);
    t.clock.set(at(62));
    const note = 'Rolled back 1.4.2; see https://status.example/incidents/42';
    const res = await post('olivia', id, 'resolve', { note: `  ${note}  ` });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as Incident).resolutionNote).toBe(note);

    const incident = await getIncident(people.manager, id);
    expect(incident).toMatchObject({
      status: 'resolved',
      resolutionNote: note,
      acknowledgedAt: at(4).toISOString(),
      resolvedAt: at(62).toISOString(),
    });
    expect(incident.timeline?.find((e) => e.kind === 'resolved')).toMatchObject({
      actor: { id: people.olivia.id, name: 'Olivia Ortiz' },
      text: note,
    });
    // Sealed: the event's details hold the note only encrypted.
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, String(id)), eq(auditEvents.action, 'page.resolved')));
    expect(JSON.stringify(event.details)).not.toContain('Rolled back');
  });

  test('is optional (no body, or an empty note), and refused past its limit', async () => {
    const { id } = await paged();
    const tooLong = await post('olivia', id, 'resolve', { note: 'x'.repeat(5_001) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().fields).toEqual({
      note: 'Keep the resolution note under 5,000 characters',
    });
    expect((await post('olivia', id, 'resolve', { note: 42 })).statusCode).toBe(400);
    const res = await post('olivia', id, 'resolve');
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as Incident).resolutionNote).toBeNull();
    const other = await paged('Another');
    const empty = await post('olivia', other.id, 'resolve', { note: '   ' });
    expect(empty.statusCode, empty.body).toBe(200);
    expect((empty.json() as Incident).resolutionNote).toBeNull();
  });
});

describe('reopening an incident', () => {
  test('404, then 403 for someone who does not answer for it, then 409 unless resolved', async () => {
    const { id } = await paged();
    expect((await post('outsider', 999_999, 'reopen')).statusCode).toBe(404);
    const stranger = await post('outsider', id, 'reopen');
    expect([stranger.statusCode, stranger.json().message]).toEqual([
      403,
      INCIDENT_MESSAGES.mayNotAct,
    ]);
    const open = await post('olivia', id, 'reopen');
    expect([open.statusCode, open.json().message]).toEqual([409, INCIDENT_MESSAGES.notResolved]);
    expect((await post('olivia', id, 'reopen', { reason: 7 })).statusCode).toBe(400);
    expect((await post('olivia', id, 'reopen', { reason: 'x'.repeat(501) })).statusCode).toBe(400);
    // Resolved: the outsider still may not; the read offers Reopen only to a responder.
    expect((await post('olivia', id, 'resolve')).statusCode).toBe(200);
    expect((await post('outsider', id, 'reopen')).statusCode).toBe(403);
    expect((await getIncident(people.olivia, id)).actions.reopen).toBe(true);
    expect((await getIncident(people.outsider, id)).actions.reopen).toBe(false);
  });

  test('takes it back to triggered and climbs its policy again from step 1', async () => {
    const { r, id } = await paged();
    t.clock.set(at(3));
    expect((await post('olivia', id, 'acknowledge')).statusCode).toBe(200);
    t.clock.set(at(20));
    expect((await post('olivia', id, 'resolve', { note: 'Restarted the pods' })).statusCode).toBe(
      200,
    );
    const before = await pagesTo(id, people.olivia.id);

    t.clock.set(at(45));
    const res = await post('manager', id, 'reopen', { reason: 'Errors are back' });
    expect(res.statusCode, res.body).toBe(200);
    const reopened = await getIncident(people.manager, id);
    expect(reopened).toMatchObject({
      status: 'triggered',
      currentStep: 1,
      currentLoop: 1,
      acknowledgedAt: null,
      acknowledgedBy: null,
      resolvedAt: null,
      resolvedBy: null,
      resolutionNote: null,
      assignees: [{ id: people.olivia.id, name: 'Olivia Ortiz' }],
      // the default policy's reminder comes 15 minutes after step 1 again
      nextStepAt: at(60).toISOString(),
      actions: { acknowledge: true, resolve: true, reopen: false },
    });
    // Step 1's people are paged afresh: Olivia has a new page.
    expect(await pagesTo(id, people.olivia.id)).toBe(before + 1);
    const kinds = (reopened.timeline ?? []).filter((e) => e.kind !== 'notified').map((e) => e.kind);
    expect(kinds.slice(-3)).toEqual(['resolved', 'reopened', 'step_reached']);
    expect(reopened.timeline?.find((e) => e.kind === 'reopened')).toMatchObject({
      actor: { id: people.manager.id, name: 'Morgan Manager' },
      reason: 'Errors are back',
    });
    // The earlier resolution keeps its note in the timeline.
    expect(reopened.timeline?.find((e) => e.kind === 'resolved')?.text).toBe('Restarted the pods');
    // The page history shows the reopen too.
    const history = (
      await t.call(people.olivia, 'GET', `/api/rotations/${r.id}/pages`)
    ).json() as Page[];
    expect(history[0].status).toBe('triggered');
    expect(history[0].events.map((e) => e.kind)).toContain('reopened');

    // It can be acknowledged and resolved again; its times count from the first raise.
    t.clock.set(at(50));
    expect((await post('olivia', id, 'acknowledge')).statusCode).toBe(200);
    expect((await post('olivia', id, 'resolve')).statusCode).toBe(200);
    expect(await getIncident(people.olivia, id)).toMatchObject({
      acknowledgedAt: at(50).toISOString(),
      resolvedAt: at(50).toISOString(),
      createdAt: at(0).toISOString(),
    });
  });
});

describe('an incident an integration raised (issue 35)', () => {
  test('names the integration, and whoever resolved it, even once the integration is deleted', async () => {
    const r = await rotation('Payments');
    const { integration, key } = await insertIntegration(t.database.db, t.cipher, {
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
    const [row] = await t.database.db.select().from(pages).where(eq(pages.rotationId, r.id));
    t.clock.set(at(5));
    expect((await post('olivia', row.id, 'resolve', { note: 'Cleared old logs' })).statusCode).toBe(
      200,
    );
    const removed = await t.call(people.admin, 'DELETE', `/api/integrations/${integration.id}`);
    expect(removed.statusCode, removed.body).toBe(204);

    const incident = await getIncident(people.manager, row.id);
    expect(incident.raisedBy).toEqual({ kind: 'integration', user: null, name: 'Grafana prod' });
    expect(incident.resolvedBySource).toMatchObject({ kind: 'user', name: 'Olivia Ortiz' });
    expect(incident.timeline?.find((e) => e.kind === 'raised')).toMatchObject({
      actor: null,
      source: 'Grafana prod',
    });
    const [page] = (
      await t.call(people.manager, 'GET', `/api/rotations/${r.id}/pages`)
    ).json() as Page[];
    expect(page.raisedBy).toEqual({ kind: 'integration', user: null, name: 'Grafana prod' });
    expect(page.events.find((e) => e.kind === 'resolved')?.actor?.name).toBe('Olivia Ortiz');
  });
});
