import { and, desc, eq, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import {
  ADMIN_ACTION_LABELS,
  ADMIN_ACTIONS,
  type AdminEvent,
  type AdminEventsFilter,
  UNKNOWN_PERSON,
} from '../../../shared/contracts/audit';
import { idText } from '../../../shared/contracts/primitives';
import type { Handoff, Person } from '../../../shared/contracts/rotations';
import { type FieldCipher, FieldDecryptionError } from '../../crypto/field-crypto';
import type { Database, Db } from '../../db/client';
import { auditEvents, handoffs, invitations, pages, rotations, users } from '../../db/schema';
import { findUserRows } from '../users/user-repository';
import { AUDIT_REASON, AUDIT_TARGET_NAME, auditTargetNameCtx, reasonOf } from './audit-sealed';

/**
 * Queries of the Audit Log. Names are encrypted at rest (decision 002), so a name search decrypts
 * the users' names in memory — users are far fewer than handoffs — and filters the handoffs in
 * SQL by the matching user ids (decision 040). Every read is a fixed number of queries.
 */

const userCtx = (column: string, rowId: number) => ({ table: 'users', column, rowId });

export interface HandoffFilter {
  search?: string;
  status?: string;
  rotationId?: number;
}

/** A position in the history, newest first: entries strictly older than it come next. */
export interface HistoryCursor {
  /** occurred_at with microseconds, UTC, as PostgreSQL prints it */
  at: string;
  id: number;
}

const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** encodeCursor turns a history position into the opaque `before` parameter. */
export function encodeCursor(cursor: HistoryCursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url');
}

/** decodeCursor reads a `before` parameter, or returns null when it is not one of ours. */
export function decodeCursor(value: string): HistoryCursor | null {
  const text = Buffer.from(value, 'base64url').toString('utf8');
  const [at, id] = text.split('|');
  const rowId = idText().safeParse(id);
  if (!at || !CURSOR_AT.test(at) || !rowId.success) return null;
  if (Number.isNaN(Date.parse(at))) return null;
  return { at, id: rowId.data };
}

/** escapeLike escapes LIKE wildcards; backslash is PostgreSQL's default LIKE escape character. */
function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * UserNameIndex answers the name search: the ids of users whose decrypted name contains a term,
 * in any case. On PGlite it keeps every user's decrypted name while the database's change count
 * stays where it was when they were read: this process is the database's one writer, so an
 * unchanged count means unchanged names (decisions 141 and 144). Without a change count
 * (PostgreSQL, where other instances write) it reads and decrypts them for every search.
 */
export class UserNameIndex {
  private kept: { count: number; names: { id: number; name: string }[] } | null = null;

  constructor(
    private readonly database: Pick<Database, 'db' | 'changeCount'>,
    private readonly cipher: FieldCipher,
  ) {}

  /** idsMatching returns the ids of users whose name contains the term (any case). */
  async idsMatching(term: string): Promise<number[]> {
    const needle = term.toLocaleLowerCase();
    const names = await this.names();
    return names.filter((n) => n.name.includes(needle)).map((n) => n.id);
  }

  private async names(): Promise<{ id: number; name: string }[]> {
    const { changeCount } = this.database;
    const count = changeCount?.();
    if (count !== undefined && this.kept?.count === count) return this.kept.names;
    const rows = await this.database.db
      .select({ id: users.id, nameEnc: users.nameEnc })
      .from(users);
    const names = rows.map((r) => ({
      id: r.id,
      name: this.cipher.decrypt(r.nameEnc, userCtx('name', r.id)).toLocaleLowerCase(),
    }));
    // Kept only when nothing was written while they were read.
    if (count !== undefined && changeCount?.() === count) this.kept = { count, names };
    return names;
  }
}

/** loadPeople returns the decrypted name and email of each user id, in one query. */
export async function loadPeople(
  db: Db,
  cipher: FieldCipher,
  ids: Iterable<number | null>,
): Promise<Map<number, Person>> {
  const wanted = [...new Set([...ids].filter((id): id is number => id !== null))];
  const people = new Map<number, Person>();
  if (wanted.length === 0) return people;
  for (const r of await findUserRows(db, wanted)) {
    people.set(r.id, {
      id: r.id,
      name: cipher.decrypt(r.nameEnc, userCtx('name', r.id)),
      email: cipher.decrypt(r.emailEnc, userCtx('email', r.id)),
    });
  }
  return people;
}

export interface HandoffHistoryRow {
  id: number;
  status: string;
  kind: string;
  notes: string | null;
  urgent: boolean;
  occurredAt: Date;
  acknowledgedAt: Date | null;
  fromUserId: number | null;
  toUserId: number | null;
  rotationId: number;
  rotationName: string;
  /** occurred_at with microseconds, for the next page's cursor */
  cursorAt: string;
}

/**
 * listHandoffHistory returns handoffs matching the filter, newest first, older than the cursor,
 * at most `limit` (all when omitted). With a search term it first finds the users by name.
 */
export async function listHandoffHistory(
  db: Db,
  names: UserNameIndex,
  filter: HandoffFilter,
  page: { limit?: number; before?: HistoryCursor | null } = {},
): Promise<HandoffHistoryRow[]> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(handoffs.status, filter.status));
  if (filter.rotationId !== undefined) conditions.push(eq(handoffs.rotationId, filter.rotationId));
  if (filter.search) {
    const userIds = await names.idsMatching(filter.search);
    const matches: SQL[] = [sql`${rotations.name} ilike ${`%${escapeLike(filter.search)}%`}`];
    if (userIds.length > 0) {
      matches.push(inArray(handoffs.fromUserId, userIds), inArray(handoffs.toUserId, userIds));
    }
    conditions.push(or(...matches)!);
  }
  if (page.before) {
    conditions.push(
      sql`(${handoffs.occurredAt}, ${handoffs.id}) < (${page.before.at}::timestamptz, ${page.before.id}::int)`,
    );
  }
  const query = db
    .select({
      id: handoffs.id,
      status: handoffs.status,
      kind: handoffs.kind,
      notes: handoffs.notes,
      urgent: handoffs.urgent,
      occurredAt: handoffs.occurredAt,
      acknowledgedAt: handoffs.acknowledgedAt,
      fromUserId: handoffs.fromUserId,
      toUserId: handoffs.toUserId,
      rotationId: handoffs.rotationId,
      rotationName: rotations.name,
      cursorAt: sql<string>`to_char(${handoffs.occurredAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(handoffs)
    .innerJoin(rotations, eq(rotations.id, handoffs.rotationId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(handoffs.occurredAt), desc(handoffs.id));
  return page.limit === undefined ? query : query.limit(page.limit);
}

/** toHandoff gives a history row the API's handoff shape, with its people looked up. */
export function toHandoff(row: HandoffHistoryRow, people: Map<number, Person>): Handoff {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    fromUser: row.fromUserId === null ? null : (people.get(row.fromUserId) ?? null),
    toUser: row.toUserId === null ? null : (people.get(row.toUserId) ?? null),
    rotation: { id: row.rotationId, name: row.rotationName },
    timestamp: row.occurredAt.toISOString(),
    ...(row.notes ? { notes: row.notes } : {}),
    urgent: row.urgent,
    acknowledgedAt: row.acknowledgedAt ? row.acknowledgedAt.toISOString() : null,
  };
}

/** Where the administrative trail's reads start (newest first) and how many they return. */
export interface AdminEventsPageRequest {
  /** at most this many events; every match when omitted (the CSV export) */
  limit?: number;
  /** events with an id below this one */
  before?: number;
}

// Deletions of people seal the name (decision 132); a rotation's deletion records it in clear.
const DELETIONS = ['user.deleted', 'invitation.deleted'];
const ROTATION_DELETED = 'rotation.deleted';

const NUMERIC_ID = /^\d{1,9}$/;
const numericId = (value: string | null) =>
  value && NUMERIC_ID.test(value) ? Number(value) : null;

/**
 * listAdminEvents returns the administrative audit trail, newest first, matching the filter, with
 * the actor's name and a readable target for every target type: the user's, invitee's or
 * rotation's name (from its deletion when it is gone) and 'Page on <rotation>' for a page. A
 * fixed number of queries whatever the page size (no query per row).
 */
export async function listAdminEvents(
  db: Db,
  cipher: FieldCipher,
  names: UserNameIndex,
  filter: AdminEventsFilter,
  page: AdminEventsPageRequest = {},
): Promise<{ events: AdminEvent[]; nextCursor: number | null }> {
  const search = filter.search
    ? await adminSearchCondition(db, cipher, names, filter.search)
    : undefined;
  const query = db
    .select()
    .from(auditEvents)
    .where(
      and(
        // A copy of a page sent to the backup is the system's notice, not anyone's action: it
        // belongs to the page's history only (decision 130).
        ne(auditEvents.action, 'page.backup_notified'),
        filter.action ? eq(auditEvents.action, filter.action) : undefined,
        search,
        page.before ? lt(auditEvents.id, page.before) : undefined,
      ),
    )
    .orderBy(desc(auditEvents.id));
  const rows = await (page.limit === undefined ? query : query.limit(page.limit + 1));
  const more = page.limit !== undefined && rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const events = await nameAdminEvents(db, cipher, shown);
  return { events, nextCursor: more ? shown[shown.length - 1].id : null };
}

type AuditEventRow = typeof auditEvents.$inferSelect;

/** nameAdminEvents gives trail rows the API's shape, every name looked up in a few queries. */
async function nameAdminEvents(
  db: Db,
  cipher: FieldCipher,
  shown: AuditEventRow[],
): Promise<AdminEvent[]> {
  const idsOf = (type: string) =>
    shown
      .filter((e) => e.targetType === type)
      .map((e) => numericId(e.targetId))
      .filter((id): id is number => id !== null);
  const userIds = [
    ...shown.map((e) => e.actorUserId),
    ...idsOf('user'),
    ...shown.flatMap((e) => Object.values(personRefs(e.details ?? {})).flat()),
  ];
  const rotationIds = idsOf('rotation');
  const invitationIds = idsOf('invitation');
  const pageIds = idsOf('page');

  const [people, rotationRows, invitationRows, pageRows] = await Promise.all([
    loadPeople(db, cipher, userIds),
    rotationIds.length > 0
      ? db
          .select({ id: rotations.id, name: rotations.name })
          .from(rotations)
          .where(inArray(rotations.id, rotationIds))
      : [],
    invitationIds.length > 0
      ? db
          .select({ id: invitations.id, nameEnc: invitations.nameEnc })
          .from(invitations)
          .where(inArray(invitations.id, invitationIds))
      : [],
    pageIds.length > 0
      ? db
          .select({ id: pages.id, rotationName: rotations.name })
          .from(pages)
          .innerJoin(rotations, eq(rotations.id, pages.rotationId))
          .where(inArray(pages.id, pageIds))
      : [],
  ]);
  const rotationNames = new Map(rotationRows.map((r) => [r.id, r.name]));
  const pageRotations = new Map(pageRows.map((r) => [r.id, r.rotationName]));
  const invitationNames = new Map(
    invitationRows.map((r) => [
      r.id,
      cipher.decrypt(r.nameEnc, { table: 'invitations', column: 'name', rowId: r.id }),
    ]),
  );

  const deletedNames = await loadDeletedNames(db, cipher, [
    ...shown.filter((e) => {
      const id = numericId(e.targetId);
      if (id === null) return false;
      if (e.targetType === 'user') return !people.has(id);
      if (e.targetType === 'rotation') return !rotationNames.has(id);
      return e.targetType === 'invitation' && !invitationNames.has(id);
    }),
    // The trail keeps the id of an actor since deleted (decision 172): named by their deletion.
    ...shown
      .filter((e) => e.actorUserId !== null && !people.has(e.actorUserId))
      .map((e) => ({ targetType: 'user', targetId: String(e.actorUserId) })),
  ]);

  return shown.map((e): AdminEvent => {
    const targetNumber = numericId(e.targetId);
    const pageRotation =
      e.targetType === 'page'
        ? ((targetNumber === null ? undefined : pageRotations.get(targetNumber)) ??
          stringDetail(e.details, 'rotationName'))
        : undefined;
    const named =
      pageRotation !== undefined
        ? `Page on ${pageRotation}`
        : targetNumber === null
          ? undefined
          : e.targetType === 'user'
            ? people.get(targetNumber)?.name
            : e.targetType === 'rotation'
              ? rotationNames.get(targetNumber)
              : e.targetType === 'invitation'
                ? invitationNames.get(targetNumber)
                : undefined;
    const fromDetails = ['name', 'rotationName', 'targetName']
      .map((k) => stringDetail(e.details, k))
      .find((v) => v !== undefined);
    const {
      [AUDIT_TARGET_NAME.jsonKey]: _sealed,
      [AUDIT_REASON.jsonKey]: sealedReason,
      ...rest
    } = e.details ?? {};
    // An escalation's reason is sealed (decision 163): administrators read it opened.
    const details = sealedReason === undefined ? rest : { ...rest, reason: reasonOf(e, cipher) };
    const actor = e.actorUserId === null ? undefined : people.get(e.actorUserId);
    const deletedActor =
      e.actorUserId === null || actor ? undefined : deletedNames.get(`user:${e.actorUserId}`);
    return {
      id: e.id,
      actor: actor
        ? { id: actor.id, name: actor.name }
        : e.actorUserId !== null && deletedActor !== undefined
          ? { id: e.actorUserId, name: deletedActor }
          : null,
      action: e.action,
      targetType: e.targetType,
      targetId: e.targetId,
      target:
        named ??
        deletedNames.get(`${e.targetType}:${e.targetId}`) ??
        fromDetails ??
        `${e.targetType}${e.targetId ? ` #${e.targetId}` : ''}`,
      details: withPeopleNames(details, people),
      createdAt: e.createdAt.toISOString(),
    };
  });
}

function stringDetail(details: Record<string, unknown> | null, key: string): string | undefined {
  const value = details?.[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * adminSearchCondition matches events by what the trail shows (decision 188): the action (its
 * key or its label), the actor's name, or the target's name. Names of people and invitees are
 * sealed at rest, so they are matched in memory (the users through UserNameIndex, the
 * invitations and the names deletions sealed read and opened, all far fewer than events) and
 * the events filtered in SQL by the matching ids; rotation names are in clear and matched in SQL.
 * Details are not searched: they hold ids and sealed text, not what anyone would type.
 */
async function adminSearchCondition(
  db: Db,
  cipher: FieldCipher,
  names: UserNameIndex,
  term: string,
): Promise<SQL> {
  const needle = term.toLocaleLowerCase();
  const like = `%${escapeLike(term)}%`;
  const [userIds, invitationIds, deleted] = await Promise.all([
    names.idsMatching(term),
    invitationIdsMatching(db, cipher, needle),
    deletedIdsMatching(db, cipher, needle),
  ]);
  const labelled = ADMIN_ACTIONS.filter((action) =>
    ADMIN_ACTION_LABELS[action].toLocaleLowerCase().includes(needle),
  );
  const personIds = [...userIds, ...deleted.user];
  const invitees = [...invitationIds, ...deleted.invitation];
  const matches: SQL[] = [sql`${auditEvents.action} ilike ${like}`];
  if (labelled.length > 0) matches.push(inArray(auditEvents.action, labelled));
  if (personIds.length > 0) {
    matches.push(inArray(auditEvents.actorUserId, personIds));
    matches.push(targetIn('user', personIds));
  }
  if (invitees.length > 0) matches.push(targetIn('invitation', invitees));
  // A rotation by its name, or, once deleted, by the name its deletion recorded.
  matches.push(sql`(${auditEvents.targetType} = 'rotation' and (
    ${auditEvents.targetId} in (select r.id::text from rotations r where r.name ilike ${like})
    or ${auditEvents.targetId} in (select d.target_id from audit_events d
      where d.target_type = 'rotation' and d.action = 'rotation.deleted'
        and d.details ->> 'name' ilike ${like})))`);
  // A page by its rotation's name (the one its events recorded, once the rotation is gone).
  matches.push(sql`(${auditEvents.targetType} = 'page' and (
    ${auditEvents.targetId} in (select p.id::text from pages p
      join rotations r on r.id = p.rotation_id where r.name ilike ${like})
    or ${auditEvents.details} ->> 'rotationName' ilike ${like}))`);
  return or(...matches)!;
}

function targetIn(type: string, ids: number[]): SQL {
  return and(
    eq(auditEvents.targetType, type),
    inArray(
      auditEvents.targetId,
      [...new Set(ids)].map((id) => String(id)),
    ),
  )!;
}

/** invitationIdsMatching returns the invitations whose (sealed) invitee name contains the needle. */
async function invitationIdsMatching(
  db: Db,
  cipher: FieldCipher,
  needle: string,
): Promise<number[]> {
  const rows = await db
    .select({ id: invitations.id, nameEnc: invitations.nameEnc })
    .from(invitations);
  return rows
    .filter((r) =>
      cipher
        .decrypt(r.nameEnc, { table: 'invitations', column: 'name', rowId: r.id })
        .toLocaleLowerCase()
        .includes(needle),
    )
    .map((r) => r.id);
}

/**
 * deletedIdsMatching returns the ids of deleted users and invitations whose name, sealed into
 * their deletion (decision 132), contains the needle: the names the trail shows for them.
 */
async function deletedIdsMatching(
  db: Db,
  cipher: FieldCipher,
  needle: string,
): Promise<{ user: number[]; invitation: number[] }> {
  const found = { user: [] as number[], invitation: [] as number[] };
  for (const row of await readDeletedNames(db, cipher)) {
    const id = numericId(row.targetId);
    if (id === null || !row.name.toLocaleLowerCase().includes(needle)) continue;
    if (row.targetType === 'user' || row.targetType === 'invitation') {
      found[row.targetType].push(id);
    }
  }
  return found;
}

/**
 * loadDeletedNames answers the names of deleted users, invitations and rotations that events
 * target, by `{type}:{id}` (readDeletedNames), so every event about something since deleted
 * (invited, roles changed, members added, deleted) still names it.
 */
async function loadDeletedNames(
  db: Db,
  cipher: FieldCipher,
  targets: { targetType: string; targetId: string | null }[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const ids = [...new Set(targets.map((e) => e.targetId as string))];
  if (ids.length === 0) return names;
  const wanted = new Set(targets.map((e) => `${e.targetType}:${e.targetId}`));
  for (const row of await readDeletedNames(db, cipher, ids)) {
    const key = `${row.targetType}:${row.targetId}`;
    if (wanted.has(key)) names.set(key, row.name);
  }
  return names;
}

/**
 * readDeletedNames reads, in one query, the names deletions recorded, of the given target ids
 * (every deletion's when omitted): a person's or invitee's from the envelope their deletion
 * sealed (decision 132; one that does not open is left out), a rotation's from the name its
 * deletion recorded in clear (rotation names are not personal data).
 */
async function readDeletedNames(
  db: Db,
  cipher: FieldCipher,
  targetIds?: string[],
): Promise<{ targetType: string; targetId: string | null; name: string }[]> {
  const rows = await db
    .select({
      id: auditEvents.id,
      targetType: auditEvents.targetType,
      targetId: auditEvents.targetId,
      sealed: sql<string | null>`${auditEvents.details} ->> ${AUDIT_TARGET_NAME.jsonKey}`,
      clear: sql<string | null>`${auditEvents.details} ->> 'name'`,
    })
    .from(auditEvents)
    .where(
      and(
        or(
          inArray(auditEvents.action, DELETIONS),
          and(eq(auditEvents.action, ROTATION_DELETED), eq(auditEvents.targetType, 'rotation')),
        ),
        targetIds ? inArray(auditEvents.targetId, targetIds) : undefined,
      ),
    );
  return rows.flatMap((row) => {
    const name =
      row.targetType === 'rotation'
        ? (row.clear ?? undefined)
        : unsealedName(cipher, row.id, row.sealed);
    return name ? [{ targetType: row.targetType, targetId: row.targetId, name }] : [];
  });
}

/**
 * unsealedName opens the target name a deletion sealed into its event (decision 132), or answers
 * undefined: none, or one that fails authentication (moved from another event, or tampered with),
 * which the trail then shows by type and id rather than failing as a whole.
 */
function unsealedName(cipher: FieldCipher, eventId: number, sealed: unknown): string | undefined {
  if (typeof sealed !== 'string') return undefined;
  try {
    return cipher.decrypt(sealed, auditTargetNameCtx(eventId));
  } catch (err) {
    if (err instanceof FieldDecryptionError) return undefined;
    throw err;
  }
}

// Details name people by id (userId, newHolderUserId, userIds): the trail shows their names.
const PERSON_KEY = /^(userIds?|[a-z][a-zA-Z]*UserIds?)$/;

function personRefs(details: Record<string, unknown>): Record<string, number[]> {
  const refs: Record<string, number[]> = {};
  for (const [key, value] of Object.entries(details)) {
    if (!PERSON_KEY.test(key)) continue;
    const ids = (Array.isArray(value) ? value : [value]).filter(
      (v): v is number => typeof v === 'number' && Number.isSafeInteger(v),
    );
    if (ids.length > 0) refs[key] = ids;
  }
  return refs;
}

/** withPeopleNames adds userName (userNames...) beside each person id in an event's details. */
function withPeopleNames(
  details: Record<string, unknown>,
  people: Map<number, Person>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...details };
  for (const [key, ids] of Object.entries(personRefs(details))) {
    const names = ids.map((id) => people.get(id)?.name ?? UNKNOWN_PERSON);
    out[key.replace(/Id(s?)$/, 'Name$1')] = Array.isArray(details[key]) ? names : names[0];
  }
  return out;
}
