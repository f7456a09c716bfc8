import { describe, expect, test } from 'vitest';
import { EscalationPreviewSchema } from '../../../shared/contracts/escalation-policies';
import {
  create,
  oneStep,
  people,
  rotation,
  setUpEscalationPolicySuite,
  t,
} from './escalation-policy-routes.fixtures';

let statements = 0;
let counting = false;
setUpEscalationPolicySuite(() => {
  if (counting) statements += 1;
});

describe('the preview', () => {
  test('each step resolves now: people by reason with their channels, skips with their reasons', async () => {
    const platform = await rotation({
      name: 'Preview platform',
      memberIds: [people.priya.id, people.noah.id, people.sam.id],
      holderId: people.priya.id,
      timeZone: 'Europe/Berlin',
    });
    const quiet = await rotation({
      name: 'Preview quiet',
      suspended: true,
      memberIds: [people.sam.id],
    });
    const policy = await create(people.admin, {
      name: 'Preview',
      repeat: 0,
      steps: [
        oneStep([
          { type: 'rotation-holder', id: platform.id },
          { type: 'rotation-members', id: platform.id },
        ]),
        oneStep([{ type: 'rotation-next', id: platform.id }]),
        oneStep([
          { type: 'rotation-holder', id: quiet.id },
          { type: 'rotation-backup', id: platform.id },
        ]),
        {
          delayMinutes: 5,
          targets: [{ type: 'user', id: people.manager.id }],
          // Nights only, Berlin time: 12:00 UTC is 13:00 there.
          activeHours: [
            { daysOfWeek: [0, 1, 2, 3, 4, 5, 6], startTime: '22:00', endTime: '07:00' },
          ],
        },
      ],
    });
    await t.call(people.admin, 'PATCH', `/api/rotations/${platform.id}`, {
      escalationPolicyId: policy.id,
    });
    const res = await t.call(people.noah, 'GET', `/api/escalation-policies/${policy.id}/preview`);
    expect(res.statusCode, res.body).toBe(200);
    const preview = EscalationPreviewSchema.parse(res.json());
    expect(preview).toMatchObject({
      policyId: policy.id,
      at: '2026-11-02T12:00:00.000Z',
      timeZone: 'Europe/Berlin',
    });
    expect(preview.steps[0]).toMatchObject({
      status: 'notify',
      skipReason: null,
      recipients: [
        {
          userId: people.priya.id,
          name: 'Priya Shah',
          reasons: ['holder', 'member'],
          channels: ['email', 'sms'],
        },
        { userId: people.noah.id, name: 'Noah Nakamura', reasons: ['member'], channels: ['email'] },
        { userId: people.sam.id, name: 'Sam Sullivan', reasons: ['member'], channels: ['email'] },
      ],
      skipped: [],
    });
    expect(preview.steps[1]).toMatchObject({
      status: 'notify',
      recipients: [{ userId: people.noah.id, reasons: ['next on call'] }],
    });
    expect(preview.steps[2]).toMatchObject({
      status: 'skip',
      skipReason: 'nobody to notify',
      recipients: [],
      skipped: [
        {
          target: { type: 'rotation-holder', id: quiet.id },
          reason: 'rotation suspended',
          userId: null,
        },
        {
          target: { type: 'rotation-backup', id: platform.id },
          reason: 'nobody to notify',
          userId: null,
        },
      ],
    });
    expect(preview.steps[3]).toMatchObject({
      status: 'skip',
      skipReason: 'outside the step hours',
    });
    // 23:00 in Berlin the night step reaches the manager.
    t.clock.set('2026-11-02T22:00:00Z');
    const night = EscalationPreviewSchema.parse(
      (await t.call(people.admin, 'GET', `/api/escalation-policies/${policy.id}/preview`)).json(),
    );
    expect(night.steps[3]).toMatchObject({
      status: 'notify',
      recipients: [{ userId: people.manager.id, reasons: ['named'] }],
    });
  });

  test('the preview and the list run the same number of statements for one target and for twenty', async () => {
    const members = [people.priya.id, people.noah.id, people.sam.id];
    const count = async (url: string) => {
      statements = 0;
      counting = true;
      const res = await t.call(people.admin, 'GET', url);
      counting = false;
      expect(res.statusCode).toBe(200);
      return statements;
    };
    const small = await rotation({ name: 'Small', memberIds: members, holderId: people.priya.id });
    const one = await create(people.admin, {
      name: 'One target',
      repeat: 0,
      steps: [oneStep([{ type: 'rotation-members', id: small.id }])],
    });
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        rotation({ name: `Many ${i}`, memberIds: members, holderId: people.noah.id }),
      ),
    );
    const twenty = await create(people.admin, {
      name: 'Twenty targets',
      repeat: 0,
      steps: [
        oneStep(many.map((r) => ({ type: 'rotation-members', id: r.id }))),
        oneStep(many.map((r) => ({ type: 'rotation-next', id: r.id }))),
      ],
    });
    // Both in use, so both read the members of the rotations that follow them.
    await t.call(people.admin, 'PATCH', `/api/rotations/${small.id}`, {
      escalationPolicyId: one.id,
    });
    await t.call(people.admin, 'PATCH', `/api/rotations/${many[0].id}`, {
      escalationPolicyId: twenty.id,
    });
    // A first read after a write looks the session up; the reads compared come after it.
    await count(`/api/escalation-policies/${one.id}/preview`);
    const first = await count(`/api/escalation-policies/${one.id}/preview`);
    expect(await count(`/api/escalation-policies/${twenty.id}/preview`)).toBe(first);
    const listBefore = await count('/api/escalation-policies');
    await Promise.all(Array.from({ length: 5 }, (_, i) => rotation({ name: `More ${i}` })));
    await count('/api/escalation-policies');
    expect(await count('/api/escalation-policies')).toBe(listBefore);
  });
});
