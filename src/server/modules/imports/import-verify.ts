import { IMPORT_MESSAGES, type ImportVerify } from '../../../shared/contracts/imports';
import type { AppDeps } from '../../core/deps';
import { AppError, notFound } from '../../http/errors';
import { projectedShifts } from '../calendar/calendar-service';
import { findRotationRow } from '../rotations/rotation-repository';
import { findUsers } from '../users/user-repository';
import { linkKey } from './import-plan';
import { findImport, listLinks } from './import-repository';
import { compareRenderings } from './snapshot-rendering';
import type { SourceShift, SourceSnapshot } from './source-snapshot';

/**
 * Verify (issue 34, decision 268): who Baton puts on call over the import's window, by the one
 * projection the calendar shows (layers, entries, cover, history), against the source's own
 * rendering, minute by minute, in people's names.
 */

/**
 * verifyImport compares each imported rotation's projection with its schedule's `rendered` over
 * the plan's window from when it was applied (what Baton did before that is not the import's):
 * 404 for no import, 409 before it is applied. Complete when there is no difference.
 */
export async function verifyImport(deps: AppDeps, id: number): Promise<ImportVerify> {
  const db = deps.database.db;
  const stored = await findImport(db, deps.cipher, id);
  if (!stored) throw notFound(IMPORT_MESSAGES.notFound);
  const { row, snapshot } = stored;
  if (row.status !== 'applied' || !row.appliedAt) {
    throw new AppError('CONFLICT', IMPORT_MESSAGES.notApplied);
  }
  const from = new Date(Math.max(row.windowFrom.getTime(), row.appliedAt.getTime()));
  const to = row.windowTo;
  const links = await listLinks(db, snapshot.source, snapshot.account);
  const sourceNames = new Map(snapshot.people.map((p) => [p.sourceId, p.name]));
  const nameOfUser = await userNames(deps, snapshot, links);
  const differences: ImportVerify['differences'] = [];
  for (const schedule of snapshot.schedules) {
    const rotationId = links.get(linkKey('rotation', schedule.sourceId));
    if (rotationId === undefined) continue;
    const rotation = await findRotationRow(db, rotationId);
    if (!rotation) continue;
    const expected = named(schedule.rendered, (s) => sourceNames.get(s) ?? s);
    const shifts = await projectedShifts(deps, db, rotationId, from, to);
    const actual: SourceShift[] = [];
    for (const s of shifts) {
      if (s.userId !== null)
        actual.push({ start: s.start, end: s.end, personSourceId: await nameOfUser(s.userId) });
    }
    for (const d of compareRenderings(expected, actual, from, to)) {
      differences.push({
        rotationId,
        rotationName: rotation.name,
        start: d.start.toISOString(),
        end: d.end.toISOString(),
        source: d.expected,
        baton: d.actual,
      });
    }
  }
  return {
    complete: differences.length === 0,
    window: { from: from.toISOString(), to: to.toISOString() },
    differences,
  };
}

const named = (shifts: readonly SourceShift[], name: (sourceId: string) => string) =>
  shifts.map((s) => ({ ...s, personSourceId: name(s.personSourceId) }));

/**
 * userNames names Baton's people as the source does where the import matched them (so the same
 * person compares equal), and by their Baton name otherwise.
 */
async function userNames(
  deps: AppDeps,
  snapshot: SourceSnapshot,
  links: ReadonlyMap<string, number>,
): Promise<(userId: number) => Promise<string>> {
  const bySource = new Map<number, string>();
  for (const p of snapshot.people) {
    const userId = links.get(linkKey('person', p.sourceId));
    if (userId !== undefined && !bySource.has(userId)) bySource.set(userId, p.name);
  }
  const others = new Map<number, string>();
  return async (userId) => {
    const known = bySource.get(userId) ?? others.get(userId);
    if (known) return known;
    const found = (await findUsers(deps.database.db, deps.cipher, [userId])).get(userId);
    const name = found?.name ?? `Person #${userId}`;
    others.set(userId, name);
    return name;
  };
}
