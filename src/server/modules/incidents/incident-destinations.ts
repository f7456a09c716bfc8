import { idsKey, sharedRead } from '../../db/batch-transaction';
import type { Tx } from '../../db/client';
import { announce } from '../notifications/announce';
import type { IncidentEventType } from '../notifications/events';
import type { NotifyDeps } from '../notifications/notify';
import { loadNames } from '../users/user-repository';
import { titleOf } from './incident-reads';
import type { IncidentRow } from './incident-repository';

/**
 * postIncident posts an incident's change (raised, acknowledged, escalated, resolved) to the chat
 * and webhook destinations of its rotation, its escalation policy and its integration (decision
 * 221), in the change's transaction. An escalation is keyed by its step and loop, so each climb
 * is posted once; the others once per incident.
 */
export async function postIncident(
  tx: Tx,
  deps: NotifyDeps,
  event: {
    type: IncidentEventType;
    incident: IncidentRow;
    rotation: { id: number; name: string } | null;
    /** who acknowledged or resolved it (read), or the source's name when no person did */
    byUserId?: number | null;
    byName?: string | null;
    now: Date;
  },
): Promise<number> {
  const { incident } = event;
  let byName = event.byName ?? null;
  // For an escalation, "by" is whom it now pages.
  const people =
    event.type === 'incident.escalated'
      ? incident.assigneeIds
      : event.byUserId
        ? [event.byUserId]
        : [];
  if (people.length > 0) {
    const names = await sharedRead(tx, `names:${idsKey(people)}`, () =>
      loadNames(tx, deps.cipher, people),
    );
    byName = [...names.values()].map((p) => p.name).join(', ') || byName;
  }
  const key =
    event.type === 'incident.escalated'
      ? `incident:${incident.id}:escalated:${incident.loop}:${incident.stepIndex}`
      : `incident:${incident.id}:${event.type.slice('incident.'.length)}`;
  const facts = {
    id: incident.id,
    title: titleOf(deps.cipher, incident),
    severity: incident.severity,
    status: incident.status,
  };
  const ids = await announce(tx, deps, event.now, {
    type: event.type,
    key,
    at: event.now,
    incident: facts,
    step: incident.stepIndex + 1,
    rotation: event.rotation,
    byName,
    rotationId: event.rotation?.id ?? incident.rotationId,
    escalationPolicyId: incident.escalationPolicyId,
    integrationId: incident.integrationId,
  });
  return ids.length;
}
