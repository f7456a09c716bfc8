import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AlertDetailRow, AlertLink } from '../../../shared/contracts/alerts';
import { INCIDENT_MESSAGES, type Severity } from '../../../shared/contracts/incidents';
import {
  type AlertList,
  type AlertListQuerySchema,
  type AlertRecord,
  INTEGRATION_MESSAGES,
  type Integration,
  type IntegrationChange,
  type IntegrationInput,
  type IntegrationList,
  type IntegrationListQuerySchema,
  type IntegrationWithKey,
  RATE_LIMIT_DEFAULT,
  STORM_LIMIT_DEFAULT,
  type TestAlertInput,
  type TestAlertResult,
} from '../../../shared/contracts/integrations';
import type { User } from '../../../shared/contracts/users';
import { type AlertEvent, summaryLine, urgencyOf } from '../../../shared/domain/alerts';
import {
  canViewIntegration,
  type IntegrationFacts,
  integrationEndpoints,
  managesIntegration,
} from '../../../shared/domain/integrations';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database, Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { forbidden, notFound } from '../../http/errors';
import { type IntakeDeps, receiveAlerts } from '../alerts/alert-intake';
import { findIncidentRow, loadNames } from '../incidents/incident-repository';
import { publicBaseUrl } from '../notifications/messages';
import {
  listRotationMemberIds,
  listRotationsUsingPolicies,
  type PolicyUser,
} from '../rotations/rotation-repository';
import {
  generateIntegrationKey,
  hashIntegrationKey,
  type IntegrationRow,
  keyHintOf,
  normalizeOptionsOf,
} from './integration-keys';
import {
  type AlertWithIntegration,
  countIntegrationUse,
  deleteIntegrationRow,
  findIntegrationRow,
  type IntegrationCounts,
  type IntegrationWithTarget,
  insertIntegrationAuditEvent,
  insertIntegrationRow,
  listAlertRows,
  listIntegrationRows,
  listIntegrationRowsOfIncident,
  lockIntegrationRow,
  lockTargetPolicy,
  lockTargetRotation,
  updateIntegrationRow,
} from './integration-repository';

/**
 * Integrations (issue 17, decision 210): made, listed, changed, re-keyed and deleted by the people
 * who manage their rotation or policy; their alerts read by those who may see them. Each change
 * in one transaction with its audit event; each list in a fixed number of statements.
 */

/** What the integration services need from the app. */
export interface IntegrationDeps {
  database: Database;
  cipher: FieldCipher;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'port' | 'inboundSmtp'>;
}

/** The alert lists' page size. */
export const ALERT_PAGE_SIZE = 50;

const actorOf = (user: User) => ({ roles: user.roles, userId: user.id });

/** The sealed signing secret's associated data: bound to its integration's row. */
export const signingSecretCtx = (integrationId: number) => ({
  table: 'integrations',
  column: 'signing_secret',
  rowId: integrationId,
});

/** The sealed alert envelope's and raw payload's associated data (alert-intake.ts seals them). */
const alertEventCtx = (alertId: number) => ({ table: 'alerts', column: 'event', rowId: alertId });
const alertPayloadCtx = (alertId: number) => ({
  table: 'alerts',
  column: 'payload',
  rowId: alertId,
});

// ---------------------------------------------------------------------------------------------
// Who may

/** What decides who may see and manage integrations: rotations' members, policies' followers. */
interface Deciders {
  members: Map<number, number[]>;
  policyUsers: readonly PolicyUser[];
}

async function loadDeciders(db: Db | Tx, rows: readonly Target[]): Promise<Deciders> {
  const rotationIds = rows.flatMap((r) => (r.rotation ? [r.rotation.id] : []));
  const policyIds = [...new Set(rows.flatMap((r) => (r.policy ? [r.policy.id] : [])))];
  // One after the other: in a transaction, one connection runs one statement at a time.
  const members = await listRotationMemberIds(db, rotationIds);
  const policyUsers = await listRotationsUsingPolicies(db, policyIds);
  return { members, policyUsers };
}

type Target = Pick<IntegrationWithTarget, 'rotation' | 'policy'>;

function factsOf(row: Target, deciders: Deciders): IntegrationFacts {
  if (row.rotation) {
    return {
      rotation: {
        createdById: row.rotation.createdById,
        memberUserIds: deciders.members.get(row.rotation.id) ?? [],
      },
    };
  }
  const policyId = row.policy?.id;
  return {
    policy: {
      createdById: row.policy?.createdById ?? null,
      rotations: deciders.policyUsers.filter((r) => r.escalationPolicyId === policyId),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The answer

interface Shown {
  deciders: Deciders;
  counts: Map<number, IntegrationCounts>;
  names: Map<number, { id: number; name: string }>;
  viewer: User;
}

function endpointsOf(config: IntegrationDeps['config']) {
  return integrationEndpoints(publicBaseUrl(config), config.inboundSmtp?.port ?? null);
}

function toIntegration(
  deps: IntegrationDeps,
  row: IntegrationWithTarget,
  shown: Shown,
): Integration {
  const i = row.integration;
  return {
    id: i.id,
    name: i.name,
    rotationId: row.rotation?.id ?? null,
    rotationName: row.rotation?.name ?? null,
    escalationPolicyId: row.policy?.id ?? null,
    escalationPolicyName: row.policy?.name ?? null,
    keyHint: i.keyHint,
    grouping: i.grouping as Integration['grouping'],
    emailDedup: i.emailDedup as Integration['emailDedup'],
    urgency: i.urgency as Integration['urgency'],
    stormLimit: i.stormLimit,
    rateLimit: i.rateLimit,
    hasSigningSecret: i.signingSecretEnc !== null,
    createdAt: i.createdAt.toISOString(),
    createdBy: i.createdById === null ? null : (shown.names.get(i.createdById) ?? null),
    keyRegeneratedAt: i.keyRegeneratedAt?.toISOString() ?? null,
    lastUsedAt: i.lastUsedAt?.toISOString() ?? null,
    counts: shown.counts.get(i.id) ?? { alerts: 0, incidents: 0, openIncidents: 0 },
    canManage: managesIntegration(actorOf(shown.viewer), factsOf(row, shown.deciders)),
    endpoints: endpointsOf(deps.config),
  };
}

/** present answers integrations as the viewer sees them: counts and creators in a few statements. */
async function present(
  deps: IntegrationDeps,
  db: Db | Tx,
  rows: readonly IntegrationWithTarget[],
  viewer: User,
  deciders: Deciders,
): Promise<Integration[]> {
  const ids = rows.map((r) => r.integration.id);
  const counts = await countIntegrationUse(db, ids);
  const names = await loadNames(
    db,
    deps.cipher,
    rows.map((r) => r.integration.createdById),
  );
  const shown = { deciders, counts, names, viewer };
  return rows.map((row) => toIntegration(deps, row, shown));
}

// ---------------------------------------------------------------------------------------------
// Reading

type ParsedListQuery = z.output<typeof IntegrationListQuerySchema>;

/**
 * listIntegrations answers the integrations the viewer may see (all, or one rotation's or one
 * policy's), by name, never with a key: at most seven statements whatever their number.
 */
export async function listIntegrations(
  deps: IntegrationDeps,
  viewer: User,
  query: ParsedListQuery,
): Promise<IntegrationList> {
  const db = deps.database.db;
  const rows = await listIntegrationRows(db, query);
  const deciders = await loadDeciders(db, rows);
  const visible = rows.filter((row) => canViewIntegration(actorOf(viewer), factsOf(row, deciders)));
  return { integrations: await present(deps, db, visible, viewer, deciders) };
}

/** readableIntegration reads one integration the viewer may see (404, then 403). */
async function readableIntegration(
  deps: IntegrationDeps,
  viewer: User,
  id: number,
): Promise<{ row: IntegrationWithTarget; deciders: Deciders }> {
  const db = deps.database.db;
  const row = await findIntegrationRow(db, id);
  if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
  const deciders = await loadDeciders(db, [row]);
  if (!canViewIntegration(actorOf(viewer), factsOf(row, deciders))) {
    throw forbidden(INTEGRATION_MESSAGES.mayNotView);
  }
  return { row, deciders };
}

/** getIntegration answers one integration the viewer may see, never with its key. */
export async function getIntegration(
  deps: IntegrationDeps,
  viewer: User,
  id: number,
): Promise<Integration> {
  const { row, deciders } = await readableIntegration(deps, viewer, id);
  const [integration] = await present(deps, deps.database.db, [row], viewer, deciders);
  return integration;
}

// ---------------------------------------------------------------------------------------------
// Changing

const sealSecret = (deps: IntegrationDeps, id: number, secret: string | null | undefined) =>
  deps.cipher.encryptNullable(secret, signingSecretCtx(id));

/**
 * createIntegration makes an integration on a rotation or a policy the actor manages (404 for a
 * missing one, then 403) and answers it with its new key, this once: only the key's hash is kept.
 */
export async function createIntegration(
  deps: IntegrationDeps,
  actor: User,
  input: IntegrationInput,
): Promise<IntegrationWithKey> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    let target: Target;
    if (input.rotationId !== undefined) {
      const rotation = await lockTargetRotation(tx, input.rotationId);
      if (!rotation) throw notFound(INTEGRATION_MESSAGES.rotationNotFound);
      target = { rotation, policy: null };
    } else {
      const policy = await lockTargetPolicy(tx, input.escalationPolicyId as number);
      if (!policy) throw notFound(INTEGRATION_MESSAGES.policyNotFound);
      target = { rotation: null, policy };
    }
    const deciders = await loadDeciders(tx, [target]);
    if (!managesIntegration(actorOf(actor), factsOf(target, deciders))) {
      throw forbidden(INTEGRATION_MESSAGES.mayNotManage);
    }
    const [id] = await allocateIds(tx, 'integrations');
    const key = generateIntegrationKey();
    const draft: IntegrationWithTarget = {
      ...target,
      integration: {
        id,
        name: input.name,
        rotationId: target.rotation?.id ?? null,
        escalationPolicyId: target.policy?.id ?? null,
        keyHash: hashIntegrationKey(key),
        keyHint: keyHintOf(key),
        grouping: input.grouping ?? 'group',
        emailDedup: input.emailDedup ?? 'subject',
        urgency: input.urgency ?? 'severity',
        stormLimit: input.stormLimit ?? STORM_LIMIT_DEFAULT,
        rateLimit: input.rateLimit ?? RATE_LIMIT_DEFAULT,
        signingSecretEnc: sealSecret(deps, id, input.signingSecret),
        createdById: actor.id,
        createdAt: now,
        keyRegeneratedAt: null,
        lastUsedAt: null,
      },
    };
    const row = await insertIntegrationRow(tx, draft.integration);
    await insertIntegrationAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'integration.created',
      integrationId: id,
      details: {
        name: row.name,
        ...(draft.rotation
          ? { rotationId: draft.rotation.id, rotationName: draft.rotation.name }
          : { escalationPolicyId: draft.policy?.id, escalationPolicyName: draft.policy?.name }),
        signingSecret: row.signingSecretEnc !== null,
      },
      at: now,
    });
    const [integration] = await present(
      deps,
      tx,
      [{ ...draft, integration: row }],
      actor,
      deciders,
    );
    return { ...integration, key };
  });
}

/**
 * inManagedIntegration runs `work` in one transaction holding the integration's row lock, after
 * checking that the actor manages it (404, then 403).
 */
async function inManagedIntegration<T>(
  deps: IntegrationDeps,
  actor: User,
  id: number,
  work: (tx: Tx, row: IntegrationWithTarget, deciders: Deciders, now: Date) => Promise<T>,
): Promise<T> {
  return deps.database.db.transaction(async (tx) => {
    const row = await lockIntegrationRow(tx, id);
    if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
    const deciders = await loadDeciders(tx, [row]);
    if (!managesIntegration(actorOf(actor), factsOf(row, deciders))) {
      throw forbidden(INTEGRATION_MESSAGES.mayNotManage);
    }
    return work(tx, row, deciders, deps.clock.now());
  });
}

const SETTINGS = ['name', 'grouping', 'emailDedup', 'urgency', 'stormLimit', 'rateLimit'] as const;

/**
 * updateIntegration changes any of the name and settings; a null signing secret removes it. What
 * it routes to stays (an integration for another rotation is a new integration with a new key).
 */
export async function updateIntegration(
  deps: IntegrationDeps,
  actor: User,
  id: number,
  change: IntegrationChange,
): Promise<Integration> {
  return inManagedIntegration(deps, actor, id, async (tx, row, deciders) => {
    const before = row.integration;
    const values: Partial<IntegrationRow> = {};
    const fields: string[] = [];
    for (const key of SETTINGS) {
      const next = change[key];
      if (next !== undefined && next !== before[key]) {
        Object.assign(values, { [key]: next });
        fields.push(key);
      }
    }
    if (change.signingSecret !== undefined) {
      const current =
        before.signingSecretEnc === null
          ? null
          : deps.cipher.decrypt(before.signingSecretEnc, signingSecretCtx(id));
      if (change.signingSecret !== current) {
        values.signingSecretEnc = sealSecret(deps, id, change.signingSecret);
        fields.push('signingSecret');
      }
    }
    let updated = before;
    if (fields.length > 0) {
      updated = await updateIntegrationRow(tx, id, values);
      await insertIntegrationAuditEvent(tx, {
        actorUserId: actor.id,
        action: 'integration.updated',
        integrationId: id,
        details: { name: updated.name, fields },
        at: deps.clock.now(),
      });
    }
    const [integration] = await present(
      deps,
      tx,
      [{ ...row, integration: updated }],
      actor,
      deciders,
    );
    return integration;
  });
}

/**
 * regenerateIntegrationKey gives an integration a new key and answers it this once; the old key
 * opens nothing from this commit on (only the new hash is stored).
 */
export async function regenerateIntegrationKey(
  deps: IntegrationDeps,
  actor: User,
  id: number,
): Promise<IntegrationWithKey> {
  return inManagedIntegration(deps, actor, id, async (tx, row, deciders, now) => {
    const key = generateIntegrationKey();
    const updated = await updateIntegrationRow(tx, id, {
      keyHash: hashIntegrationKey(key),
      keyHint: keyHintOf(key),
      keyRegeneratedAt: now,
    });
    await insertIntegrationAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'integration.key_regenerated',
      integrationId: id,
      details: { name: updated.name },
      at: now,
    });
    const [integration] = await present(
      deps,
      tx,
      [{ ...row, integration: updated }],
      actor,
      deciders,
    );
    return { ...integration, key };
  });
}

/**
 * deleteIntegration deletes an integration: its key stops working, its alerts and dedup keys go;
 * the incidents it raised stay, no longer naming it.
 */
export async function deleteIntegration(
  deps: IntegrationDeps,
  actor: User,
  id: number,
): Promise<void> {
  await inManagedIntegration(deps, actor, id, async (tx, row, _deciders, now) => {
    await insertIntegrationAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'integration.deleted',
      integrationId: id,
      details: {
        name: row.integration.name,
        ...(row.rotation
          ? { rotationId: row.rotation.id, rotationName: row.rotation.name }
          : { escalationPolicyId: row.policy?.id, escalationPolicyName: row.policy?.name }),
      },
      at: now,
    });
    await deleteIntegrationRow(tx, id);
  });
}

// ---------------------------------------------------------------------------------------------
// Send test alert

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
  if (!managesIntegration(actorOf(actor), factsOf(row, deciders))) {
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

// ---------------------------------------------------------------------------------------------
// Alerts

type ParsedAlertQuery = z.output<typeof AlertListQuerySchema>;

const stringOr = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function detailRowsOf(value: unknown): AlertDetailRow[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) =>
    v && typeof v === 'object' && typeof v.label === 'string' && typeof v.value === 'string'
      ? [{ section: stringOr(v.section) ?? '', label: v.label, value: v.value }]
      : [],
  );
}

function linksOf(value: unknown): AlertLink[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) =>
    v && typeof v === 'object' && typeof v.href === 'string'
      ? [{ href: v.href, text: stringOr(v.text) ?? v.href }]
      : [],
  );
}

/** toAlertRecord opens an alert's sealed envelope and payload as the alert lists show them. */
function toAlertRecord(cipher: FieldCipher, found: AlertWithIntegration): AlertRecord {
  const a = found.alert;
  const event = JSON.parse(cipher.decrypt(a.eventEnc, alertEventCtx(a.id))) as Record<
    string,
    unknown
  >;
  return {
    id: a.id,
    integrationId: a.integrationId,
    integrationName: found.integrationName,
    incidentId: a.pageId,
    format: a.format as AlertRecord['format'],
    action: a.action as AlertRecord['action'],
    outcome: a.outcome as AlertRecord['outcome'],
    summary: stringOr(event.summary) ?? '',
    source: stringOr(event.source),
    severity: (a.severity as AlertRecord['severity']) ?? null,
    details: detailRowsOf(event.details),
    links: linksOf(event.links),
    receivedAt: a.receivedAt.toISOString(),
    lastSeenAt: a.lastSeenAt.toISOString(),
    seenCount: a.seenCount,
    payload: a.payloadEnc === null ? null : cipher.decrypt(a.payloadEnc, alertPayloadCtx(a.id)),
    payloadCut: a.payloadCut,
  };
}

async function alertPage(
  deps: IntegrationDeps,
  of: { integrationId: number } | { incidentId: number },
  query: ParsedAlertQuery,
): Promise<AlertList> {
  const rows = await listAlertRows(deps.database.db, of, {
    limit: ALERT_PAGE_SIZE + 1,
    before: query.before,
  });
  const shown = rows.slice(0, ALERT_PAGE_SIZE);
  return {
    alerts: shown.map((row) => toAlertRecord(deps.cipher, row)),
    nextCursor: rows.length > ALERT_PAGE_SIZE ? shown[shown.length - 1].alert.id : null,
  };
}

/** listIntegrationAlerts answers a page of an integration's alerts, newest first (404, 403). */
export async function listIntegrationAlerts(
  deps: IntegrationDeps,
  viewer: User,
  id: number,
  query: ParsedAlertQuery,
): Promise<AlertList> {
  await readableIntegration(deps, viewer, id);
  return alertPage(deps, { integrationId: id }, query);
}

/**
 * listIncidentAlerts answers a page of the alerts an incident received, newest first (404 for a
 * missing incident). The incident reads to every role (decision 205), but its alerts carry the
 * raw payloads of an integration: only those who may see every integration the alerts came from
 * read them (canViewIntegration, as the integration's own list), anyone else 403 (decision 235).
 */
export async function listIncidentAlerts(
  deps: IntegrationDeps,
  viewer: User,
  incidentId: number,
  query: ParsedAlertQuery,
): Promise<AlertList> {
  const db = deps.database.db;
  if (!(await findIncidentRow(db, incidentId))) {
    throw notFound(INCIDENT_MESSAGES.notFound);
  }
  const sources = await listIntegrationRowsOfIncident(db, incidentId);
  const deciders = await loadDeciders(db, sources);
  if (!sources.every((row) => canViewIntegration(actorOf(viewer), factsOf(row, deciders)))) {
    throw forbidden(INTEGRATION_MESSAGES.mayNotViewAlerts);
  }
  return alertPage(deps, { incidentId }, query);
}
