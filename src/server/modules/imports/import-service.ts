import {
  IMPORT_MESSAGES,
  IMPORT_SOURCE_LABELS,
  IMPORT_WINDOW_DAYS,
  type ImportPlan,
  type ImportRequest,
} from '../../../shared/contracts/imports';
import type { User } from '../../../shared/contracts/users';
import type { AppDeps } from '../../core/deps';
import { AppError, notFound } from '../../http/errors';
import { outboundRule } from '../../http/outbound-address';
import { recordAuditEvent } from '../audit/audit-events';
import { buildPlan, type PlanBody } from './import-plan';
import {
  findImport,
  type ImportRow,
  insertImport,
  listImportRows,
  loadBatonState,
} from './import-repository';
import { type ImportReaders, SOURCE_NOT_AVAILABLE } from './readers';
import { sourceGet } from './source-http';
import { ImportSourceError, type SourceSnapshot } from './source-snapshot';

/**
 * Imports (issue 34, decision 268): read a source into a plan (the only write: the plan), list
 * them, read one. Applying is import-apply.ts; verifying import-verify.ts.
 */

export interface ImportDeps extends AppDeps {
  readers: ImportReaders;
}

const DAY = 86_400_000;
/** The most recent imports GET /api/imports lists. */
export const IMPORTS_LISTED = 100;

/** planOf is the plan as the API answers it: the stored row's id, status and times with the body. */
export function planOf(row: ImportRow, body: PlanBody): ImportPlan {
  return {
    ...body,
    id: row.id,
    status: row.status as ImportPlan['status'],
    createdAt: row.createdAt.toISOString(),
    appliedAt: row.appliedAt?.toISOString() ?? null,
  };
}

/** readSource runs the source's reader over [now, now + 90 days); its refusals become 422 or 502. */
export async function readSource(
  deps: ImportDeps,
  request: ImportRequest,
  now: Date,
): Promise<SourceSnapshot> {
  const reader = deps.readers[request.source];
  if (!reader) throw new AppError('IMPORT_SOURCE_REFUSED', SOURCE_NOT_AVAILABLE);
  const window = { from: now, to: new Date(now.getTime() + IMPORT_WINDOW_DAYS * DAY) };
  const get = sourceGet({
    sourceLabel: IMPORT_SOURCE_LABELS[request.source],
    rule: outboundRule({
      isProduction: deps.config.isProduction,
      allowedCidrs: deps.config.destinationAllowedCidrs,
    }),
    lookup: deps.resolveHost,
  });
  try {
    return await reader({
      apiUrl: request.apiUrl,
      apiKey: request.apiKey,
      content: request.content,
      window,
      get,
    });
  } catch (err) {
    if (!(err instanceof ImportSourceError)) throw err;
    throw new AppError(
      err.kind === 'input' ? 'IMPORT_SOURCE_REFUSED' : 'IMPORT_SOURCE_FAILED',
      err.message,
    );
  }
}

/**
 * planImport reads the source and stores the plan of what importing it would do, with the
 * snapshot it was made from (never the key). A source that cannot be read writes nothing.
 */
export async function planImport(
  deps: ImportDeps,
  actor: User,
  request: ImportRequest,
): Promise<ImportPlan> {
  const now = deps.clock.now();
  const snapshot = await readSource(deps, request, now);
  const { row, plan } = await deps.database.db.transaction(async (tx) => {
    const state = await loadBatonState(tx, deps.cipher, deps.config.companyDomain, snapshot, now);
    const stored = await insertImport(tx, deps.cipher, {
      snapshot,
      plan: buildPlan(snapshot, state),
      createdById: actor.id,
      now,
    });
    await recordAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'import.planned',
      targetType: 'import',
      targetId: stored.row.id,
      details: { source: snapshot.source, ...stored.plan.summary },
      at: now,
    });
    return stored;
  });
  return planOf(row, plan);
}

/** listImports answers the most recent plans, newest first. */
export async function listImports(deps: AppDeps): Promise<ImportPlan[]> {
  const stored = await listImportRows(deps.database.db, deps.cipher, IMPORTS_LISTED);
  return stored.map((s) => planOf(s.row, s.plan));
}

/** getImport answers one plan (404 for none). */
export async function getImport(deps: AppDeps, id: number): Promise<ImportPlan> {
  const stored = await findImport(deps.database.db, deps.cipher, id);
  if (!stored) throw notFound(IMPORT_MESSAGES.notFound);
  return planOf(stored.row, stored.plan);
}
