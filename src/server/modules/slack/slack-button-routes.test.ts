import { eq } from 'drizzle-orm';
import { describe, expect, test, vi } from 'vitest';
import { INCIDENT_MESSAGES, type Incident } from '../../../shared/contracts/incidents';
import type { SlackBlock } from '../../../shared/contracts/slack';
import type { User } from '../../../shared/contracts/users';
import { handoffs } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { SLACK_ESCALATION_REASON } from './slack-interactions';
import { SLACK_PEOPLE_MESSAGES } from './slack-people';
import {
  click,
  clickPayload,
  incident,
  people,
  posted,
  postedMessage,
  postSigned,
  SLACK,
  setUpSlackSuite,
  slackUser,
  slackUsers,
  status,
  t,
  usersInfoCalls,
} from './slack-routes.fixtures';

// The buttons on Baton's messages in Slack: acknowledge, resolve and escalate, as the person.
setUpSlackSuite();

async function incidentAs(user: User, id: number): Promise<Incident> {
  const res = await t.app.inject({
    url: `/api/incidents/${id}`,
    headers: { cookie: await t.cookieFor(user) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Incident>();
}

const contextLine = (blocks: SlackBlock[] | undefined) => {
  const context = blocks?.at(-1) as { type: string; elements: { text: string }[] } | undefined;
  expect(context?.type).toBe('context');
  return context?.elements[0].text ?? '';
};

describe('the buttons', () => {
  test('a signed Acknowledge acknowledges as the person, from Slack, and updates the message', async () => {
    const { id } = await incident();
    const res = await click(SLACK.olivia, 'incident.acknowledge', String(id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('');
    const seen = await incidentAs(people.manager, id);
    expect(seen.status).toBe('acknowledged');
    expect(seen.timeline?.find((e) => e.kind === 'acknowledged')).toMatchObject({
      actor: { id: people.olivia.id, name: 'Olivia <Ortiz>' },
      via: 'slack',
    });
    const message = await postedMessage();
    expect(message.replace_original).toBe(true);
    expect(message.text).toBe('Incident: Checkout is failing');
    // The summary stays; of the buttons only Resolve is left; a line says who and when.
    expect(message.blocks?.[0]).toMatchObject({ block_id: 'summary' });
    const actions = message.blocks?.[1] as unknown as {
      block_id: string;
      elements: { action_id: string }[];
    };
    expect(actions.block_id).toBe('baton-actions');
    expect(actions.elements.map((e) => e.action_id)).toEqual(['incident.resolve']);
    const seconds = Math.floor(t.clock.now().getTime() / 1000);
    expect(contextLine(message.blocks)).toBe(
      `Acknowledged by Olivia &lt;Ortiz&gt; at <!date^${seconds}^{date_short_pretty} at {time}|Mon, Nov 2, 2026, 6:00 AM CST>`,
    );
  });

  test('a second Acknowledge is refused as the screen refuses it, to the clicker alone', async () => {
    const { id } = await incident();
    expect((await click(SLACK.olivia, 'incident.acknowledge', String(id))).statusCode).toBe(200);
    await postedMessage();
    posted.length = 0;
    const res = await click(SLACK.morgan, 'incident.acknowledge', String(id));
    expect(res.statusCode).toBe(200);
    const message = await postedMessage();
    expect(message).toEqual({
      response_type: 'ephemeral',
      replace_original: false,
      text: INCIDENT_MESSAGES.acknowledgedBy('Olivia <Ortiz>', 'Mon, Nov 2, 2026, 12:00 PM UTC'),
    });
  });

  test('Resolve resolves and takes the buttons away', async () => {
    const { id } = await incident();
    expect((await click(SLACK.morgan, 'incident.resolve', String(id))).statusCode).toBe(200);
    const seen = await incidentAs(people.manager, id);
    expect(seen.status).toBe('resolved');
    expect(seen.timeline?.find((e) => e.kind === 'resolved')).toMatchObject({
      actor: { id: people.manager.id },
      via: 'slack',
    });
    const message = await postedMessage();
    expect(message.blocks?.map((b) => b.block_id ?? b.type)).toEqual(['summary', 'context']);
    expect(contextLine(message.blocks)).toMatch(/^Resolved by Morgan Manager at <!date\^/);
  });

  test('Escalate escalates to the next step with the reason "Escalated from Slack"', async () => {
    const { id } = await incident();
    expect((await click(SLACK.olivia, 'incident.escalate', String(id))).statusCode).toBe(200);
    const seen = await incidentAs(people.manager, id);
    expect(seen.timeline?.find((e) => e.kind === 'escalated')).toMatchObject({
      actor: { id: people.olivia.id },
      reason: SLACK_ESCALATION_REASON,
    });
    const message = await postedMessage();
    // Still open: every button stays.
    const actions = message.blocks?.[1] as unknown as { elements: unknown[] };
    expect(actions.elements).toHaveLength(3);
    expect(contextLine(message.blocks)).toMatch(/^Escalated by Olivia &lt;Ortiz&gt; at /);
  });

  test('a signed Escalate click replayed three times moves the incident one step (decision 236)', async () => {
    const { id } = await incident();
    expect((await incidentAs(people.manager, id)).currentStep).toBe(1);
    // The button as Baton posts it carries the step its message showed.
    const body = new URLSearchParams({
      payload: JSON.stringify(clickPayload(SLACK.olivia, 'incident.escalate', `${id}:1`)),
    }).toString();
    for (let i = 0; i < 4; i++) {
      expect((await postSigned('/api/slack/interactions', body)).statusCode).toBe(200);
    }
    await vi.waitFor(() => expect(posted).toHaveLength(4), { timeout: 5_000 });
    const seen = await incidentAs(people.manager, id);
    expect(seen.currentStep).toBe(2);
    expect(seen.timeline?.filter((e) => e.kind === 'escalated')).toHaveLength(1);
    const answers = posted.map((p) => p.body);
    expect(answers.filter((a) => a.replace_original === true)).toHaveLength(1);
    expect(answers.filter((a) => a.response_type === 'ephemeral')).toEqual(
      Array.from({ length: 3 }, () => ({
        response_type: 'ephemeral',
        replace_original: false,
        text: INCIDENT_MESSAGES.alreadyMoved(2),
      })),
    );
  });

  test.each([
    ['someone outside the rotation', SLACK.outsider],
    ['a member it did not notify', SLACK.noah],
  ])('%s: the rules refuse, nothing changes, the screen’s words', async (_who, slackId) => {
    const { id } = await incident();
    expect((await click(slackId, 'incident.acknowledge', String(id))).statusCode).toBe(200);
    expect(await postedMessage()).toMatchObject({
      response_type: 'ephemeral',
      replace_original: false,
      text: INCIDENT_MESSAGES.mayNotAct,
    });
    expect(await status(id)).toBe('triggered');
  });

  test.each([
    [
      SLACK.stranger,
      SLACK_PEOPLE_MESSAGES.unknown('stranger@elsewhere.test', 'http://localhost:3000'),
    ],
    [SLACK.unconfirmed, SLACK_PEOPLE_MESSAGES.unconfirmed],
    ['U0NOBODY', SLACK_PEOPLE_MESSAGES.unavailable],
  ])('Slack user %s: nothing changes, an ephemeral answer says why', async (slackId, text) => {
    const { id } = await incident();
    expect((await click(slackId, 'incident.resolve', String(id))).statusCode).toBe(200);
    expect(await status(id)).toBe('triggered');
    expect(await postedMessage()).toEqual({
      response_type: 'ephemeral',
      replace_original: false,
      text,
    });
  });

  test('an unknown incident or button changes nothing', async () => {
    expect((await click(SLACK.olivia, 'incident.acknowledge', '999999')).statusCode).toBe(200);
    expect((await postedMessage()).text).toBe(INCIDENT_MESSAGES.notFound);
    posted.length = 0;
    expect((await click(SLACK.olivia, 'incident.delete', '1')).statusCode).toBe(200);
    expect((await postedMessage()).response_type).toBe('ephemeral');
  });

  test('the Slack user’s email is asked once and remembered for a few minutes', async () => {
    const { id } = await incident();
    slackUsers.set('U0REMEMBER', slackUser('olivia@example.com'));
    const before = usersInfoCalls;
    await click('U0REMEMBER', 'incident.escalate', String(id));
    await postedMessage();
    posted.length = 0;
    await click('U0REMEMBER', 'incident.acknowledge', String(id));
    await postedMessage();
    expect(usersInfoCalls - before).toBe(1);
    expect(await status(id)).toBe('acknowledged');
  });

  test('Acknowledge on a handoff message acknowledges the incoming holder’s handoff', async () => {
    const r = await insertRotation(t.database.db, {
      name: `Handoffs ${Math.random().toString(36).slice(2, 7)}`,
      memberIds: [people.olivia.id, people.noah.id],
      holderId: people.olivia.id,
      createdById: people.manager.id,
      now: t.clock.now(),
    });
    const pass = await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${r.id}/handoff`,
      payload: { toUserId: people.noah.id },
      headers: { cookie: await t.cookieFor(people.olivia) },
    });
    expect(pass.statusCode, pass.body).toBe(200);
    // Olivia passed it: only Noah, who received the baton, may acknowledge.
    await click(SLACK.olivia, 'handoff.acknowledge', String(r.id));
    expect((await postedMessage()).text).toBe(
      'Only the person who received the baton can acknowledge this handoff.',
    );
    posted.length = 0;
    expect((await click(SLACK.noah, 'handoff.acknowledge', String(r.id))).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(handoffs).where(eq(handoffs.rotationId, r.id));
    expect(row.acknowledgedAt?.toISOString()).toBe(t.clock.now().toISOString());
    const message = await postedMessage();
    expect(message.replace_original).toBe(true);
    expect(contextLine(message.blocks)).toMatch(/^Acknowledged by Noah Nakamura at /);
  });
});
