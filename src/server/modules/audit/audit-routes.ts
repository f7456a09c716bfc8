import { stringify } from 'csv-stringify/sync';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMIN_EVENTS_CSV_COLUMNS,
  AdminEventsPageSchema,
  AdminEventsQuerySchema,
  adminActionLabel,
  adminDetailEntries,
  describeHandoff,
  HANDOFF_CSV_COLUMNS,
  type HandoffHistoryPage,
  HandoffHistoryPageSchema,
  HandoffHistoryQuerySchema,
  neutralizeCsvCell,
} from '../../../shared/contracts/audit';
import type { AppDeps } from '../../core/deps';
import { badRequest } from '../../http/errors';
import { answers, content } from '../../http/openapi';
import { permitted } from '../../http/request-context';
import {
  decodeCursor,
  encodeCursor,
  listAdminEvents,
  listHandoffHistory,
  loadPeople,
  toHandoff,
  UserNameIndex,
} from './audit-repository';

/** The handoff export's query: the history's filters, without paging. */
const HandoffExportQuerySchema = HandoffHistoryQuerySchema.pick({
  search: true,
  status: true,
  rotationId: true,
});
/** The trail export's query: the trail's filters, without paging. */
const AdminEventsExportQuerySchema = AdminEventsQuerySchema.pick({ search: true, action: true });

/** auditRoutes: the handoff history and the administrative audit trail, each also as CSV. */
export async function auditRoutes(app: FastifyInstance, deps: AppDeps) {
  const audit: AuditReads = {
    deps,
    db: deps.database.db,
    names: new UserNameIndex(deps.database, deps.cipher),
    today: () => deps.clock.now().toISOString().slice(0, 10),
  };
  handoffHistoryRoutes(app, audit);
  adminTrailRoutes(app, audit);
}

/** What both reads share: the database, one index of people's names, and today's date. */
interface AuditReads {
  deps: AppDeps;
  db: AppDeps['database']['db'];
  names: UserNameIndex;
  today: () => string;
}

/** handoffHistoryRoutes: the handoff history, paged, and its export. */
function handoffHistoryRoutes(app: FastifyInstance, { deps, db, names, today }: AuditReads) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // The handoff history, searched, filtered and paged on the server (newest first).
  api.get(
    '/api/audit-log/handoffs',
    {
      preValidation: permitted('handoff.viewHistory'),
      schema: {
        querystring: HandoffHistoryQuerySchema,
        response: answers({ 200: HandoffHistoryPageSchema }, 400, 401, 403),
      },
    },
    async (req): Promise<HandoffHistoryPage> => {
      const query = req.query;
      const before = query.before ? decodeCursor(query.before) : null;
      if (query.before && !before) throw badRequest('before is not a valid cursor');
      // One row more than asked tells whether another page exists.
      const rows = await listHandoffHistory(db, names, query, {
        limit: query.limit + 1,
        before,
      });
      const shown = rows.slice(0, query.limit);
      const people = await loadPeople(
        db,
        deps.cipher,
        shown.flatMap((r) => [r.fromUserId, r.toUserId]),
      );
      const last = shown[shown.length - 1];
      return {
        entries: shown.map((r) => toHandoff(r, people)),
        nextCursor:
          rows.length > query.limit && last
            ? encodeCursor({ at: last.cursorAt, id: last.id })
            : null,
      };
    },
  );

  // The whole filtered history as CSV (RFC 4180), for administrators.
  api.get(
    '/api/audit-log/handoffs.csv',
    {
      preValidation: permitted('audit.export'),
      schema: {
        querystring: HandoffExportQuerySchema,
        response: answers(
          { 200: content('text/csv', 'The filtered handoff history, as CSV (RFC 4180).') },
          400,
          401,
          403,
        ),
      },
    },
    async (req, reply) => {
      const rows = await listHandoffHistory(db, names, req.query);
      const people = await loadPeople(
        db,
        deps.cipher,
        rows.flatMap((r) => [r.fromUserId, r.toUserId]),
      );
      const records = rows.map((row) => {
        const h = toHandoff(row, people);
        const cells = [
          String(h.id),
          h.timestamp,
          h.rotation.name,
          h.fromUser?.name ?? '',
          h.fromUser?.email ?? '',
          h.toUser?.name ?? '',
          h.toUser?.email ?? '',
          h.status,
          h.kind,
          h.urgent ? 'yes' : 'no',
          h.acknowledgedAt ?? '',
          describeHandoff(h).text,
          h.notes ?? '',
        ];
        // Names, notes and rotation names are user input: a leading =, +, -, @, tab or carriage
        // return would make a spreadsheet run it as a formula (CSV injection).
        return cells.map(neutralizeCsvCell);
      });
      return sendCsv(reply, records, HANDOFF_CSV_COLUMNS, `baton-handoffs-${today()}.csv`);
    },
  );
}

/** adminTrailRoutes: the administrative audit trail, paged, and its export. */
function adminTrailRoutes(app: FastifyInstance, { deps, db, names, today }: AuditReads) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // The administrative audit trail: invitations, deletions, role changes, rotation changes,
  // searched and filtered by action on the server, newest first, paged by event id.
  api.get(
    '/api/audit-log/admin-events',
    {
      preValidation: permitted('audit.viewAdmin'),
      schema: {
        querystring: AdminEventsQuerySchema,
        response: answers({ 200: AdminEventsPageSchema }, 400, 401, 403),
      },
    },
    async (req) => {
      const { search, action, limit, before } = req.query;
      return listAdminEvents(db, deps.cipher, names, { search, action }, { limit, before });
    },
  );

  // The whole filtered trail as CSV (RFC 4180), for administrators.
  api.get(
    '/api/audit-log/admin-events.csv',
    {
      preValidation: [permitted('audit.viewAdmin'), permitted('audit.export')],
      schema: {
        querystring: AdminEventsExportQuerySchema,
        response: answers(
          { 200: content('text/csv', 'The filtered audit trail, as CSV (RFC 4180).') },
          400,
          401,
          403,
        ),
      },
    },
    async (req, reply) => {
      const { events } = await listAdminEvents(db, deps.cipher, names, req.query);
      const records = events.map((e) => {
        const cells = [
          String(e.id),
          e.createdAt,
          e.actor?.name ?? '',
          e.action,
          adminActionLabel(e.action),
          e.targetType,
          e.targetId ?? '',
          e.target,
          adminDetailEntries(e.details)
            .map((d) => `${d.label}: ${d.value}`)
            .join('; '),
        ];
        // Names, rotation names and reasons are user input: neutralized as in the handoff CSV.
        return cells.map(neutralizeCsvCell);
      });
      return sendCsv(reply, records, ADMIN_EVENTS_CSV_COLUMNS, `baton-admin-trail-${today()}.csv`);
    },
  );
}

/**
 * sendCsv answers records as an RFC 4180 download: CRLF lines, a BOM for spreadsheets, quotes
 * only where a cell holds a line break (or a comma or quote, which csv-stringify quotes anyway).
 */
function sendCsv(
  reply: FastifyReply,
  records: string[][],
  columns: readonly string[],
  filename: string,
) {
  const csv = stringify(records, {
    header: true,
    columns: [...columns],
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
    bom: true,
  });
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${filename}"`)
    .send(csv);
}
