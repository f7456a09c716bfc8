import type { User } from '../../../shared/contracts/users';
import { normalizePhone } from '../../../shared/domain/notification-routing';
import { parseSmsReply } from '../../../shared/domain/sms-replies';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import { AppError } from '../../http/errors';
import { type SmsReplyOutcome, smsReplyAnswer } from '../notifications/messages';
import { loadRecipients } from '../notifications/notify';
import { acknowledgePage, resolvePage } from '../paging/page-actions';
import type { PagingDeps } from '../paging/page-facts';
import { findPageRow } from '../paging/paging-repository';
import { findReplyCode, type ReplyCodeRow } from './reply-codes';

/**
 * answerSmsReply acts on a signed SMS reply (decision 201) and returns the words to text back.
 * "4821" acknowledges the code's page as the person it was sent to, "4821R" resolves it, through
 * the same services as the screen (so the page history and the audit trail record them), and only
 * from the number the code was sent to. A refusal is an answer, never an error.
 */
export async function answerSmsReply(
  deps: PagingDeps,
  reply: { from: string; body: string },
): Promise<string> {
  return smsReplyAnswer(await outcomeOf(deps, reply));
}

async function outcomeOf(
  deps: PagingDeps,
  reply: { from: string; body: string },
): Promise<SmsReplyOutcome> {
  const request = parseSmsReply(reply.body);
  const phone = normalizePhone(reply.from);
  if (!request || !phone) return { kind: 'help' };
  const now = deps.clock.now();
  const code = await findReplyCode(deps.database.db, deps.cipher, {
    phone,
    code: request.code,
    now,
  });
  const person = code
    ? (await loadRecipients(deps.database.db, deps.cipher, [code.userId])).get(code.userId)
    : undefined;
  if (!code || !person) return { kind: 'unknown-code', code: request.code };
  // An open code acts; a closed one still resolves (it closed at the acknowledgement, and whoever
  // acknowledged by SMS resolves the same way), within the day a closed code is remembered.
  if (code.closedAt === null || request.action === 'resolve') {
    try {
      if (request.action === 'acknowledge') {
        const page = await acknowledgePage(deps, person, code.pageId, 'sms');
        return { kind: 'acknowledged', rotationName: page.rotation.name };
      }
      const page = await resolvePage(deps, person, code.pageId, 'sms');
      return { kind: 'resolved', rotationName: page.rotation.name };
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      // Refused: most often the page changed first (acknowledged, resolved, escalated on).
      return pageState(deps, code, person, err.message);
    }
  }
  return pageState(deps, code, person, null);
}

/** pageState says what became of a code's page: who acknowledged it and when, or its refusal. */
async function pageState(
  deps: PagingDeps,
  code: ReplyCodeRow,
  person: User,
  refusal: string | null,
): Promise<SmsReplyOutcome> {
  const found = await findPageRow(deps.database.db, code.pageId);
  if (!found) return { kind: 'unknown-code', code: code.code };
  const { page, rotation } = found;
  const timeZone = zoneOrUtc(person.timezone);
  if (page.status === 'acknowledged' && page.acknowledgedAt) {
    const by =
      page.targetUserId === null
        ? undefined
        : (await loadRecipients(deps.database.db, deps.cipher, [page.targetUserId])).get(
            page.targetUserId,
          );
    return {
      kind: 'already-acknowledged',
      rotationName: rotation.name,
      byName: by?.name ?? 'a former member',
      at: page.acknowledgedAt,
      timeZone,
    };
  }
  if (page.status === 'resolved' && page.resolvedAt) {
    return { kind: 'already-resolved', rotationName: rotation.name, at: page.resolvedAt, timeZone };
  }
  if (refusal !== null) return { kind: 'refused', rotationName: rotation.name, message: refusal };
  return { kind: 'unknown-code', code: code.code };
}
