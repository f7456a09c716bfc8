import { describe, expect, test } from 'vitest';
import type { User } from '../../../shared/contracts/users';
import {
  at,
  getIncident,
  insertEvent,
  insertIncident,
  insertNotification,
  people,
  rotation,
  setUpIncidentApp,
  t,
} from './incident-routes.fixtures';

setUpIncidentApp();

describe('GET /api/incidents/:id', () => {
  test('the timeline: every kind, oldest first, steps one-based, reasons and notes opened', async () => {
    const r = await rotation();
    const id = await insertIncident({ rotationId: r.id, title: 'API latency' });
    const olivia = people.olivia.id;
    const noah = people.noah.id;
    await insertEvent(id, 'incident.raised', { source: 'user' }, { actor: people.manager.id });
    await insertEvent(id, 'incident.step_reached', {
      step: 0,
      loop: 0,
      notified: [{ userId: olivia, reasons: ['holder'] }],
      skipped: [{ target: { type: 'rotation-backup', id: r.id }, reason: 'nobody to notify' }],
      reminder: false,
      automatic: true,
    });
    await insertNotification(id, {
      userId: olivia,
      channel: 'email',
      status: 'sent',
      attempts: 1,
      at: at(0),
    });
    await insertNotification(id, {
      userId: olivia,
      channel: 'sms',
      status: 'failed',
      attempts: 5,
      lastError: 'Twilio 21614: not a mobile number',
      at: at(0),
    });
    await insertEvent(
      id,
      'incident.step_reached',
      {
        step: 1,
        loop: 0,
        notified: [{ userId: olivia, reasons: ['holder'] }],
        skipped: [],
        reminder: true,
        automatic: true,
      },
      { at: at(10) },
    );
    await insertNotification(id, {
      userId: olivia,
      channel: 'email',
      status: 'pending',
      attempts: 1,
      lastError: 'SMTP 451',
      at: at(10),
    });
    await insertEvent(
      id,
      'incident.step_skipped',
      {
        step: 2,
        loop: 0,
        reason: 'person deleted',
        skipped: [{ target: { type: 'user', id: 4242 }, reason: 'person deleted', userId: 4242 }],
      },
      { at: at(30) },
    );
    await insertEvent(
      id,
      'incident.escalated',
      { fromStep: 2, toStep: 1, loop: 0, automatic: false },
      { actor: people.iris.id, at: at(31), reason: 'Olivia is on a plane' },
    );
    await insertEvent(
      id,
      'incident.step_reached',
      {
        step: 1,
        loop: 0,
        notified: [{ userId: noah, reasons: ['next on call'] }],
        skipped: [],
        reminder: false,
        automatic: false,
      },
      { actor: people.iris.id, at: at(31) },
    );
    await insertNotification(id, {
      userId: noah,
      channel: 'email',
      status: 'sent',
      attempts: 2,
      at: at(31),
    });
    await insertEvent(
      id,
      'incident.reassigned',
      { toUserId: people.priya.id },
      { actor: people.manager.id, at: at(35), reason: 'Priya knows the API' },
    );
    await insertEvent(id, 'incident.exhausted', { loops: 1 }, { at: at(40) });
    await insertEvent(
      id,
      'page.acknowledged',
      { via: 'sms' },
      { actor: people.priya.id, at: at(41) },
    );
    const noted = await t.call(people.priya, 'POST', `/api/incidents/${id}/notes`, {
      text: '  Rolled back the deploy  ',
    });
    expect(noted.statusCode, noted.body).toBe(403); // Priya was never notified: the event alone
    t.clock.set(at(42));
    const ok = await t.call(people.olivia, 'POST', `/api/incidents/${id}/notes`, {
      text: '  Rolled back the deploy  ',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    await insertEvent(
      id,
      'page.resolved',
      { via: 'app', from: 'acknowledged' },
      { actor: olivia, at: at(50) },
    );

    const timeline = (await getIncident(people.outsider, id)).timeline ?? [];
    const person = (u: User) => ({ id: u.id, name: u.name });
    expect(timeline).toEqual([
      { kind: 'raised', at: at(0).toISOString(), actor: person(people.manager) },
      {
        kind: 'step_reached',
        at: at(0).toISOString(),
        actor: null,
        step: 1,
        loop: 1,
        notified: [{ ...person(people.olivia), reasons: ['holder'] }],
        skipped: [
          {
            target: { type: 'rotation-backup', id: r.id },
            reason: 'nobody to notify',
            person: null,
          },
        ],
        automatic: true,
      },
      {
        kind: 'notified',
        at: at(0).toISOString(),
        actor: null,
        to: person(people.olivia),
        channel: 'email',
        delivery: 'sent',
        attempts: 1,
        error: null,
      },
      {
        kind: 'notified',
        at: at(0).toISOString(),
        actor: null,
        to: person(people.olivia),
        channel: 'sms',
        delivery: 'failed',
        attempts: 5,
        error: 'Twilio 21614: not a mobile number',
      },
      {
        kind: 'reminder',
        at: at(10).toISOString(),
        actor: null,
        step: 2,
        loop: 1,
        notified: [{ ...person(people.olivia), reasons: ['holder'] }],
        skipped: [],
        automatic: true,
      },
      {
        kind: 'notified',
        at: at(10).toISOString(),
        actor: null,
        to: person(people.olivia),
        channel: 'email',
        delivery: 'retried',
        attempts: 1,
        error: 'SMTP 451',
      },
      {
        kind: 'step_skipped',
        at: at(30).toISOString(),
        actor: null,
        step: 3,
        loop: 1,
        skipReason: 'person deleted',
        skipped: [{ target: { type: 'user', id: 4242 }, reason: 'person deleted', person: null }],
      },
      {
        kind: 'escalated',
        at: at(31).toISOString(),
        actor: person(people.iris),
        step: 2,
        loop: 1,
        reason: 'Olivia is on a plane',
        automatic: false,
      },
      {
        kind: 'step_reached',
        at: at(31).toISOString(),
        actor: person(people.iris),
        step: 2,
        loop: 1,
        notified: [{ ...person(people.noah), reasons: ['next on call'] }],
        skipped: [],
        automatic: false,
      },
      {
        kind: 'notified',
        at: at(31).toISOString(),
        actor: null,
        to: person(people.noah),
        channel: 'email',
        delivery: 'sent',
        attempts: 2,
        error: null,
      },
      {
        kind: 'reassigned',
        at: at(35).toISOString(),
        actor: person(people.manager),
        notified: [{ ...person(people.priya), reasons: ['reassigned'] }],
        reason: 'Priya knows the API',
      },
      { kind: 'exhausted', at: at(40).toISOString(), actor: null },
      { kind: 'acknowledged', at: at(41).toISOString(), actor: person(people.priya), via: 'sms' },
      {
        kind: 'note',
        at: at(42).toISOString(),
        actor: person(people.olivia),
        text: 'Rolled back the deploy',
      },
      { kind: 'resolved', at: at(50).toISOString(), actor: person(people.olivia), via: 'app' },
    ]);
  });
});
