import { randomUUID } from 'node:crypto';
import type { Severity } from '../../../shared/contracts/incidents';
import {
  INTEGRATION_MESSAGES,
  type TestAlertInput,
  type TestAlertPreview,
  type TestAlertResult,
} from '../../../shared/contracts/integrations';
import type { User } from '../../../shared/contracts/users';
import { type AlertEvent, summaryLine, urgencyOf } from '../../../shared/domain/alerts';
import { resolveStep } from '../../../shared/domain/escalation';
import { managesIntegration } from '../../../shared/domain/integrations';
import { forbidden, notFound } from '../../http/errors';
import { loadEscalationWorld } from '../escalation-policies/escalation-policy-service';
import { type IntegrationRow, normalizeOptionsOf } from '../integrations/integration-keys';
import { findIntegrationRow } from '../integrations/integration-repository';
import { factsOf, type IntegrationDeps, loadDeciders } from '../integrations/integration-service';
import { findPolicyRow, findRotationRow } from '../rotations/rotation-repository';
import { type IntakeDeps, receiveAlerts } from './alert-intake';

// Send test alert: the integration screen's button, an alert through the intake like any other.

/**
 * testAlertOf builds the screen's "Send test alert": one trigger with a fresh dedup key each time
 * (so each test raises its own incident), the severity asked for (P3 unless given), and details
 * naming who sent it.
 */
export function testAlertOf(
  integration: Pick<IntegrationRow, 'name' | 'urgency'>,
  sender: Pick<User, 'name'>,
  severity: Severity,
  at: Date,
): AlertEvent {
  const section = 'Test alert';
  return {
    action: 'trigger',
    dedupKey: `baton-test-${randomUUID()}`,
    summary: summaryLine(`Test alert from ${integration.name}`).summary,
    source: 'Baton',
    severity,
    urgency: urgencyOf(severity, normalizeOptionsOf(integration)),
    details: [
      { section, label: 'sent by', value: sender.name },
      { section, label: 'sent at', value: at.toISOString() },
      {
        section,
        label: 'why',
        value: `${sender.name} used “Send test alert” to check whom this integration pages.`,
      },
    ],
    links: [],
  };
}

/** managedIntegration reads an integration the actor manages: 404, then 403. */
async function managedIntegration(deps: IntegrationDeps, actor: User, id: number) {
  const db = deps.database.db;
  const row = await findIntegrationRow(db, id);
  if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
  const deciders = await loadDeciders(db, [row]);
  if (!managesIntegration(actor, factsOf(row, deciders))) {
    throw forbidden(INTEGRATION_MESSAGES.mayNotManage);
  }
  return row;
}

/**
 * previewTestAlert answers whom "Send test alert" would page now (decision 261): the people of the
 * first step of the integration's policy that reaches someone, as the engine's resolveStep finds
 * them over the rotations as they are (a step that reaches nobody is skipped at once, as at a
 * raise). Reads only; the sender sees it before sending.
 */
export async function previewTestAlert(
  deps: IntegrationDeps & IntakeDeps,
  actor: User,
  id: number,
): Promise<TestAlertPreview> {
  const db = deps.database.db;
  const { integration } = await managedIntegration(deps, actor, id);
  const rotation =
    integration.rotationId === null ? undefined : await findRotationRow(db, integration.rotationId);
  const policyId = rotation?.escalationPolicyId ?? integration.escalationPolicyId;
  const policy = policyId === null ? undefined : await findPolicyRow(db, policyId);
  if (!policy) throw notFound(INTEGRATION_MESSAGES.notFound);
  const now = deps.clock.now();
  const loaded = await loadEscalationWorld(db, deps, {
    policy,
    ownRotationIds: rotation ? [rotation.id] : [],
    now,
  });
  const base = {
    rotation: rotation ? { id: rotation.id, name: rotation.name } : null,
    policyName: policy.name,
  };
  for (const [index, step] of policy.steps.entries()) {
    // A round robin's turn is the engine's counter; the preview shows the first in turn.
    const resolution = resolveStep(step, { ...loaded.world, turn: 0 }, now);
    if (resolution.kind !== 'notify') continue;
    return {
      ...base,
      step: index + 1,
      pages: resolution.recipients.map((r) => ({
        id: r.userId,
        name: loaded.people.get(r.userId)?.name ?? 'Someone',
        reasons: r.reasons,
      })),
    };
  }
  return { ...base, step: null, pages: [] };
}

/**
 * sendTestAlert raises an incident through an integration the actor manages (404, then 403), as
 * its monitoring tool would: the intake does the rest (decision 209).
 */
export async function sendTestAlert(
  deps: IntegrationDeps & IntakeDeps,
  actor: User,
  id: number,
  input: TestAlertInput,
): Promise<TestAlertResult> {
  // Checked before the intake's own transaction: one connection (PGlite) holds one at a time.
  const row = await managedIntegration(deps, actor, id);
  const event = testAlertOf(row.integration, actor, input?.severity ?? 'P3', deps.clock.now());
  const payload = JSON.stringify({
    test: true,
    summary: event.summary,
    severity: event.severity,
    dedupKey: event.dedupKey,
    sentBy: actor.name,
  });
  const [receipt] = await receiveAlerts(deps, row.integration, {
    format: 'test',
    events: [event],
    payload,
  });
  return { incidentId: receipt.incidentId, outcome: receipt.outcome };
}
