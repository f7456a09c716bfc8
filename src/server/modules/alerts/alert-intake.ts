import { createHash } from 'node:crypto';
import { TITLE_MAX } from '../../../shared/contracts/incidents';
import {
  ALERT_PAYLOAD_KEEP,
  type AlertFormat,
  type AlertOutcome,
} from '../../../shared/contracts/integrations';
import { type AlertEvent, alertDescription } from '../../../shared/domain/alerts';
import type { Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { markAcknowledged, markResolved } from '../incidents/incident-actions';
import { raiseIncident } from '../incidents/incident-engine';
import type { IncidentDeps } from '../incidents/incident-facts';
import { insertIncidentEvent, lockIncidentRow } from '../incidents/incident-repository';
import { IntegrationKeyGone, type IntegrationRow } from '../integrations/integration-keys';
import { findRotationRow } from '../rotations/rotation-repository';
import {
  countOpenKeys,
  type FoldHit,
  type FoldRow,
  findAlertKey,
  foldAlerts,
  incidentStatus,
  type LockedAlertKey,
  lockIntegration,
  type RepeatHit,
  type RepeatProbe,
  recordAlertRow,
  repeatAlert,
  repeatAlerts,
  type StormState,
  stormState,
  touchIntegration,
  updateAlertKey,
  upsertAlertKey,
} from './alert-repository';

/**
 * The alert intake (issue 17, decision 209): what every inbound format comes to once its key is
 * known and its body parsed and normalized. One request's events are stored in one transaction:
 * - one open incident per integration and dedup key (the `alert_keys` row is the lock);
 * - the same event again (Alertmanager re-sends whole groups; a sender retries) changes only the
 *   alert's last-seen time and count; a changed event on an open key counts on the incident
 *   (alertCount, timeline) and pages nobody again;
 * - a new key raises an incident on the integration's rotation or policy, until the integration
 *   has raised `storm_limit` in the last minute: then it folds into one open "alert storm"
 *   incident, so a monitoring outage sends one page, and every alert is still recorded;
 * - acknowledge and resolve from the source act on the key's incident, naming the source; a storm
 *   resolves when its last key does; a trigger after resolution raises a new incident.
 * It neither authenticates, nor rate-limits, nor parses: the routes do.
 */

export type IntakeDeps = Pick<IncidentDeps, 'cipher' | 'clock' | 'config'> & {
  /** only its `db`: a caller inside a transaction (the demo seed) passes that, and ours nests */
  database: { db: Db | Tx };
};

export interface InboundAlerts {
  format: AlertFormat;
  /** normalized events (src/shared/domain/alerts.ts), with the integration's urgency applied */
  events: InboundEvent[];
  /** the body as received, kept (cut, sealed) with each alert */
  payload: string;
}

/**
 * An event, and optionally its key's stored hash: an Opsgenie close or acknowledge that names the
 * incident (identifierType id or tiny) acts on that incident's keys, known only by their hashes.
 */
export type InboundEvent = AlertEvent & { dedupKeyHash?: string };

export interface AlertReceipt {
  dedupKey: string;
  outcome: AlertOutcome;
  incidentId: number | null;
  /** the alert row that records it (a repeat: the row it repeats) */
  alertId: number;
}

const MINUTE = 60_000;
/** What one request may keep of its payload across all its alerts (each at least 2 kB). */
const PAYLOAD_BUDGET = 1024 * 1024;

/** sha256: the stored form of dedup keys and event fingerprints. */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** eventHash: two events with the same hash are the same event (a repeat, not a new alert). */
export function eventHash(event: AlertEvent): string {
  const { dedupKey: _key, ...rest } = event;
  return sha256(JSON.stringify(rest));
}

/** dedupKeyHash: how a dedup key is stored (Alertmanager's group keys run to kilobytes). */
export const dedupKeyHash = (dedupKey: string) => sha256(dedupKey);

const keyHashOf = (event: InboundEvent) => event.dedupKeyHash ?? dedupKeyHash(event.dedupKey);

/** stormTitle: the title of an integration's alert storm incident. */
export const stormTitle = (integrationName: string, limit: number) =>
  `Alert storm: more than ${limit} new alerts a minute from ${integrationName}`.slice(0, TITLE_MAX);

/**
 * repeatProbeOf: the probe of a request that may be a plain repeat (one trigger, and the
 * integration's last-used time recorded within the minute), else undefined: the full path.
 */
export function repeatProbeOf(
  integration: IntegrationRow,
  inbound: InboundAlerts,
  now: Date,
): RepeatProbe | undefined {
  const [only] = inbound.events;
  if (inbound.events.length !== 1 || only.action !== 'trigger' || touchDue(integration, now)) {
    return undefined;
  }
  return {
    integrationId: integration.id,
    keyHash: integration.keyHash,
    dedupKeyHash: keyHashOf(only),
    eventHash: eventHash(only),
  };
}

/** repeatReceipt: what a repeat found by repeatAlerts answers. */
export const repeatReceipt = (inbound: InboundAlerts, hit: RepeatHit): AlertReceipt => ({
  dedupKey: inbound.events[0].dedupKey,
  outcome: 'repeated',
  incidentId: hit.pageId,
  alertId: hit.alertId,
});

/** touchDue: the integration's last-used time is to be recorded (at most once a minute). */
export const touchDue = (integration: IntegrationRow, now: Date) =>
  integration.lastUsedAt === null || now.getTime() - integration.lastUsedAt.getTime() > MINUTE;

/** keptPayload: what is kept of a request's body with each of its alerts (cut to share a budget). */
function keptPayload(inbound: InboundAlerts): { payload: string; payloadCut: boolean } {
  const keep = Math.min(
    ALERT_PAYLOAD_KEEP,
    Math.max(2048, Math.floor(PAYLOAD_BUDGET / Math.max(1, inbound.events.length))),
  );
  const payloadCut = inbound.payload.length > keep;
  return { payload: payloadCut ? inbound.payload.slice(0, keep) : inbound.payload, payloadCut };
}

/** eventText: the part of an event sealed with its alert (what the alert list shows). */
const eventText = (event: AlertEvent) =>
  JSON.stringify({
    summary: event.summary,
    source: event.source,
    details: event.details,
    links: event.links,
    ...(event.occurredAt === undefined ? {} : { occurredAt: event.occurredAt }),
  });

/** A plain trigger that was no repeat, to be tried as a fold into an open storm (foldIntoStorms). */
export interface FoldProbe {
  integrationId: number;
  keyHash: string;
  dedupKeyHash: string;
  eventHash: string;
  format: AlertFormat;
  severity: string;
  event: string;
  payload: string;
  payloadCut: boolean;
  /** an unsigned request (RepeatProbe.unsigned) */
  unsigned?: boolean;
}

/** foldProbeOf: the fold probe of a request whose repeat probe (repeatProbeOf) found no repeat. */
export function foldProbeOf(probe: RepeatProbe, inbound: InboundAlerts): FoldProbe {
  const [only] = inbound.events;
  return {
    ...probe,
    format: inbound.format,
    severity: only.severity,
    event: eventText(only),
    ...keptPayload(inbound),
  };
}

/**
 * foldIntoStorms records, as one batch, the new keys that arrive while their integration is in
 * an alert storm (decision 216): their alert ids reserved in one statement, their texts sealed
 * with them, and the keys and alerts written in a second (foldAlerts). A key already known, an
 * integration not in a storm, or a second probe of the same key in the batch answers undefined:
 * the caller takes the full path, which decides as it always has.
 */
export async function foldIntoStorms(
  deps: Pick<IntakeDeps, 'cipher' | 'database'>,
  probes: readonly FoldProbe[],
  now: Date,
): Promise<(FoldHit | undefined)[]> {
  // One probe per key: a second of the same key finds it known on the full path.
  const seen = new Set<string>();
  const tried = probes.filter((p) => {
    const key = `${p.integrationId}:${p.dedupKeyHash}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const ids = await allocateIds(deps.database.db, 'alerts', tried.length);
  const rows: FoldRow[] = tried.map((p, i) => ({
    integrationId: p.integrationId,
    keyHash: p.keyHash,
    unsigned: p.unsigned,
    dedupKeyHash: p.dedupKeyHash,
    eventHash: p.eventHash,
    alertId: ids[i],
    format: p.format,
    severity: p.severity,
    eventEnc: deps.cipher.encrypt(p.event, { table: 'alerts', column: 'event', rowId: ids[i] }),
    payloadEnc: deps.cipher.encrypt(p.payload, {
      table: 'alerts',
      column: 'payload',
      rowId: ids[i],
    }),
    payloadCut: p.payloadCut,
  }));
  const hits = await foldAlerts(deps.database.db, rows, now, new Date(now.getTime() - MINUTE));
  const byProbe = new Map(tried.map((p, i) => [p, hits[i]]));
  return probes.map((p) => byProbe.get(p));
}

/** foldReceipt: what a trigger folded by foldIntoStorms answers. */
export const foldReceipt = (inbound: InboundAlerts, hit: FoldHit): AlertReceipt => ({
  dedupKey: inbound.events[0].dedupKey,
  outcome: 'folded',
  incidentId: hit.pageId,
  alertId: hit.alertId,
});

/**
 * receiveAlerts stores one inbound request's events (see above) and answers what happened to each,
 * in the order given. Most deliveries are repeats (Alertmanager re-sends, retries): one statement
 * when it is one, unless the caller has already probed it (`repeatProbed`, alert-routes.ts).
 */
export async function receiveAlerts(
  deps: IntakeDeps,
  integration: IntegrationRow,
  inbound: InboundAlerts,
  options: { repeatProbed?: boolean; unsigned?: boolean } = {},
): Promise<AlertReceipt[]> {
  const now = deps.clock.now();
  const { payload, payloadCut } = keptPayload(inbound);
  const touch = touchDue(integration, now);
  const unsigned = options.unsigned === true;
  const probe = options.repeatProbed ? undefined : repeatProbeOf(integration, inbound, now);
  if (probe) {
    const [hit] = await repeatAlerts(deps.database.db, [{ ...probe, unsigned }], now);
    if (hit) return [repeatReceipt(inbound, hit)];
  }
  return deps.database.db.transaction(async (tx) => {
    const locked = await lockKeys(tx, integration, inbound.events, now, unsigned);
    const request: Request = {
      tx,
      deps,
      integration,
      inbound,
      payload,
      payloadCut,
      now,
      keys: locked.keys,
      alertIds: locked.alertIds,
      stormHint: locked.stormHint,
    };
    const receipts: AlertReceipt[] = [];
    for (const event of inbound.events) {
      receipts.push(await receiveOne(request, event));
      // The hint was read before any event changed an incident: it serves the first alone.
      request.stormHint = undefined;
    }
    if (touch) {
      // At most once a minute from a row read at authentication: a busy key does not queue here.
      await touchIntegration(tx, integration.id, now);
    }
    return receipts;
  });
}

/**
 * lockKeys takes the rows of every key the events name, in one order (their hash), before any is
 * used: two requests naming the same keys never wait on each other in a circle. A trigger's key is
 * made when new, reserving an alert id as it goes; an acknowledge or resolve never makes one.
 * Answers each key's state by its hash, the reserved ids (lowest first), and the integration's
 * storm state as the first trigger's key read it. Throws IntegrationKeyGone, before anything is
 * written, when a trigger's key finds the integration's key changed, or, for an `unsigned`
 * request, a signing secret set on the integration (decision 235).
 */
async function lockKeys(
  tx: Tx,
  integration: IntegrationRow,
  events: readonly InboundEvent[],
  now: Date,
  unsigned: boolean,
): Promise<{
  keys: Map<string, LockedAlertKey | undefined>;
  alertIds: number[];
  stormHint: StormState | undefined;
}> {
  const triggers = new Map<string, boolean>();
  for (const event of events) {
    const hash = keyHashOf(event);
    triggers.set(hash, (triggers.get(hash) ?? false) || event.action === 'trigger');
  }
  const keys = new Map<string, LockedAlertKey | undefined>();
  const alertIds: number[] = [];
  let stormHint: StormState | undefined;
  const since = new Date(now.getTime() - MINUTE);
  for (const hash of [...triggers.keys()].sort()) {
    let key: Omit<LockedAlertKey, 'pageStatus'> | undefined;
    if (triggers.get(hash)) {
      const upserted = await upsertAlertKey(
        tx,
        { id: integration.id, keyHash: integration.keyHash, unsigned },
        hash,
        now,
        since,
      );
      if (!upserted) throw new IntegrationKeyGone();
      const { reservedAlertId, storm, ...state } = upserted;
      alertIds.push(reservedAlertId);
      stormHint ??= storm;
      key = state;
    } else {
      key = await findAlertKey(tx, integration.id, hash);
    }
    const pageStatus = key?.pageId == null ? null : await incidentStatus(tx, key.pageId);
    keys.set(hash, key && { ...key, pageStatus });
  }
  return { keys, alertIds: alertIds.sort((a, b) => a - b), stormHint };
}

interface Request {
  tx: Tx;
  deps: IntakeDeps;
  integration: IntegrationRow;
  inbound: InboundAlerts;
  payload: string;
  payloadCut: boolean;
  now: Date;
  /** the state of each key the request names, locked, kept current as the events change it */
  keys: Map<string, LockedAlertKey | undefined>;
  /** alert ids reserved as the keys were locked, taken lowest first by the alerts recorded */
  alertIds: number[];
  /** the integration's storm state as the keys were locked, until the first event is received */
  stormHint: StormState | undefined;
}

async function receiveOne(request: Request, event: InboundEvent): Promise<AlertReceipt> {
  const keyHash = keyHashOf(event);
  if (event.action === 'trigger') return trigger(request, event, keyHash);
  return acknowledgeOrResolve(request, event, keyHash);
}

/** setKey changes a locked key, in the database and in the request's copy. */
async function setKey(
  request: Request,
  keyHash: string,
  values: Partial<Omit<LockedAlertKey, 'pageStatus'>>,
): Promise<void> {
  await updateAlertKey(request.tx, request.integration.id, keyHash, values);
  const key = request.keys.get(keyHash);
  if (key) request.keys.set(keyHash, { ...key, ...values });
}

/** An open key: it has an incident, it was not resolved, and neither was its incident. */
function openIncidentOf(key: LockedAlertKey | undefined): number | null {
  if (!key || key.pageId === null || key.resolvedAt !== null) return null;
  return key.pageStatus === null || key.pageStatus === 'resolved' ? null : key.pageId;
}

async function trigger(request: Request, event: AlertEvent, keyHash: string) {
  const { tx, now } = request;
  const hash = eventHash(event);
  const key = request.keys.get(keyHash);
  const open = openIncidentOf(key);
  const receipt = (outcome: AlertOutcome, incidentId: number | null, alertId: number) => ({
    dedupKey: event.dedupKey,
    outcome,
    incidentId,
    alertId,
  });
  if (open !== null && key?.lastEventHash === hash && key.lastAlertId !== null) {
    await repeatAlert(tx, key.lastAlertId, now);
    return receipt('repeated', open, key.lastAlertId);
  }
  if (open !== null) {
    const what = { keyHash, hash, pageId: open, outcome: 'updated' as const };
    const alertId = await recordAlert(request, event, what, 'latest');
    await alertEvent(request, open, alertId, 'updated');
    return receipt('updated', open, alertId);
  }
  const placed = await placeNewAlert(request, event, { keyHash, hash });
  // A later event of this key in the same request finds its incident open.
  const placedKey = request.keys.get(keyHash);
  if (placedKey) request.keys.set(keyHash, { ...placedKey, pageStatus: 'triggered' });
  return receipt(placed.outcome, placed.incidentId, placed.alertId);
}

/**
 * placeNewAlert raises an incident for a new key, or, past the integration's limit of new
 * incidents a minute, folds it into the open alert storm incident (raising that when none is open).
 * Either way the key now points at the incident and the alert.
 */
async function placeNewAlert(
  request: Request,
  event: AlertEvent,
  hashes: { keyHash: string; hash: string },
): Promise<{ outcome: 'raised' | 'folded'; incidentId: number; alertId: number }> {
  const { tx, integration, now } = request;
  const since = new Date(now.getTime() - MINUTE);
  // In a storm (the limit reached, its incident open) a new key folds without the integration's
  // lock: folding raises nothing, so only raising needs to be counted in line.
  const seen = request.stormHint ?? (await stormState(tx, integration.id, since));
  if (seen.recent >= integration.stormLimit && seen.storm !== undefined) {
    return foldInto(request, event, hashes, seen.storm);
  }
  await lockIntegration(tx, integration.id);
  const { recent, storm } = await stormState(tx, integration.id, since);
  if (storm !== undefined && recent >= integration.stormLimit) {
    return foldInto(request, event, hashes, storm);
  }
  const outcome: 'raised' | 'folded' = recent < integration.stormLimit ? 'raised' : 'folded';
  let alertId = 0;
  const incidentId = await raiseFor(request, event, outcome === 'folded', async (id) => {
    const what = { ...hashes, pageId: id, outcome };
    alertId = await recordAlert(request, event, what, 'placed');
  });
  return { outcome, incidentId, alertId };
}

/**
 * foldInto records a new key's alert on the open storm incident. No timeline line: a storm's
 * alerts are its list (GET /api/incidents/{id}/alerts), and a line each would put every folded
 * alert through the audit trail's one chain head.
 */
async function foldInto(
  request: Request,
  event: AlertEvent,
  hashes: { keyHash: string; hash: string },
  storm: number,
): Promise<{ outcome: 'folded'; incidentId: number; alertId: number }> {
  const what = { ...hashes, pageId: storm, outcome: 'folded' as const };
  const alertId = await recordAlert(request, event, what, 'placed');
  return { outcome: 'folded', incidentId: storm, alertId };
}

/** raiseFor raises an incident for an alert (or the storm) on the integration's rotation or policy. */
async function raiseFor(
  request: Request,
  event: AlertEvent,
  storm: boolean,
  beforeFirstStep: (incidentId: number) => Promise<void>,
): Promise<number> {
  const { tx, deps, integration, now } = request;
  const rotationRow =
    integration.rotationId === null ? undefined : await findRotationRow(tx, integration.rotationId);
  const rotation = rotationRow
    ? {
        id: rotationRow.id,
        name: rotationRow.name,
        escalationPolicyId: rotationRow.escalationPolicyId,
      }
    : null;
  const title = storm ? stormTitle(integration.name, integration.stormLimit) : event.summary;
  const raised = await raiseIncident(tx, deps, {
    rotation,
    policyId: integration.escalationPolicyId ?? undefined,
    raisedBy: null,
    source: 'integration',
    title,
    message: title,
    severity: event.severity,
    urgency: event.urgency,
    description: storm
      ? `${integration.name} sent more than ${integration.stormLimit} new alerts in a minute. Further new alerts are recorded here, on this incident, until it is resolved: see its alerts.\n\nFirst folded alert: ${event.summary}`
      : alertDescription(event),
    now,
    integration: { id: integration.id, name: integration.name },
    storm,
    beforeFirstStep,
  });
  return raised.id;
}

async function acknowledgeOrResolve(request: Request, event: AlertEvent, keyHash: string) {
  const { tx, deps, integration, now } = request;
  const open = openIncidentOf(request.keys.get(keyHash));
  const hash = eventHash(event);
  if (open === null) {
    const alertId = await recordAlert(request, event, {
      keyHash,
      hash,
      pageId: null,
      outcome: 'ignored',
    });
    return { dedupKey: event.dedupKey, outcome: 'ignored' as const, incidentId: null, alertId };
  }
  const locked = await lockIncidentRow(tx, open);
  if (!locked) throw new Error(`incident ${open} vanished under its alert key`);
  const how = { via: 'integration' as const, now, sourceName: integration.name };
  let outcome: AlertOutcome = 'ignored';
  if (event.action === 'acknowledge') {
    const status = locked.page.status;
    if (status === 'triggered' || status === 'escalated') {
      await markAcknowledged(tx, deps, locked, { ...how, byUserId: null });
      outcome = 'acknowledged';
    }
  } else {
    await setKey(request, keyHash, { resolvedAt: now });
    outcome = 'resolved';
    if ((await countOpenKeys(tx, open)) === 0) {
      await markResolved(tx, deps, locked, { ...how, actor: null });
    }
  }
  const alertId = await recordAlert(request, event, { keyHash, hash, pageId: open, outcome });
  return { dedupKey: event.dedupKey, outcome, incidentId: open, alertId };
}

/**
 * recordAlert writes one alert row, its event and payload sealed with its id, and, in the same
 * statement, points its key at it as the latest event ('latest'), or at it and its incident, open
 * ('placed').
 */
async function recordAlert(
  request: Request,
  event: AlertEvent,
  what: { keyHash: string; hash: string; pageId: number | null; outcome: AlertOutcome },
  pointKey?: 'latest' | 'placed',
): Promise<number> {
  const { tx, deps, integration, inbound, now } = request;
  const id = request.alertIds.shift() ?? (await allocateIds(tx, 'alerts'))[0];
  const sealedEvent = eventText(event);
  const key: Partial<Omit<LockedAlertKey, 'pageStatus'>> | undefined =
    pointKey === 'latest'
      ? { lastAlertId: id, lastEventHash: what.hash }
      : pointKey === 'placed'
        ? { pageId: what.pageId, lastAlertId: id, lastEventHash: what.hash, resolvedAt: null }
        : undefined;
  await recordAlertRow(
    tx,
    {
      id,
      integrationId: integration.id,
      pageId: what.pageId,
      format: inbound.format,
      action: event.action,
      outcome: what.outcome,
      dedupKeyHash: what.keyHash,
      eventHash: what.hash,
      severity: event.action === 'trigger' ? event.severity : null,
      eventEnc: deps.cipher.encrypt(sealedEvent, { table: 'alerts', column: 'event', rowId: id }),
      payloadEnc: deps.cipher.encrypt(request.payload, {
        table: 'alerts',
        column: 'payload',
        rowId: id,
      }),
      payloadCut: request.payloadCut,
      receivedAt: now,
      lastSeenAt: now,
    },
    key,
  );
  const known = request.keys.get(what.keyHash);
  if (known && key) request.keys.set(what.keyHash, { ...known, ...key });
  return id;
}

/** alertEvent: a timeline line for an alert that changed an open incident. */
async function alertEvent(
  request: Request,
  incidentId: number,
  alertId: number,
  outcome: AlertOutcome,
) {
  await insertIncidentEvent(request.tx, {
    actorUserId: null,
    action: 'incident.alert',
    incidentId,
    details: {
      alertId,
      outcome,
      format: request.inbound.format,
      integrationName: request.integration.name,
    },
    at: request.now,
  });
}
