import type { HandoffTimings } from '@shared/contracts/help';
import { URGENCIES } from '@shared/contracts/rotations';
import { PAGE_TIMINGS, URGENCY_POLICY } from '@shared/domain/paging';
import { minutesText, msText, urgenciesWhere } from '../lib/durations';

/*
 * The documented flows with the numbers Baton really uses (decision 134): the handoff timings as
 * this server is configured (GET /api/help/timings), the paging timings and urgency rules from
 * the shared constants the server runs on. Nothing here is typed in.
 */

/** HandoffStandardSteps is the standard handoff flow, step by step, at the server's timings. */
export function HandoffStandardSteps({ timings: t }: { timings: HandoffTimings }) {
  return (
    <ol>
      <li>
        <strong>{minutesText(t.noticeBeforeMinutes)} before the shift ends</strong> — the holder and
        the next person get a handoff notice (or at their own handoff reminder, if they chose
        another one).
      </li>
      <li>
        <strong>At the end of the shift</strong> — the holder passes the baton with{' '}
        <em>Pass Baton</em>, leaving handoff notes: open incidents, recent changes, anything
        unusual.
      </li>
      <li>
        <strong>
          The next person acknowledges within {minutesText(t.acknowledgeWithinMinutes)}
        </strong>{' '}
        — with <em>Acknowledge</em> on the dashboard card or the rotation page; the audit log then
        reads “B acknowledged new on-call duty”. Without an acknowledgement within{' '}
        {minutesText(t.acknowledgeWithinMinutes)} the handoff is marked <em>missed</em> (“B missed
        handoff acknowledgment”) and the previous holder is told.
      </li>
      <li>
        <strong>{minutesText(t.escalateAfterMinutes)} late</strong> — with no handoff{' '}
        {minutesText(t.escalateAfterMinutes)} after the shift ended, an escalation notice goes to
        both people.
      </li>
      <li>
        <strong>{minutesText(t.autoTransferAfterMinutes)} late</strong> — responsibility transfers
        automatically to the next member, and the audit log flags it: “Handoff to B was escalated”.
      </li>
      <li>
        <strong>Backup</strong> — after any handoff the previous holder stays backup for{' '}
        {minutesText(t.backupMinutes)}, in case the new holder needs context. A page sent meanwhile
        reaches them too{URGENCY_POLICY.low.notifyBackup ? '' : ' (except low-urgency pages)'}.
      </li>
    </ol>
  );
}

/** HandoffEmergencySteps is the emergency handoff, at the server's timings. */
export function HandoffEmergencySteps({ timings: t }: { timings: HandoffTimings }) {
  return (
    <ol>
      <li>Pass the baton and mark it as an emergency (urgent) handoff.</li>
      <li>
        The next person must <strong>explicitly acknowledge</strong> it; until they do, you stay
        backup and reachable, however long that takes.
      </li>
      <li>
        If it is not acknowledged within {minutesText(t.acknowledgeWithinMinutes)}, the audit log
        records “B missed handoff acknowledgment” and you are told, so you can reach them another
        way or ask a manager to reassign.
      </li>
    </ol>
  );
}

/** PagingFlowSteps is the paging flow, from the paging constants and the urgency rules. */
export function PagingFlowSteps() {
  const reminded = urgenciesWhere((p) => p.remind);
  const remindsAll = URGENCIES.every((u) => URGENCY_POLICY[u].remind);
  const escalated = urgenciesWhere((p) => p.autoEscalate);
  const emailOnly = urgenciesWhere((p) => p.emailOnly);
  const backedUp = urgenciesWhere((p) => p.notifyBackup);
  return (
    <>
      <ol>
        <li>
          <strong>0 minutes</strong> — the page goes to the person on call
          {backedUp
            ? `; while the previous holder is still backup after a handoff, they get a copy (${backedUp.toLowerCase()} urgency)`
            : ''}
          .
        </li>
        <li>
          <strong>{msText(PAGE_TIMINGS.reminderAfterMs)}</strong> without acknowledgement — a
          reminder to the person paged and a warning to you
          {reminded && !remindsAll ? ` (${reminded.toLowerCase()} urgency)` : ''}.
        </li>
        <li>
          <strong>{msText(PAGE_TIMINGS.escalateAfterMs)}</strong> without acknowledgement —
          automatic escalation to the next person in the rotation
          {escalated
            ? ` (${escalated.toLowerCase()} urgency only; the others are escalated by hand)`
            : ' (by hand only)'}
          .
        </li>
        <li>At any time, the page can be escalated by hand, with a reason.</li>
      </ol>
      <p>
        The person paged acknowledges in Baton, or from the link in the email or text message, which
        needs no sign-in, works once and expires after {msText(PAGE_TIMINGS.ackLinkValidMs)}.
        Nothing more is sent once a page is acknowledged.
        {emailOnly ? ` ${emailOnly}-urgency pages go by email only.` : ''}
      </p>
    </>
  );
}
