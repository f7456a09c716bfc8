import type { User } from '../../../shared/contracts/users';
import { normalizePhone } from '../../../shared/domain/notification-routing';
import { parseSmsReply } from '../../../shared/domain/sms-replies';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import { AppError } from '../../http/errors';
import { acknowledgeIncidentAs, resolveIncidentAs } from '../incidents/incident-actions';
import { type IncidentDeps, rotationRefOf } from '../incidents/incident-facts';
import { findIncidentRow } from '../incidents/incident-repository';
import { type SmsReplyOutcome, smsReplyAnswer } from '../notifications/messages';
import { findUsers } from '../users/user-repository';
import { findReplyCode, type ReplyCodeRow } from './reply-codes';
import { countWrongCode, WRONG_CODE_LIMIT, wrongCodesFrom } from './sms-reply-guards';

/**
 * answerSmsReply acts on a signed SMS reply (decision 201) and returns the words to text back.
 * "4821" acknowledges the code's page as the person it was sent to, "4821R" resolves it, through
 * the same services as the screen (so the page history and the audit trail record them), and only
 * from the number the code was sent to. A refusal is an answer, never an error. A number that
 * replied WRONG_CODE_LIMIT wrong codes within the hour is told to use the link instead.
 */
export async function answerSmsReply(
  deps: IncidentDeps,
  reply: { from: string; body: string },
): Promise<string> {
  return smsReplyAnswer(await outcomeOf(deps, reply));
}

async function outcomeOf(
  deps: IncidentDeps,
  reply: { from: string; body: string },
): Promise<SmsReplyOutcome> {
  const request = parseSmsReply(reply.body);
  const phone = normalizePhone(reply.from);
  if (!request || !phone) return { kind: 'help' };
  const now = deps.clock.now();
  // Four digits are guessed in at most 10,000 tries: past the limit a number's codes are not
  // tried at all (decision 236), right or wrong, until its hour is over.
  if ((await wrongCodesFrom(deps, phone, now)) >= WRONG_CODE_LIMIT) {
    return { kind: 'too-many-wrong-codes' };
  }
  const code = await findReplyCode(deps.database.db, deps.cipher, {
    phone,
    code: request.code,
    now,
  });
  const person = code
    ? (await findUsers(deps.database.db, deps.cipher, [code.userId])).get(code.userId)
    : undefined;
  if (!code || !person) {
    const wrong = await countWrongCode(deps, phone, now);
    if (wrong >= WRONG_CODE_LIMIT) return { kind: 'too-many-wrong-codes' };
    return { kind: 'unknown-code', code: request.code };
  }
  // An open code acts; a closed one still resolves (it closed at the acknowledgement, and whoever
  // acknowledged by SMS resolves the same way), within the day a closed code is remembered.
  if (code.closedAt === null || request.action === 'resolve') {
    try {
      if (request.action === 'acknowledge') {
        await acknowledgeIncidentAs(deps, person, code.pageId, 'sms');
        return { kind: 'acknowledged', rotationName: await nameOf(deps, code.pageId) };
      }
      await resolveIncidentAs(deps, person, code.pageId, 'sms');
      return { kind: 'resolved', rotationName: await nameOf(deps, code.pageId) };
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      // Refused: most often the page changed first (acknowledged, resolved, escalated on).
      return pageState(deps, code, person, err.message);
    }
  }
  return pageState(deps, code, person, null);
}

/** nameOf: what an incident's answers name: its rotation, or the policy it was raised on. */
async function nameOf(deps: IncidentDeps, incidentId: number): Promise<string> {
  const found = await findIncidentRow(deps.database.db, incidentId);
  return found ? rotationRefOf(found).name : '';
}

/** pageState says what became of a code's page: who acknowledged it and when, or its refusal. */
async function pageState(
  deps: IncidentDeps,
  code: ReplyCodeRow,
  person: User,
  refusal: string | null,
): Promise<SmsReplyOutcome> {
  const found = await findIncidentRow(deps.database.db, code.pageId);
  if (!found) return { kind: 'unknown-code', code: code.code };
  const { page } = found;
  const rotation = rotationRefOf(found);
  const timeZone = zoneOrUtc(person.timezone);
  if (page.status === 'acknowledged' && page.acknowledgedAt) {
    const byId = page.acknowledgedById ?? page.targetUserId;
    const by =
      byId === null
        ? undefined
        : (await findUsers(deps.database.db, deps.cipher, [byId])).get(byId);
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
