import { randomUUID } from 'node:crypto';
import type { Severity } from '../../../shared/contracts/incidents';
import {
  INTEGRATION_MESSAGES,
  type TestAlertInput,
  type TestAlertResult,
} from '../../../shared/contracts/integrations';
import type { User } from '../../../shared/contracts/users';
import { type AlertEvent, summaryLine, urgencyOf } from '../../../shared/domain/alerts';
import { managesIntegration } from '../../../shared/domain/integrations';
import { forbidden, notFound } from '../../http/errors';
import { type IntegrationRow, normalizeOptionsOf } from '../integrations/integration-keys';
import { findIntegrationRow } from '../integrations/integration-repository';
import { factsOf, type IntegrationDeps, loadDeciders } from '../integrations/integration-service';
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
  const db = deps.database.db;
  // Checked before the intake's own transaction: one connection (PGlite) holds one at a time.
  const row = await findIntegrationRow(db, id);
  if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
  const deciders = await loadDeciders(db, [row]);
  if (!managesIntegration(actor, factsOf(row, deciders))) {
    throw forbidden(INTEGRATION_MESSAGES.mayNotManage);
  }
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
