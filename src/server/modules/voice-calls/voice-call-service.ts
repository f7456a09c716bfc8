import {
  CALL_NOT_DELIVERED,
  callKeyOf,
  callOutcomeOf,
  isCallDelivered,
  isMachine,
} from '../../../shared/domain/voice-calls';
import { AppError, forbidden, notFound } from '../../http/errors';
import { acknowledgeIncidentAs, escalateIncidentAs } from '../incidents/incident-actions';
import type { IncidentDeps } from '../incidents/incident-facts';
import { findIncidentRow, insertIncidentEvent } from '../incidents/incident-repository';
import { publicBaseUrl } from '../notifications/messages';
import { decryptContent } from '../notifications/outbox';
import { markNotDelivered } from '../notifications/outbox-marks';
import { findUsers } from '../users/user-repository';
import {
  bindCall,
  endCall,
  findCallNotification,
  updateCall,
  type VoiceCallRow,
} from './voice-call-repository';
import { callUrls } from './voice-call-urls';
import { callTwiml, emptyTwiml, hangUp, sayAndHangUp } from './voice-twiml';

/**
 * What Twilio's callbacks about a call do (decision 252). Each acts as the person the call's
 * notification was sent to, on that notification's incident only: both are read from the
 * notification the signed URL names, never from the request. The routes checked the signature and
 * the token before any of this runs.
 */

/** A callback: the call's notification (from the path) and what Twilio posted. */
export interface CallCallback {
  notificationId: number;
  /** the token from the path: the gather URL is written with it */
  token: string;
  callSid: string;
  callStatus?: string;
  answeredBy?: string;
  digits?: string;
}

export const CALL_WORDS = {
  acknowledged: 'Acknowledged. Thank you. Goodbye.',
  escalated: 'Escalated to the next step. Goodbye.',
  closed: (status: string) => `This page was already ${status}. Goodbye.`,
  refused: (why: string) => `${why} Goodbye.`,
} as const;

export const CALL_NOT_FOUND = 'No such call.';
export const CALL_OTHER_NOTIFICATION = 'Request refused: this CallSid belongs to another call.';

/** boundCall: the call's notification, its row (bound on first sight) and the person called. */
async function boundCall(deps: IncidentDeps, req: CallCallback) {
  const db = deps.database.db;
  const notification = await findCallNotification(db, req.notificationId);
  if (!notification) throw notFound(CALL_NOT_FOUND);
  const call = await bindCall(db, {
    notificationId: notification.id,
    pageId: notification.pageId,
    userId: notification.userId,
    callSid: req.callSid,
    status: req.callStatus ?? 'in-progress',
  });
  if (!call) throw forbidden(CALL_OTHER_NOTIFICATION);
  const person = (await findUsers(db, deps.cipher, [notification.userId])).get(notification.userId);
  if (!person) throw notFound(CALL_NOT_FOUND);
  return { notification, call, person };
}

/** spokenPage: the call's TwiML, its words from the notification, its keys posted back. */
function spokenPage(
  deps: IncidentDeps,
  req: CallCallback,
  notification: Parameters<typeof decryptContent>[0],
): string {
  const { text } = decryptContent(notification, deps.cipher);
  const urls = callUrls(publicBaseUrl(deps.config), req.notificationId, req.token);
  return callTwiml(text, urls.gather);
}

/**
 * answerCall: the TwiML when the call is answered: the page and its keys, or, when an answering
 * machine took it, nothing (the call ends); when the incident is closed already, that.
 */
export async function answerCall(deps: IncidentDeps, req: CallCallback): Promise<string> {
  const { notification, call } = await boundCall(deps, req);
  if (isMachine(req.answeredBy)) {
    await updateCall(deps.database.db, call.id, { answeredBy: req.answeredBy ?? null });
    return hangUp();
  }
  const incident = await findIncidentRow(deps.database.db, notification.pageId);
  if (!incident) throw notFound(CALL_NOT_FOUND);
  const { status, stepIndex } = incident.page;
  if (status === 'acknowledged' || status === 'resolved')
    return sayAndHangUp(CALL_WORDS.closed(status));
  // The step it was at when answered: 2 escalates from this step only (a key posted twice, or
  // after someone else escalated, does not move it again).
  await updateCall(deps.database.db, call.id, {
    status: req.callStatus ?? call.status,
    answeredBy: req.answeredBy ?? call.answeredBy,
    stepIndex: call.stepIndex ?? stepIndex,
  });
  return spokenPage(deps, req, notification);
}

/** pressKey: 1 acknowledges, 2 escalates to the next step, 3 (or any other) says it again. */
export async function pressKey(deps: IncidentDeps, req: CallCallback): Promise<string> {
  const { notification, call, person } = await boundCall(deps, req);
  const key = callKeyOf(req.digits);
  if (key === '1' || key === '2') {
    try {
      if (key === '1') {
        await acknowledgeIncidentAs(deps, person, notification.pageId, 'phone');
      } else {
        await escalateIncidentAs(deps, person, notification.pageId, {
          reason: 'Escalated from a phone call',
          fromStep: stepSeen(call),
        });
      }
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      // Refused: most often the incident moved first (acknowledged, resolved, escalated on).
      return sayAndHangUp(CALL_WORDS.refused(err.message));
    }
    await updateCall(deps.database.db, call.id, { key });
    return sayAndHangUp(key === '1' ? CALL_WORDS.acknowledged : CALL_WORDS.escalated);
  }
  if (key === '3') await updateCall(deps.database.db, call.id, { key });
  return spokenPage(deps, req, notification);
}

/** stepSeen: the one-based step the person heard the page at, when the call was answered. */
const stepSeen = (call: VoiceCallRow) => (call.stepIndex === null ? undefined : call.stepIndex + 1);

/**
 * callStatus records a call's progress; when it is over, in one transaction: what it came to, on
 * the incident's timeline (with the key pressed), and, when nobody answered (no answer, busy,
 * failed, canceled, a machine), its notification failed with why, so it never counts as sent.
 * The same end posted twice is recorded once.
 */
export async function callStatus(deps: IncidentDeps, req: CallCallback): Promise<string> {
  const { notification, call } = await boundCall(deps, req);
  const status = req.callStatus ?? call.status;
  const answeredBy = req.answeredBy ?? call.answeredBy;
  const outcome = callOutcomeOf(status, answeredBy);
  if (outcome === null) {
    await updateCall(deps.database.db, call.id, { status, answeredBy });
    return emptyTwiml();
  }
  const now = deps.clock.now();
  await deps.database.db.transaction(async (tx) => {
    const ended = await endCall(tx, call.id, { status, answeredBy, outcome, endedAt: now });
    if (!ended) return;
    await insertIncidentEvent(tx, {
      actorUserId: null,
      action: 'incident.call',
      incidentId: notification.pageId,
      details: { userId: notification.userId, outcome, key: ended.key },
      at: now,
    });
    if (!isCallDelivered(outcome)) {
      await markNotDelivered(tx, notification.id, CALL_NOT_DELIVERED[outcome], now);
    }
  });
  return emptyTwiml();
}
