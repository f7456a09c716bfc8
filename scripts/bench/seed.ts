// Seeds the benchmark's organisation through Baton's own data layer: users are written by
// insertUsers (personal fields encrypted with the real field cipher), rotations, members and
// handoff history by the shared factories and the schema's tables.
import { sql } from 'drizzle-orm';
import type { FieldCipher } from '../../src/server/crypto/field-crypto';
import { type Db, selectRows } from '../../src/server/db/client';
import { allocateIds } from '../../src/server/db/ids';
import { rotationMembers, rotations } from '../../src/server/db/schema';
import { insertDefaultPolicies } from '../../src/server/modules/rotations/rotation-repository';
import { insertUsers, type NewUser } from '../../src/server/modules/users/user-repository';
import { type HandoffSeed, insertHandoffs } from '../../src/server/seed/factories';
import type { Role } from '../../src/shared/domain/roles';
import { nextHandoffAt } from '../../src/shared/domain/shifts';

const FIRST = [
  'Avery',
  'Morgan',
  'Iris',
  'Olivia',
  'Noah',
  'Priya',
  'Sam',
  'Jordan',
  'Casey',
  'Riley',
  'Taylor',
  'Alex',
  'Jamie',
  'Quinn',
  'Harper',
  'Rowan',
  'Elena',
  'Mateo',
  'Aisha',
  'Kenji',
  'Lucia',
  'Omar',
  'Freya',
  'Tariq',
  'Mina',
  'Diego',
  'Hana',
  'Lars',
  'Zara',
  'Felix',
  'Nadia',
  'Ivan',
  'Leila',
  'Tomas',
  'Yuki',
  'Amara',
  'Emil',
  'Sofia',
  'Kofi',
  'Ines',
];
const LAST = [
  'Adams',
  'Brooks',
  'Chen',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Hughes',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Patel',
  'Quinn',
  'Rossi',
  'Silva',
  'Tanaka',
  'Ueda',
  'Varga',
  'Weber',
  'Xu',
  'Young',
];
const TEAMS = [
  'Payments',
  'Checkout',
  'Search',
  'Identity',
  'Billing',
  'Mobile',
  'Data',
  'Platform',
  'Edge',
  'Messaging',
  'Storage',
  'Growth',
  'Security',
  'Support',
  'Analytics',
  'Infra',
  'Catalog',
  'Shipping',
  'Ledger',
  'Reporting',
];
const SERVICES = [
  'API',
  'Database',
  'Frontend',
  'Workers',
  'Network',
  'Queue',
  'Cache',
  'Ops',
  'Batch',
  'Gateway',
];
const NOTES = [
  'Quiet week, nothing open.',
  'Two pages overnight; see the runbook entry for the disk alert.',
  'Deploy freeze until Thursday.',
  'Open incident INC-2231 is handed over; status page updated.',
  'Certificate renewal scheduled for Friday.',
];

export interface OrganisationSize {
  users: number;
  rotations: number;
  membersPerRotation: number;
  handoffs: number;
  /** every user has a phone number (else every third, as in a team where some never gave one) */
  everyoneHasPhone?: boolean;
}

export const FULL_ORGANISATION: OrganisationSize = {
  users: 1000,
  rotations: 200,
  membersPerRotation: 6,
  handoffs: 50_000,
};

export interface SeededOrganisation {
  admin: { id: number; email: string };
  users: { id: number; email: string; name: string }[];
  rotations: { id: number; memberIds: number[]; holderIndex: number }[];
}

function personOf(i: number, domain: string, everyoneHasPhone = false): NewUser {
  const first = FIRST[i % FIRST.length];
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
  const n = Math.floor(i / (FIRST.length * LAST.length));
  const local = `${first}.${last}${n > 0 ? n : ''}`.toLowerCase();
  return {
    name: `${first} ${last}${n > 0 ? ` ${n + 1}` : ''}`,
    email: `${local}@${domain}`,
    phone: everyoneHasPhone || i % 3 === 0 ? `+1555${String(1_000_000 + i).slice(-7)}` : null,
    roles: ['on-call'] as Role[],
    timezone: i % 4 === 0 ? 'Europe/Berlin' : i % 4 === 1 ? 'America/New_York' : 'UTC',
  };
}

/**
 * seedOrganisation writes `size.users` on-call users plus one administrator, `size.rotations`
 * weekly fixed rotations of `membersPerRotation` members each, the baton with a member of each,
 * and `size.handoffs` handoffs of history whose last one per rotation hands the baton to its
 * current holder (acknowledged, so nothing is pending).
 */
export async function seedOrganisation(
  db: Db,
  cipher: FieldCipher,
  size: OrganisationSize,
  now: Date,
  domain = 'example.com',
): Promise<SeededOrganisation> {
  const [admin] = await insertUsers(db, cipher, [
    { name: 'Bench Admin', email: `bench.admin@${domain}`, roles: ['admin'] },
  ]);
  const users: SeededOrganisation['users'] = [];
  for (let start = 0; start < size.users; start += 250) {
    const batch = Array.from({ length: Math.min(250, size.users - start) }, (_, k) =>
      personOf(start + k, domain, size.everyoneHasPhone),
    );
    const inserted = await insertUsers(db, cipher, batch);
    users.push(...inserted.map((u) => ({ id: u.id, email: u.email, name: u.name })));
  }

  const seeded: SeededOrganisation['rotations'] = [];
  const perRotation = Math.floor(size.handoffs / size.rotations);
  for (let start = 0; start < size.rotations; start += 100) {
    const count = Math.min(100, size.rotations - start);
    // Each rotation has its own default escalation policy (decision 202), which names it.
    const ids = await allocateIds(db, 'rotations', count);
    const values = Array.from({ length: count }, (_, k) => {
      const i = start + k;
      const pattern = {
        cadence: 'weekly' as const,
        timeZone: 'UTC',
        handoffTime: `${String(8 + (i % 4)).padStart(2, '0')}:00`,
        handoffWeekday: 1 + (i % 5),
      };
      return {
        id: ids[k],
        escalationPolicyId: 0,
        name: `${TEAMS[i % TEAMS.length]} ${SERVICES[Math.floor(i / TEAMS.length) % SERVICES.length]}${i >= TEAMS.length * SERVICES.length ? ` ${i}` : ''}`,
        description: i % 2 === 0 ? `Primary on-call for ${TEAMS[i % TEAMS.length]}` : null,
        type: 'fixed',
        ...pattern,
        nextHandoffAt: nextHandoffAt(pattern, now),
        createdById: admin.id,
      };
    });
    const policies = await insertDefaultPolicies(db, values, admin.id, now);
    for (const v of values) v.escalationPolicyId = policies.get(v.id) as number;
    const rows = await db.insert(rotations).values(values).returning({ id: rotations.id });
    const members = rows.flatMap((row, k) => {
      const i = start + k;
      const memberIds = Array.from(
        { length: size.membersPerRotation },
        (_, m) => users[(i * size.membersPerRotation + m) % users.length].id,
      );
      seeded.push({ id: row.id, memberIds, holderIndex: perRotation % size.membersPerRotation });
      return memberIds.map((userId, order) => ({ rotationId: row.id, userId, order }));
    });
    await db.insert(rotationMembers).values(members);
  }
  // The holder is a member (a composite foreign key), so it is set once the members exist.
  for (const r of seeded) {
    await db.execute(
      sql`update rotations set holder_user_id = ${r.memberIds[r.holderIndex]},
                 holder_since = ${new Date(now.getTime() - 3 * 86_400_000)}
           where id = ${r.id}`,
    );
  }

  // History: each rotation's handoffs pass the baton member to member, every three days back
  // from now, so the newest one gave it to the current holder.
  const DAY = 86_400_000;
  let batch: HandoffSeed[] = [];
  for (let step = 0; step < perRotation; step++) {
    for (const [ri, r] of seeded.entries()) {
      const m = r.memberIds.length;
      const back = perRotation - step;
      const occurredAt = new Date(now.getTime() - back * 3 * DAY - ri * 60_000);
      const variant = (step * 7 + ri) % 20;
      const kind = variant === 0 ? 'auto' : variant === 1 ? 'reassign' : 'pass';
      batch.push({
        rotationId: r.id,
        fromUserId: r.memberIds[step % m],
        toUserId: r.memberIds[(step + 1) % m],
        kind,
        status: kind === 'auto' ? 'escalated' : variant === 2 ? 'missed' : 'acknowledged',
        notes: variant % 5 === 3 ? NOTES[(step + ri) % NOTES.length] : null,
        occurredAt,
        acknowledgedAt: new Date(occurredAt.getTime() + 10 * 60_000),
      });
      if (batch.length >= 2000) {
        await insertHandoffs(db, batch);
        batch = [];
      }
    }
  }
  if (batch.length > 0) await insertHandoffs(db, batch);
  await db.execute(sql`analyze`);
  return { admin: { id: admin.id, email: admin.email }, users, rotations: seeded };
}

/**
 * seedEngineRotations writes `count` active fixed weekly rotations of three members each (bulk
 * SQL over generate_series) over the given users, each with one acknowledged handoff of history.
 * `due` of them have their boundary behind `now`: half a minute ago (the request to pass is due),
 * half 90 minutes ago (the automatic transfer is due). The others' boundaries are days ahead.
 */
export async function seedEngineRotations(
  db: Db,
  userIds: number[],
  count: number,
  due: number,
  now: Date,
): Promise<void> {
  const ids = `{${userIds.join(',')}}`;
  const u = userIds.length;
  // Each rotation has its own default escalation policy (decision 202), which names it.
  const rotationIds = await allocateIds(db, 'rotations', count);
  // In statements of 5,000: Drizzle builds one insert's SQL recursively, and 100,000 rows in one
  // statement overflow the stack.
  const policies = new Map<number, number>();
  for (let start = 0; start < rotationIds.length; start += 5_000) {
    const chunk = rotationIds.slice(start, start + 5_000);
    const made = await insertDefaultPolicies(
      db,
      chunk.map((id, k) => ({ id, name: `Engine rotation ${start + k + 1}` })),
      null,
      now,
    );
    for (const [rotationId, policyId] of made) policies.set(rotationId, policyId);
  }
  const idList = `{${rotationIds.join(',')}}`;
  const policyList = `{${rotationIds.map((id) => policies.get(id)).join(',')}}`;
  await db.execute(sql`
    insert into rotations (id, escalation_policy_id, name, type, cadence, time_zone, handoff_time, handoff_weekday, next_handoff_at)
    select (${idList}::int[])[g], (${policyList}::int[])[g], 'Engine rotation ' || g, 'fixed', 'weekly', 'UTC', '09:00', 1,
           case when g <= ${due} then ${now}::timestamptz - (case when g % 2 = 0 then interval '1 minute' else interval '90 minutes' end)
                else ${now}::timestamptz + interval '2 days' + (g % 5000) * interval '1 minute' end
      from generate_series(1, ${count}) g`);
  await db.execute(sql`
    insert into rotation_members (rotation_id, user_id, "order")
    select r.id, (${ids}::int[])[1 + ((r.id * 3 + k) % ${u})], k
      from rotations r cross join generate_series(0, 2) k
     where r.name like 'Engine rotation %'`);
  await db.execute(sql`
    update rotations r set holder_user_id = m.user_id, holder_since = ${now}::timestamptz - interval '7 days'
      from rotation_members m
     where m.rotation_id = r.id and m."order" = 0 and r.name like 'Engine rotation %'`);
  await db.execute(sql`
    insert into handoffs (rotation_id, from_user_id, to_user_id, status, kind, occurred_at, acknowledged_at)
    select r.id, null, r.holder_user_id, 'acknowledged', 'pass',
           ${now}::timestamptz - interval '7 days', ${now}::timestamptz - interval '7 days' + interval '5 minutes'
      from rotations r where r.name like 'Engine rotation %'`);
  await db.execute(sql`analyze`);
}

/** countDue reads how many rotations are behind their boundary at `now` (a check of the seed). */
export async function countDue(db: Db, now: Date): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from rotations where next_handoff_at <= ${now}`,
  );
  return Number(row?.n ?? 0);
}
