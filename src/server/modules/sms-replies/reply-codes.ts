import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { User } from '../../../shared/contracts/users';
import { notificationRoute } from '../../../shared/domain/notification-routing';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { smsReplyCodes } from '../../db/schema';

/**
 * SMS reply codes (decision 201): "this code, for this page, sent to this recipient's number".
 * Pages issue them today; incidents will issue them the same way. The number is kept only as a
 * keyed hash (FieldCipher.phoneIndex); a code is four digits, unique among its number's open
 * codes, and closes when its page is acknowledged or resolved.
 */

export type ReplyCodeRow = typeof smsReplyCodes.$inferSelect;

/** How long a closed code still answers with what became of its page, rather than "unknown". */
export const CLOSED_CODE_MEMORY_MS = 24 * 60 * 60 * 1000;

/** How many random codes to try before giving up (each try skips the codes known to be taken). */
const ATTEMPTS = 5;

/** What deciding whether an SMS carries a code needs: the cipher and whether replies are on. */
export interface ReplyCodeDeps {
  cipher: FieldCipher;
  /** SMS replies are on when Twilio's auth token is configured (it signs the replies) */
  config?: { sms?: { authToken?: string } };
}

/** smsRepliesEnabled tells whether Baton accepts SMS replies: Twilio's auth token is configured. */
export function smsRepliesEnabled(deps: Pick<ReplyCodeDeps, 'config'>): boolean {
  return Boolean(deps.config?.sms?.authToken);
}

/**
 * replyCodeFor returns the code a page's SMS to this recipient carries: the open one already
 * issued for this page, person and number, or a new one. Null when the message does not go to
 * them by SMS (email only, or no valid number) or SMS replies are off: nothing to reply to.
 * Call it in the transaction that writes the SMS.
 */
export async function replyCodeFor(
  tx: Tx,
  deps: ReplyCodeDeps,
  input: {
    pageId: number;
    recipient: Pick<User, 'id' | 'phone' | 'notificationPreference'>;
    emailOnly: boolean;
    now: Date;
  },
): Promise<string | null> {
  if (input.emailOnly || !smsRepliesEnabled(deps)) return null;
  const { smsTo } = notificationRoute(
    input.recipient.notificationPreference,
    input.recipient.phone,
  );
  if (!smsTo) return null;
  const hashes = deps.cipher.phoneIndexes(smsTo);
  const own = await tx
    .select({ code: smsReplyCodes.code })
    .from(smsReplyCodes)
    .where(
      and(
        eq(smsReplyCodes.pageId, input.pageId),
        eq(smsReplyCodes.userId, input.recipient.id),
        eq(smsReplyCodes.phoneHash, hashes[0]),
        isNull(smsReplyCodes.closedAt),
      ),
    )
    .limit(1);
  if (own.length > 0) return own[0].code;
  const open = await tx
    .select({ code: smsReplyCodes.code })
    .from(smsReplyCodes)
    .where(and(inArray(smsReplyCodes.phoneHash, hashes), isNull(smsReplyCodes.closedAt)));
  const taken = new Set(open.map((row) => row.code));
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const code = freeCode(taken);
    if (code === null) return null;
    // A concurrent page to the same number may take the same code first: the partial unique
    // index refuses the second, which tries another.
    const inserted = await tx
      .insert(smsReplyCodes)
      .values({
        pageId: input.pageId,
        userId: input.recipient.id,
        phoneHash: hashes[0],
        code,
        createdAt: input.now,
      })
      .onConflictDoNothing({
        target: [smsReplyCodes.phoneHash, smsReplyCodes.code],
        where: sql`closed_at is null`,
      })
      .returning({ code: smsReplyCodes.code });
    if (inserted.length > 0) return inserted[0].code;
    taken.add(code);
  }
  return null;
}

/** freeCode draws a four-digit code not in `taken`, or null when all 10,000 are. */
function freeCode(taken: ReadonlySet<string>): string | null {
  if (taken.size >= 10_000) return null;
  for (;;) {
    const code = String(randomInt(0, 10_000)).padStart(4, '0');
    if (!taken.has(code)) return code;
  }
}

/** closeReplyCodes closes a page's open codes (it was acknowledged or resolved). */
export async function closeReplyCodes(tx: Tx, pageId: number, now: Date): Promise<void> {
  await tx
    .update(smsReplyCodes)
    .set({ closedAt: now })
    .where(and(eq(smsReplyCodes.pageId, pageId), isNull(smsReplyCodes.closedAt)));
}

/**
 * findReplyCode finds the code a number replied: its open code, else the one it had that closed
 * within CLOSED_CODE_MEMORY_MS (to say what became of the page); undefined when there is none.
 */
export async function findReplyCode(
  db: Db | Tx,
  cipher: FieldCipher,
  input: { phone: string; code: string; now: Date },
): Promise<ReplyCodeRow | undefined> {
  const since = new Date(input.now.getTime() - CLOSED_CODE_MEMORY_MS);
  const [row] = await db
    .select()
    .from(smsReplyCodes)
    .where(
      and(
        inArray(smsReplyCodes.phoneHash, cipher.phoneIndexes(input.phone)),
        eq(smsReplyCodes.code, input.code),
        or(isNull(smsReplyCodes.closedAt), gt(smsReplyCodes.closedAt, since)),
      ),
    )
    .orderBy(sql`${smsReplyCodes.closedAt} is null desc`, desc(smsReplyCodes.closedAt))
    .limit(1);
  return row;
}
