import type { User } from '../../../shared/contracts/users';
import type { HandoffFlowTimings } from '../../../shared/domain/handoff-flow';
import { pageBackupOf, type Urgency } from '../../../shared/domain/paging';
import type { Tx } from '../../db/client';
import { findPolicyRow } from '../escalation-policies/escalation-policy-repository';
import { pageBackupMessage, pageMessage, publicBaseUrl } from '../notifications/messages';
import { loadRecipients, type NotifyDeps, toInput } from '../notifications/notify';
import { enqueueNotifications } from '../notifications/outbox';
import { replyCodeFor } from '../sms-replies/reply-codes';
import { toUser, type UserRow } from '../users/user-repository';
import { ackToken, ackUrl, hashAckToken } from './ack-token';
import { emailOnly } from './page-facts';
import {
  findLatestHandoff,
  insertPageEvent,
  insertPageRow,
  type PageRow,
  updatePageRow,
} from './paging-repository';

/** Raising a page: the page row, its acknowledgement link and its notifications. */

/** policyCopyOf reads the policy an incident keeps a copy of (decision 204). */
async function policyCopyOf(tx: Tx, policyId: number) {
  const row = await findPolicyRow(tx, policyId);
  if (!row) throw new Error(`escalation policy ${policyId} is missing`);
  return { name: row.name, repeat: row.repeat, steps: row.steps };
}

/**
 * triggerPage records a page to the holder and puts the page in the outbox for them, with an
 * acknowledgement link, in the caller's transaction; while the previous holder is backup after a
 * handoff, they get a copy (decision 130). Who may page, and whether anyone holds the baton, the
 * caller has already decided.
 */
export async function triggerPage(
  tx: Tx,
  deps: NotifyDeps,
  input: {
    rotation: { id: number; name: string; escalationPolicyId: number };
    pager: User;
    target: UserRow;
    /** the user rows of the rotation's members, read by the caller under the rotation's lock */
    members: readonly UserRow[];
    message: string;
    urgency: Urgency;
    now: Date;
    /** the deployment's handoff timings: how long the previous holder stays backup */
    handoffTimings: HandoffFlowTimings;
  },
): Promise<PageRow> {
  const inserted = await insertPageRow(tx, deps.cipher, {
    rotationId: input.rotation.id,
    pagedById: input.pager.id,
    targetUserId: input.target.id,
    message: input.message,
    urgency: input.urgency,
    createdAt: input.now,
    escalationPolicyId: input.rotation.escalationPolicyId,
    policy: await policyCopyOf(tx, input.rotation.escalationPolicyId),
  });
  const token = ackToken(deps.cipher, {
    pageId: inserted.id,
    targetUserId: input.target.id,
    stepStart: input.now,
  });
  const page = await updatePageRow(tx, inserted.id, { ackTokenHash: hashAckToken(token) });
  const target = toUser(input.target, deps.cipher);
  const baseUrl = publicBaseUrl(deps.config);
  const content = pageMessage({
    baseUrl,
    rotation: input.rotation,
    pagerName: input.pager.name,
    message: input.message,
    urgency: input.urgency,
    ackUrl: ackUrl(baseUrl, token),
    createdAt: input.now,
    timeZone: target.timezone,
    replyCode: await replyCodeFor(tx, deps, {
      pageId: page.id,
      recipient: target,
      emailOnly: emailOnly(page.urgency),
      now: input.now,
    }),
  });
  const inputs = [
    toInput(`page:${page.id}:sent`, 'page', target, content, {
      emailOnly: emailOnly(page.urgency),
      pageId: page.id,
    }),
  ];
  const backup = pageBackupOf(
    {
      urgency: input.urgency,
      pagerId: input.pager.id,
      holderId: input.target.id,
      latest: await findLatestHandoff(tx, input.rotation.id),
      memberIds: input.members.map((m) => m.id),
    },
    input.now,
    input.handoffTimings,
  );
  const backupUser = backup
    ? (await loadRecipients(tx, deps.cipher, [backup.userId], input.members)).get(backup.userId)
    : undefined;
  if (backup && backupUser) {
    const copy = pageBackupMessage({
      baseUrl,
      rotation: input.rotation,
      pagerName: input.pager.name,
      holderName: target.name,
      message: input.message,
      urgency: input.urgency,
      createdAt: input.now,
      timeZone: backupUser.timezone,
      backupUntil: backup.until,
    });
    inputs.push(
      toInput(`page:${page.id}:backup`, 'page.backup', backupUser, copy, {
        emailOnly: emailOnly(page.urgency),
        pageId: page.id,
      }),
    );
    await insertPageEvent(tx, {
      actorUserId: null,
      action: 'page.backup_notified',
      pageId: page.id,
      details: {
        rotationName: input.rotation.name,
        toUserId: backup.userId,
        until: backup.until?.toISOString() ?? null,
      },
      at: input.now,
    });
  }
  await enqueueNotifications(tx, deps.cipher, input.now, inputs);
  return page;
}
