import { count, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notifications, pages } from '../../db/schema';

/** outboxQueueDepth counts the outbox's pending notifications by channel (one query). */
export async function outboxQueueDepth(db: Db): Promise<{ channel: string; count: number }[]> {
  return db
    .select({ channel: notifications.channel, count: count() })
    .from(notifications)
    .where(eq(notifications.status, 'pending'))
    .groupBy(notifications.channel);
}

/** openIncidentCounts counts the incidents not resolved, by status (one query). */
export async function openIncidentCounts(db: Db): Promise<{ status: string; count: number }[]> {
  return db
    .select({ status: pages.status, count: count() })
    .from(pages)
    .where(ne(pages.status, 'resolved'))
    .groupBy(pages.status);
}
