import { formatWhen } from '../modules/notifications/messages';

/**
 * The words of the engine's notifications: the handoff flow's notices, automatic transfers,
 * schedule and coverage changes, missed acknowledgements. Pure: names, times and zones come in.
 */

export interface EngineMessage {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

interface Parts {
  subject: string;
  lines: string[];
  action: { label: string; url: string };
  sms: string;
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function compose(parts: Parts, baseUrl: string): EngineMessage {
  const text = [
    ...parts.lines,
    `${parts.action.label}: ${parts.action.url}`,
    `-- \nBaton · ${baseUrl}`,
  ].join('\n\n');
  const p = (inner: string) => `<p style="margin:0 0 16px">${inner}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#0f172a;line-height:1.5;max-width:560px;margin:0 auto;padding:24px">',
    ...parts.lines.map((line) => p(escapeHtml(line))),
    p(
      `<a href="${escapeHtml(parts.action.url)}" style="display:inline-block;padding:10px 16px;border-radius:6px;background:#0f172a;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(parts.action.label)}</a>`,
    ),
    `<p style="margin:24px 0 0;color:#64748b;font-size:12px">Sent by <a href="${escapeHtml(baseUrl)}" style="color:#64748b">Baton</a>, your team's on-call rotations.</p>`,
    '</body></html>',
  ].join('');
  return { subject: parts.subject, text, html, sms: parts.sms };
}

export interface MessageContext {
  baseUrl: string;
  rotation: { id: number; name: string };
  /** the reader's time zone, for times in the text */
  timeZone: string;
}

const rotationLink = (c: MessageContext) => ({
  label: 'Open the rotation in Baton',
  url: `${c.baseUrl}/rotations/${c.rotation.id}`,
});

/** handoffNoticeMessage: the shift changes hands soon (to the holder, or to the next person). */
export function handoffNoticeMessage(
  c: MessageContext,
  input: { boundary: Date; role: 'holder' | 'next'; otherName: string | null },
): EngineMessage {
  const when = formatWhen(input.boundary, c.timeZone);
  const name = c.rotation.name;
  const holder = input.role === 'holder';
  return compose(
    {
      subject: holder
        ? `Handoff soon: your on-call shift for ${name} ends ${when}`
        : `Handoff soon: your on-call shift for ${name} starts ${when}`,
      lines: holder
        ? [
            `Your on-call shift for ${name} ends at ${when}.`,
            `At the end of your shift, pass the baton${input.otherName ? ` to ${input.otherName}` : ''} with handoff notes: open incidents, recent changes, anything unusual.`,
          ]
        : [
            `Your on-call shift for ${name} starts at ${when}.`,
            input.otherName
              ? `${input.otherName} will pass you the baton; acknowledge it when it arrives.`
              : 'Nobody holds the baton now; take on-call when your shift starts.',
          ],
      action: rotationLink(c),
      sms: holder
        ? `Baton: your ${name} shift ends ${when}. Pass the baton with notes.`
        : `Baton: your ${name} shift starts ${when}.`,
    },
    c.baseUrl,
  );
}

/**
 * scheduleNoticeMessage: a scheduled rotation's baton moves soon, when an entry ends or starts
 * (to the outgoing holder, or the incoming one). The schedule moves it; notes go with a pass.
 */
export function scheduleNoticeMessage(
  c: MessageContext,
  input: { at: Date; role: 'holder' | 'next'; otherName: string | null },
): EngineMessage {
  const when = formatWhen(input.at, c.timeZone);
  const name = c.rotation.name;
  if (input.role === 'holder') {
    return compose(
      {
        subject: `Handoff soon: your on-call shift for ${name} ends ${when}`,
        lines: [
          `Your scheduled on-call shift for ${name} ends at ${when}.`,
          input.otherName
            ? `The schedule hands the baton to ${input.otherName} then. To leave handoff notes (open incidents, recent changes, anything unusual), pass the baton to ${input.otherName} with them before then.`
            : 'Nobody is scheduled after you: from then nobody is on call for this rotation until the next schedule entry starts.',
        ],
        action: rotationLink(c),
        sms: input.otherName
          ? `Baton: your ${name} shift ends ${when}; ${input.otherName} takes over.`
          : `Baton: your ${name} shift ends ${when}; nobody is scheduled after you.`,
      },
      c.baseUrl,
    );
  }
  return compose(
    {
      subject: `Handoff soon: your on-call shift for ${name} starts ${when}`,
      lines: [
        `Your scheduled on-call shift for ${name} starts at ${when}.`,
        input.otherName
          ? `The schedule hands you the baton from ${input.otherName} then; acknowledge it when it arrives.`
          : 'The schedule hands you the baton then; acknowledge it when it arrives.',
      ],
      action: rotationLink(c),
      sms: `Baton: your ${name} shift starts ${when}.`,
    },
    c.baseUrl,
  );
}

/** handoffDueMessage: the shift has ended; the holder is asked to pass (or, with no holder, the next person to take it). */
export function handoffDueMessage(
  c: MessageContext,
  input: { boundary: Date; role: 'holder' | 'next'; otherName: string | null; autoAt: Date },
): EngineMessage {
  const name = c.rotation.name;
  const auto = formatWhen(input.autoAt, c.timeZone);
  if (input.role === 'next') {
    return compose(
      {
        subject: `Take on-call for ${name}: your shift has started`,
        lines: [
          `Your on-call shift for ${name} has started and nobody holds the baton.`,
          `Take on-call in Baton; otherwise Baton gives it to you automatically at ${auto}.`,
        ],
        action: rotationLink(c),
        sms: `Baton: your ${name} shift has started; take on-call now.`,
      },
      c.baseUrl,
    );
  }
  return compose(
    {
      subject: `Pass the baton for ${name}: your shift has ended`,
      lines: [
        `Your on-call shift for ${name} ended at ${formatWhen(input.boundary, c.timeZone)}.`,
        `Pass the baton${input.otherName ? ` to ${input.otherName}` : ''} now, with handoff notes. If it is not passed, Baton moves it automatically at ${auto} and flags the handoff as escalated.`,
      ],
      action: { label: 'Pass the baton in Baton', url: `${c.baseUrl}/rotations/${c.rotation.id}` },
      sms: `Baton: your ${name} shift has ended. Pass the baton${input.otherName ? ` to ${input.otherName}` : ''} with notes.`,
    },
    c.baseUrl,
  );
}

/** handoffEscalationMessage: the handoff is late (to both people). */
export function handoffEscalationMessage(
  c: MessageContext,
  input: {
    boundary: Date;
    autoAt: Date;
    holderName: string | null;
    nextName: string | null;
  },
): EngineMessage {
  const name = c.rotation.name;
  const ended = formatWhen(input.boundary, c.timeZone);
  const auto = formatWhen(input.autoAt, c.timeZone);
  return compose(
    {
      subject: `Handoff overdue for ${name}`,
      lines: [
        `The on-call shift for ${name} ended at ${ended} and the baton has not been passed${
          input.holderName ? ` by ${input.holderName}` : ''
        }.`,
        `If it is still not passed at ${auto}, Baton hands it to ${input.nextName ?? 'the next member'} automatically and flags the handoff as escalated.`,
      ],
      action: rotationLink(c),
      sms: `Baton: handoff for ${name} is overdue; automatic transfer at ${auto}.`,
    },
    c.baseUrl,
  );
}

/** autoTransferToYouMessage: the baton came to you automatically. */
export function autoTransferToYouMessage(
  c: MessageContext,
  input: { fromName: string | null },
): EngineMessage {
  const name = c.rotation.name;
  return compose(
    {
      subject: `You are now on call for ${name} (automatic handoff)`,
      lines: [
        `The baton for ${name} was not passed in time${input.fromName ? ` by ${input.fromName}` : ''}, so Baton gave it to you automatically: you are now on call.`,
        'Acknowledge your new on-call duty in Baton.',
      ],
      action: { label: 'Acknowledge in Baton', url: `${c.baseUrl}/rotations/${c.rotation.id}` },
      sms: `Baton: you are now on call for ${name} (automatic handoff). Acknowledge in Baton.`,
    },
    c.baseUrl,
  );
}

/** autoTransferAwayMessage: the baton moved on from you automatically. */
export function autoTransferAwayMessage(
  c: MessageContext,
  input: { toName: string | null },
): EngineMessage {
  const name = c.rotation.name;
  return compose(
    {
      subject: `The baton for ${name} moved on automatically`,
      lines: [
        `The baton for ${name} was not passed within the hour after your shift ended, so Baton moved it to ${input.toName ?? 'the next member'}. The audit log flags the handoff as escalated.`,
      ],
      action: rotationLink(c),
      sms: `Baton: the ${name} baton moved to ${input.toName ?? 'the next member'} automatically.`,
    },
    c.baseUrl,
  );
}

/** scheduleShiftStartedMessage: a schedule entry (or the end of a coverage window) gave you the baton. */
export function batonArrivedMessage(
  c: MessageContext,
  input: { reason: 'schedule' | 'coverage' | 'coverage_end'; until: Date | null },
): EngineMessage {
  const name = c.rotation.name;
  const until = input.until ? ` until ${formatWhen(input.until, c.timeZone)}` : '';
  const lead =
    input.reason === 'schedule'
      ? `Your scheduled on-call shift for ${name} has started: you hold the baton${until}.`
      : input.reason === 'coverage'
        ? `Your coverage window for ${name} has started: you hold the baton${until}.`
        : `The coverage window for ${name} has ended and the baton is back with you.`;
  return compose(
    {
      subject: `You are now on call for ${name}`,
      lines: [lead, 'Acknowledge your new on-call duty in Baton.'],
      action: { label: 'Acknowledge in Baton', url: `${c.baseUrl}/rotations/${c.rotation.id}` },
      sms: `Baton: you are now on call for ${name}${until}.`,
    },
    c.baseUrl,
  );
}

/** batonLeftMessage: a schedule entry or coverage window ended, and the baton left you. */
export function batonLeftMessage(
  c: MessageContext,
  input: { reason: 'schedule' | 'coverage' | 'coverage_end'; toName: string | null },
): EngineMessage {
  const name = c.rotation.name;
  const to = input.toName ? `${input.toName} now holds it` : 'nobody holds it until the next entry';
  const lead =
    input.reason === 'coverage'
      ? `Your coverage window for ${name} has started: ${to}.`
      : input.reason === 'coverage_end'
        ? `Your coverage window for ${name} has ended: ${to}.`
        : `Your scheduled on-call shift for ${name} has ended: ${to}.`;
  return compose(
    {
      subject: `You are no longer on call for ${name}`,
      lines: [lead],
      action: rotationLink(c),
      sms: `Baton: you are off duty for ${name}; ${to}.`,
    },
    c.baseUrl,
  );
}

/** coverageNotStartedMessage: an accepted window could not start (the requester no longer holds the baton). */
export function coverageNotStartedMessage(
  c: MessageContext,
  input: { requesterName: string | null; start: Date },
): EngineMessage {
  const name = c.rotation.name;
  return compose(
    {
      subject: `Coverage for ${name} did not start`,
      lines: [
        `The coverage window for ${name} from ${formatWhen(input.start, c.timeZone)} did not start: ${
          input.requesterName ?? 'the person who asked'
        } no longer holds the baton, so there is nothing to cover. The request is cancelled.`,
      ],
      action: rotationLink(c),
      sms: `Baton: coverage for ${name} did not start and is cancelled.`,
    },
    c.baseUrl,
  );
}

/** acknowledgementMissedMessage: to the previous holder, when the receiver has not acknowledged. */
export function acknowledgementMissedMessage(
  c: MessageContext,
  input: { toName: string; urgent: boolean },
): EngineMessage {
  const name = c.rotation.name;
  return compose(
    {
      subject: `${input.toName} missed handoff acknowledgment for ${name}`,
      lines: [
        `${input.toName} has not acknowledged the on-call duty for ${name} you handed over.`,
        input.urgent
          ? 'This was an emergency handoff: you stay responsible as backup until they acknowledge it. Reach them another way, or ask a manager to reassign.'
          : 'Reach them another way, or ask a manager to reassign the baton.',
      ],
      action: rotationLink(c),
      sms: `Baton: ${input.toName} has not acknowledged ${name}. Reach them or ask a manager to reassign.`,
    },
    c.baseUrl,
  );
}

/** emergencyAcknowledgedMessage: to the previous holder, when an emergency handoff is acknowledged. */
export function emergencyAcknowledgedMessage(
  c: MessageContext,
  input: { toName: string },
): EngineMessage {
  const name = c.rotation.name;
  return compose(
    {
      subject: `${input.toName} acknowledged your emergency handoff for ${name}`,
      lines: [
        `${input.toName} acknowledged new on-call duty for ${name}. You are no longer backup once the usual backup time is over.`,
      ],
      action: rotationLink(c),
      sms: `Baton: ${input.toName} acknowledged your emergency handoff for ${name}.`,
    },
    c.baseUrl,
  );
}
