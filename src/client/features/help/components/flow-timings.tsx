import type { HandoffTimings } from '@shared/contracts/help';
import { defaultEscalationPolicy } from '@shared/domain/escalation';
import { PAGE_TIMINGS } from '@shared/domain/paging';
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
        — with <em>Accept handoff</em> on the dashboard card or the rotation page; the audit log
        then reads “B acknowledged new on-call duty”. Without an acknowledgement within{' '}
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
        reaches them too.
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

/**
 * PagingFlowSteps is the paging flow: every rotation's default escalation policy, read from the
 * shared defaultEscalationPolicy the server creates rotations with, and the urgency rule.
 */
export function PagingFlowSteps() {
  const steps = defaultEscalationPolicy({ id: 0, name: '' }).steps;
  const emailOnly = urgenciesWhere((p) => p.emailOnly);
  let at = 0;
  const starts = steps.map((step) => {
    const start = at;
    at += step.delayMinutes;
    return start;
  });
  return (
    <>
      <ol>
        <li>
          <strong>0 minutes</strong> — the page goes to the person on call; while the previous
          holder is still backup after a handoff, they get a copy.
        </li>
        <li>
          <strong>{minutesText(starts[1])}</strong> without acknowledgement — a reminder to the
          person paged and a warning to you.
        </li>
        <li>
          <strong>{minutesText(starts[2])}</strong> without acknowledgement — the next person in the
          rotation is paged.
        </li>
        <li>
          <strong>{minutesText(at)}</strong> without acknowledgement — the policy has run out: the
          incident stays open and the rotation's managers and you are told.
        </li>
        <li>At any time, the page can be escalated by hand, with a reason.</li>
      </ol>
      <p>
        Every urgency follows these steps.
        {emailOnly ? ` ${emailOnly}-urgency pages go by email only.` : ''} The person paged
        acknowledges in Baton, by replying to the text message, or from the link in the email or
        text message, which needs no sign-in, works once and expires after{' '}
        {msText(PAGE_TIMINGS.ackLinkValidMs)}. Nothing more is sent once a page is acknowledged.
      </p>
    </>
  );
}
