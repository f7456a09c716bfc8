import type { z } from 'zod';
import {
  INTEGRATION_MESSAGES,
  INTEGRATION_SOURCE_DEFAULT,
  type Integration,
  type IntegrationChange,
  type IntegrationInput,
  type IntegrationList,
  type IntegrationListQuerySchema,
  type IntegrationWithKey,
  RATE_LIMIT_DEFAULT,
  STORM_LIMIT_DEFAULT,
} from '../../../shared/contracts/integrations';
import type { User } from '../../../shared/contracts/users';
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
import {
  listRotationMemberIds,
  listRotationsUsingPolicies,
  lockTargetPolicy,
  lockTargetRotation,
  type PolicyUser,
} from '../members/member-reads';
import { publicBaseUrl } from '../notifications/messages';
import { loadNames } from '../users/user-repository';
import {
  generateIntegrationKey,
  hashIntegrationKey,
  type IntegrationRow,
  keyHintOf,
} from './integration-keys';
import {
  countIntegrationUse,
  deleteIntegrationRow,
  findIntegrationRow,
  type IntegrationCounts,
  type IntegrationWithTarget,
  insertIntegrationAuditEvent,
  insertIntegrationRow,
  listIntegrationRows,
  lockIntegrationRow,
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

/** The sealed signing secret's associated data: bound to its integration's row. */
export const signingSecretCtx = (integrationId: number) => ({
  table: 'integrations',
  column: 'signing_secret',
  rowId: integrationId,
});

// ---------------------------------------------------------------------------------------------
// Who may

/** What decides who may see and manage integrations: rotations' members, policies' followers. */
export interface Deciders {
  members: Map<number, number[]>;
  policyUsers: readonly PolicyUser[];
}

export async function loadDeciders(db: Db | Tx, rows: readonly Target[]): Promise<Deciders> {
  const rotationIds = rows.flatMap((r) => (r.rotation ? [r.rotation.id] : []));
  const policyIds = [...new Set(rows.flatMap((r) => (r.policy ? [r.policy.id] : [])))];
  // One after the other: in a transaction, one connection runs one statement at a time.
  const members = await listRotationMemberIds(db, rotationIds);
  const policyUsers = await listRotationsUsingPolicies(db, policyIds);
  return { members, policyUsers };
}

export type Target = Pick<IntegrationWithTarget, 'rotation' | 'policy'>;

export function factsOf(row: Target, deciders: Deciders): IntegrationFacts {
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
    source: i.source as Integration['source'],
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
    canManage: managesIntegration(shown.viewer, factsOf(row, shown.deciders)),
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
  const visible = rows.filter((row) => canViewIntegration(viewer, factsOf(row, deciders)));
  return { integrations: await present(deps, db, visible, viewer, deciders) };
}

/** readableIntegration reads one integration the viewer may see (404, then 403). */
export async function readableIntegration(
  deps: IntegrationDeps,
  viewer: User,
  id: number,
): Promise<{ row: IntegrationWithTarget; deciders: Deciders }> {
  const db = deps.database.db;
  const row = await findIntegrationRow(db, id);
  if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
  const deciders = await loadDeciders(db, [row]);
  if (!canViewIntegration(viewer, factsOf(row, deciders))) {
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
    if (!managesIntegration(actor, factsOf(target, deciders))) {
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
        source: input.source ?? INTEGRATION_SOURCE_DEFAULT,
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
        source: row.source,
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
    if (!managesIntegration(actor, factsOf(row, deciders))) {
      throw forbidden(INTEGRATION_MESSAGES.mayNotManage);
    }
    return work(tx, row, deciders, deps.clock.now());
  });
}

const SETTINGS = [
  'name',
  'source',
  'grouping',
  'emailDedup',
  'urgency',
  'stormLimit',
  'rateLimit',
] as const;

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
