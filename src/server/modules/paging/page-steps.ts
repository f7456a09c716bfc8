import { escalatesAt, type Urgency } from '../../../shared/domain/paging';
import type { Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import {
  pageAcknowledgedNotice,
  pageEscalatedNotice,
  pageEscalatedToYouMessage,
  pageReminderMessage,
  pageWarningMessage,
  publicBaseUrl,
} from '../notifications/messages';
import { loadRecipients, type NotifyDeps, toInput } from '../notifications/notify';
import { enqueueNotifications, type NotificationInput } from '../notifications/outbox';
import { closeReplyCodes, replyCodeFor } from '../sms-replies/reply-codes';
import { ackToken, ackUrl, hashAckToken, storedAckToken } from './ack-token';
import { emailOnly, facts, subjectOf } from './page-facts';
import { pageMessageOf, sealReason } from './page-message';
import { insertPageEvent, type PageWithRotation, updatePageRow } from './paging-repository';
/**
 * The steps a locked, open page takes, whoever asks for them (a person, a link, the clock):
 * acknowledged, escalated to the next person, reminded. Each writes the page, its history event
 * and its notifications in the caller's transaction.
 */

/**
 * markAcknowledged acknowledges a locked open page and tells the pager; its SMS reply codes
 * close (decision 201).
 */
export async function markAcknowledged(
  tx: Tx,
  deps: NotifyDeps,
  locked: PageWithRotation,
  how: { via: 'app' | 'link' | 'sms'; now: Date },
): Promise<void> {
  const { page, rotation } = locked;
  await updatePageRow(tx, page.id, { status: 'acknowledged', acknowledgedAt: how.now });
  await closeReplyCodes(tx, page.id, how.now);
  await insertPageEvent(tx, {
    actorUserId: page.targetUserId,
    action: 'page.acknowledged',
    pageId: page.id,
    details: { via: how.via, rotationName: rotation.name },
    at: how.now,
  });
  if (page.pagedById === null || page.pagedById === page.targetUserId) return;
  const people = await loadRecipients(tx, deps.cipher, [page.pagedById, page.targetUserId]);
  const pager = people.get(page.pagedById);
  if (!pager) return;
  const byName =
    page.targetUserId === null
      ? 'The recipient'
      : (people.get(page.targetUserId)?.name ?? 'The recipient');
  const content = pageAcknowledgedNotice({
    baseUrl: publicBaseUrl(deps.config),
    rotation,
    byName,
    at: how.now,
    timeZone: pager.timezone,
  });
  await enqueueNotifications(tx, deps.cipher, how.now, [
    toInput(`page:${page.id}:acknowledged`, 'page.acknowledged', pager, content, {
      emailOnly: emailOnly(page.urgency),
      pageId: page.id,
    }),
  ]);
}

/**
 * escalate moves a locked open page to the next person: a new recipient with a new link, the
 * history kept as an event, the new recipient paged and the pager told.
 */
export async function escalate(
  tx: Tx,
  deps: NotifyDeps,
  locked: PageWithRotation,
  step: { toUserId: number; reason: string; actorId: number | null; automatic: boolean; now: Date },
): Promise<void> {
  const { page, rotation } = locked;
  const { now } = step;
  const token = ackToken(deps.cipher, {
    pageId: page.id,
    targetUserId: step.toUserId,
    stepStart: now,
  });
  await updatePageRow(tx, page.id, {
    status: 'escalated',
    escalatedAt: now,
    targetUserId: step.toUserId,
    ackTokenHash: hashAckToken(token),
  });
  // The reason is what people type about the page: sealed like its text (decision 163).
  const [eventId] = await allocateIds(tx, 'audit_events');
  await insertPageEvent(tx, {
    id: eventId,
    actorUserId: step.actorId,
    action: 'page.escalated',
    pageId: page.id,
    details: {
      rotationName: rotation.name,
      fromUserId: page.targetUserId,
      toUserId: step.toUserId,
      ...sealReason(deps.cipher, eventId, step.reason),
      automatic: step.automatic,
    },
    at: now,
  });
  const people = await loadRecipients(tx, deps.cipher, [
    page.pagedById,
    page.targetUserId,
    step.toUserId,
  ]);
  const baseUrl = publicBaseUrl(deps.config);
  const eventKey = `page:${page.id}:escalation:${now.getTime()}`;
  const options = { emailOnly: emailOnly(page.urgency), pageId: page.id };
  const inputs: NotificationInput[] = [];
  const next = people.get(step.toUserId);
  const pagerName = page.pagedById === null ? null : (people.get(page.pagedById)?.name ?? null);
  const fromName =
    page.targetUserId === null ? null : (people.get(page.targetUserId)?.name ?? null);
  if (next) {
    inputs.push(
      toInput(
        eventKey,
        'page.escalated',
        next,
        pageEscalatedToYouMessage({
          baseUrl,
          rotation,
          pagerName,
          message: pageMessageOf(page, deps.cipher),
          urgency: page.urgency as Urgency,
          ackUrl: ackUrl(baseUrl, token),
          createdAt: page.createdAt,
          timeZone: next.timezone,
          fromName,
          reason: step.reason,
          escalatedAt: now,
          replyCode: await replyCodeFor(tx, deps, {
            pageId: page.id,
            recipient: next,
            emailOnly: options.emailOnly,
            now,
          }),
        }),
        options,
      ),
    );
  }
  const pager = page.pagedById === null ? undefined : people.get(page.pagedById);
  if (pager && pager.id !== step.toUserId && pager.id !== step.actorId) {
    inputs.push(
      toInput(
        eventKey,
        'page.escalation_notice',
        pager,
        pageEscalatedNotice({
          baseUrl,
          rotation,
          fromName,
          toName: next?.name ?? 'the next person',
          reason: step.reason,
          automatic: step.automatic,
        }),
        options,
      ),
    );
  }
  await enqueueNotifications(tx, deps.cipher, now, inputs);
}

/** remind sends the reminder to the recipient and the warning to the pager, once per recipient. */
export async function remind(
  tx: Tx,
  deps: NotifyDeps,
  locked: PageWithRotation,
  nextUserId: number | null,
  now: Date,
): Promise<boolean> {
  const { page, rotation } = locked;
  const subject = subjectOf(page);
  if (!subject) return false;
  const people = await loadRecipients(tx, deps.cipher, [
    page.pagedById,
    page.targetUserId,
    nextUserId,
  ]);
  const target = people.get(subject.targetUserId);
  if (!target) return false;
  // The same link as the page itself; a new one only if the key it was made with is gone.
  let token = storedAckToken(deps.cipher, subject, page.ackTokenHash);
  if (!token) {
    token = ackToken(deps.cipher, subject);
    await updatePageRow(tx, page.id, { ackTokenHash: hashAckToken(token) });
  }
  const baseUrl = publicBaseUrl(deps.config);
  const pageFacts = facts(page);
  const escalation = nextUserId === null ? null : escalatesAt(pageFacts);
  const pager = page.pagedById === null ? undefined : people.get(page.pagedById);
  const eventKey = `page:${page.id}:reminder:${subject.stepStart.getTime()}`;
  const options = { emailOnly: emailOnly(page.urgency), pageId: page.id };
  const inputs: NotificationInput[] = [
    toInput(
      eventKey,
      'page.reminder',
      target,
      pageReminderMessage({
        baseUrl,
        rotation,
        pagerName: pager?.name ?? null,
        message: pageMessageOf(page, deps.cipher),
        urgency: pageFacts.urgency,
        ackUrl: ackUrl(baseUrl, token),
        createdAt: subject.stepStart,
        timeZone: target.timezone,
        escalatesAt: escalation,
        replyCode: await replyCodeFor(tx, deps, {
          pageId: page.id,
          recipient: target,
          emailOnly: options.emailOnly,
          now,
        }),
      }),
      options,
    ),
  ];
  if (pager && pager.id !== target.id) {
    const nextName = nextUserId === null ? null : (people.get(nextUserId)?.name ?? null);
    inputs.push(
      toInput(
        eventKey,
        'page.warning',
        pager,
        pageWarningMessage({
          baseUrl,
          rotation,
          targetName: target.name,
          message: pageMessageOf(page, deps.cipher),
          sentAt: subject.stepStart,
          escalation: escalation && nextName ? { at: escalation, toName: nextName } : null,
          timeZone: pager.timezone,
        }),
        options,
      ),
    );
  }
  return (await enqueueNotifications(tx, deps.cipher, now, inputs)) > 0;
}
