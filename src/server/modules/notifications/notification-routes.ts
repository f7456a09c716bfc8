import { and, desc, eq, gt, inArray, notInArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CHANNEL_FAILURE_WINDOW_MS,
  channelNotConfiguredReason,
  type NotificationStatus,
  NotificationStatusSchema,
  type OutboxEntry,
  OutboxEntrySchema,
  OutboxQuerySchema,
} from '../../../shared/contracts/notifications';
import { isDemoMode } from '../../core/config';
import type { AppDeps } from '../../core/deps';
import { notifications } from '../../db/schema';
import { answers } from '../../http/openapi';
import { permitted } from '../../http/request-context';
import { channelSetup } from './channels';
import { decryptContent } from './outbox';
import { failureReason } from './provider-answers';

/**
 * hideAckLinks hides acknowledgement tokens from the outbox view: a link acknowledges a page for
 * its recipient without signing in, so it is the recipient's alone, not administrators'.
 */
export function hideAckLinks(text: string): string {
  return text.replace(/\/pages\/ack\/[^\s"'<>]+/g, '/pages/ack/(hidden)');
}

export async function notificationRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // What administrators' banner and dashboard alert show (decision 163): the channels this
  // server has, and those that failed for good in the last hour. A failure only because a
  // channel is not configured is left out: `missing` says that once, not once per message.
  api.get(
    '/api/admin/notifications/status',
    {
      preValidation: permitted('system.configure'),
      schema: { response: answers({ 200: NotificationStatusSchema }, 401, 403) },
    },
    async (): Promise<NotificationStatus> => {
      const since = new Date(deps.clock.now().getTime() - CHANNEL_FAILURE_WINDOW_MS);
      const rows = await deps.database.db
        .select({
          channel: notifications.channel,
          count: sql<number>`count(*)::int`,
          lastAt: sql<string>`max(${notifications.failedAt})`,
          lastError: sql<
            string | null
          >`(array_agg(${notifications.lastError} order by ${notifications.failedAt} desc, ${notifications.id} desc))[1]`,
          lastResponse: sql<
            string | null
          >`(array_agg(${notifications.providerResponse} order by ${notifications.failedAt} desc, ${notifications.id} desc))[1]`,
        })
        .from(notifications)
        .where(
          and(
            eq(notifications.status, 'failed'),
            gt(notifications.failedAt, since),
            // The banner names a person's channels; chat and token-sync failures show in the
            // outbox view and the destinations' own state.
            inArray(notifications.channel, ['email', 'sms']),
            notInArray(notifications.lastError, [
              channelNotConfiguredReason('email'),
              channelNotConfiguredReason('sms'),
            ]),
          ),
        )
        .groupBy(notifications.channel)
        .orderBy(notifications.channel);
      return {
        ...channelSetup(deps.config),
        demoInbox: isDemoMode(deps.config),
        recentFailures: rows.map((row) => ({
          channel: row.channel === 'sms' ? 'sms' : 'email',
          count: Number(row.count),
          lastAt: new Date(row.lastAt).toISOString(),
          lastReason: failureReason(row.lastError, row.lastResponse),
        })),
      };
    },
  );

  // The outbox view: every notification with its delivery state, newest first (administrators).
  api.get(
    '/api/admin/notifications',
    {
      preValidation: permitted('system.configure'),
      schema: {
        querystring: OutboxQuerySchema,
        response: answers({ 200: z.array(OutboxEntrySchema) }, 400, 401, 403),
      },
    },
    async (req): Promise<OutboxEntry[]> => {
      const query = req.query;
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
          // A push goes to each of the person's devices (decision 253): its `to` is their id.
          to: row.channel === 'push' ? 'Their devices for push' : content.to,
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
    },
  );
}
