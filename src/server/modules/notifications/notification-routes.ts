import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type OutboxEntry, OutboxQuerySchema } from '../../../shared/contracts/notifications';
import type { AppDeps } from '../../app';
import { notifications } from '../../db/schema';
import { parseInput } from '../../http/errors';
import { requirePermission } from '../../http/request-context';
import { decryptContent } from './outbox';

/**
 * hideAckLinks hides acknowledgement tokens from the outbox view: a link acknowledges a page for
 * its recipient without signing in, so it is the recipient's alone, not administrators'.
 */
export function hideAckLinks(text: string): string {
  return text.replace(/\/pages\/ack\/[^\s"'<>]+/g, '/pages/ack/(hidden)');
}

export async function notificationRoutes(app: FastifyInstance, deps: AppDeps) {
  // The outbox view: every notification with its delivery state, newest first (administrators).
  app.get('/api/admin/notifications', async (req): Promise<OutboxEntry[]> => {
    requirePermission(req, 'system.configure');
    const query = parseInput(OutboxQuerySchema, req.query);
    const rows = await deps.database.db
      .select()
      .from(notifications)
      .where(query.status ? eq(notifications.status, query.status) : undefined)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(query.limit);
    return rows.map((row) => {
      const content = decryptContent(row, deps.cipher);
      return {
        id: row.id,
        userId: row.userId,
        channel: row.channel as OutboxEntry['channel'],
        kind: row.kind,
        to: content.to,
        subject: content.subject,
        text: hideAckLinks(content.text),
        status: row.status,
        attempts: row.attempts,
        lastError: row.lastError,
        providerResponse: row.providerResponse,
        createdAt: row.createdAt.toISOString(),
        nextAttemptAt: row.nextAttemptAt.toISOString(),
        sentAt: row.sentAt?.toISOString() ?? null,
      };
    });
  });
}
