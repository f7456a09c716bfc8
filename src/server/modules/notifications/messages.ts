import { URGENCY_LABELS, type Urgency } from '../../../shared/domain/paging';
import { normalizeRole, ROLE_LABELS } from '../../../shared/domain/roles';

/**
 * The words of every notification: a subject, a plain-text body, an HTML body (both with a link
 * back to Baton) and a short SMS. Pure: times and addresses come in. Personal data in them is
 * encrypted at rest with the rest of the notification (outbox.ts).
 */

export interface MessageContent {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

interface Link {
  label: string;
  url: string;
}

interface Parts {
  subject: string;
  /** the opening sentence */
  lead: string;
  /** quoted free text: handoff notes, the page's message */
  quote?: { label: string; text: string } | null;
  details?: [string, string][];
  /** further sentences after the details */
  after?: string[];
  action: Link;
  secondary?: Link;
  sms: string;
}

/** publicBaseUrl returns Baton's address for links: PUBLIC_URL, else http://localhost:PORT. */
export function publicBaseUrl(config?: { publicUrl?: string; port?: number }): string {
  if (config?.publicUrl) return config.publicUrl.replace(/\/$/, '');
  return `http://localhost:${config?.port || 3000}`;
}

/** formatWhen writes an instant for a reader in their time zone, naming the zone. */
export function formatWhen(at: Date, timeZone = 'UTC'): string {
  return whenFormatter(timeZone).format(at);
}

const WHEN_OPTIONS: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};
/** One formatter per zone (making one costs far more than using it); an unknown zone reads UTC. */
const whenFormatters = new Map<string, Intl.DateTimeFormat>();

function whenFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = whenFormatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', { ...WHEN_OPTIONS, timeZone });
    } catch {
      formatter = whenFormatter('UTC');
    }
    // Zones are a short list (IANA names); the bound only guards against odd stored values.
    if (whenFormatters.size < 1000) whenFormatters.set(timeZone, formatter);
  }
  return formatter;
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const multiline = (value: string) => escapeHtml(value).replace(/\r?\n/g, '<br>');

function compose(parts: Parts, baseUrl: string): MessageContent {
  const text = [
    parts.lead,
    ...(parts.quote ? [`${parts.quote.label}:\n${indent(parts.quote.text)}`] : []),
    ...(parts.details?.length ? [parts.details.map(([k, v]) => `${k}: ${v}`).join('\n')] : []),
    ...(parts.after ?? []),
    `${parts.action.label}: ${parts.action.url}`,
    ...(parts.secondary ? [`${parts.secondary.label}: ${parts.secondary.url}`] : []),
    `-- \nBaton, ${baseUrl}`,
  ].join('\n\n');

  const p = (inner: string) => `<p style="margin:0 0 16px">${inner}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#0f172a;line-height:1.5;max-width:560px;margin:0 auto;padding:24px">',
    p(escapeHtml(parts.lead)),
    parts.quote
      ? `<p style="margin:0 0 4px;font-weight:600">${escapeHtml(parts.quote.label)}</p><blockquote style="margin:0 0 16px;padding:8px 12px;border-left:3px solid #cbd5e1;background:#f8fafc">${multiline(parts.quote.text)}</blockquote>`
      : '',
    parts.details?.length
      ? `<table style="margin:0 0 16px;border-collapse:collapse">${parts.details
          .map(
            ([k, v]) =>
              `<tr><td style="padding:2px 12px 2px 0;color:#64748b">${escapeHtml(k)}</td><td style="padding:2px 0">${escapeHtml(v)}</td></tr>`,
          )
          .join('')}</table>`
      : '',
    ...(parts.after ?? []).map((line) => p(escapeHtml(line))),
    p(
      `<a href="${escapeHtml(parts.action.url)}" style="display:inline-block;padding:10px 16px;border-radius:6px;background:#0f172a;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(parts.action.label)}</a>`,
    ),
    parts.secondary
      ? p(`<a href="${escapeHtml(parts.secondary.url)}">${escapeHtml(parts.secondary.label)}</a>`)
      : '',
    `<p style="margin:24px 0 0;color:#64748b;font-size:12px">Sent by <a href="${escapeHtml(baseUrl)}" style="color:#64748b">Baton</a>, your team's on-call rotations.</p>`,
    '</body></html>',
  ].join('');

  return { subject: parts.subject, text, html, sms: parts.sms };
}

const indent = (value: string) =>
  value
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n');

/** shorten cuts free text for an SMS. */
function shorten(value: string, max: number): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

const rotationUrl = (baseUrl: string, rotationId: number) => `${baseUrl}/rotations/${rotationId}`;
const pagesUrl = (baseUrl: string, rotationId?: number) =>
  rotationId ? `${baseUrl}/pages?rotation=${rotationId}` : `${baseUrl}/pages`;

export interface RotationRef {
  id: number;
  name: string;
}

// ---------------------------------------------------------------------------------------------
// The baton

/** batonPassedMessage tells the receiver they hold the baton now, with the handoff notes. */
export function batonPassedMessage(input: {
  baseUrl: string;
  rotation: RotationRef;
  fromName: string;
  notes: string | null;
  urgent?: boolean;
}): MessageContent {
  const { rotation } = input;
  return compose(
    {
      subject: `${input.urgent ? 'Urgent: ' : ''}You are now on call for ${rotation.name}`,
      lead: `${input.fromName} passed you the baton: you are now on call for ${rotation.name}.`,
      quote: input.notes ? { label: 'Handoff notes', text: input.notes } : null,
      action: { label: 'Open the rotation in Baton', url: rotationUrl(input.baseUrl, rotation.id) },
      sms: `Baton: ${input.fromName} passed you the baton for ${rotation.name}.${
        input.notes ? ` Notes: ${shorten(input.notes, 300)}` : ''
      }`,
    },
    input.baseUrl,
  );
}

/** onCallTakenMessage tells a rotation's manager that someone took the free baton. */
export function onCallTakenMessage(input: {
  baseUrl: string;
  rotation: RotationRef;
  takerName: string;
}): MessageContent {
  const { rotation } = input;
  return compose(
    {
      subject: `${input.takerName} is now on call for ${rotation.name}`,
      lead: `Nobody held the baton for ${rotation.name}; ${input.takerName} took on-call duty.`,
      action: { label: 'Open the rotation in Baton', url: rotationUrl(input.baseUrl, rotation.id) },
      sms: `Baton: ${input.takerName} took on-call for ${rotation.name}.`,
    },
    input.baseUrl,
  );
}

/** reassignedToYouMessage tells the new holder a manager gave them the baton. */
export function reassignedToYouMessage(input: {
  baseUrl: string;
  rotation: RotationRef;
  actorName: string;
  previousName: string | null;
  notes: string | null;
}): MessageContent {
  const { rotation } = input;
  return compose(
    {
      subject: `You are now on call for ${rotation.name}`,
      lead: `${input.actorName} assigned on-call duty for ${rotation.name} to you${
        input.previousName ? ` (it was with ${input.previousName})` : ''
      }.`,
      quote: input.notes ? { label: 'Notes', text: input.notes } : null,
      action: { label: 'Open the rotation in Baton', url: rotationUrl(input.baseUrl, rotation.id) },
      sms: `Baton: ${input.actorName} assigned you on-call for ${rotation.name}.${
        input.notes ? ` Notes: ${shorten(input.notes, 300)}` : ''
      }`,
    },
    input.baseUrl,
  );
}

/** reassignedAwayMessage tells the previous holder the baton was moved from them. */
export function reassignedAwayMessage(input: {
  baseUrl: string;
  rotation: RotationRef;
  actorName: string;
  nextName: string;
  notes: string | null;
}): MessageContent {
  const { rotation } = input;
  return compose(
    {
      subject: `You are no longer on call for ${rotation.name}`,
      lead: `${input.actorName} reassigned on-call duty for ${rotation.name} to ${input.nextName}.`,
      quote: input.notes ? { label: 'Notes', text: input.notes } : null,
      action: { label: 'Open the rotation in Baton', url: rotationUrl(input.baseUrl, rotation.id) },
      sms: `Baton: ${input.actorName} reassigned on-call for ${rotation.name} to ${input.nextName}; you are off duty.`,
    },
    input.baseUrl,
  );
}

// ---------------------------------------------------------------------------------------------
// Coverage

/** coverageRequestedMessage asks a member to cover the holder for a window. */
export function coverageRequestedMessage(input: {
  baseUrl: string;
  rotation: RotationRef;
  requesterName: string;
  startAt: Date;
  endAt: Date;
  notes: string | null;
  timeZone: string;
}): MessageContent {
  const { rotation } = input;
  const from = formatWhen(input.startAt, input.timeZone);
  const to = formatWhen(input.endAt, input.timeZone);
  return compose(
    {
      subject: `${input.requesterName} asks you to cover ${rotation.name}`,
      lead: `${input.requesterName} asks you to hold the baton for ${rotation.name} for a while.`,
      details: [
        ['From', from],
        ['Until', to],
      ],
      quote: input.notes ? { label: 'Notes', text: input.notes } : null,
      action: {
        label: 'Answer the request in Baton',
        url: rotationUrl(input.baseUrl, rotation.id),
      },
      sms: `Baton: ${input.requesterName} asks you to cover ${rotation.name} from ${from} until ${to}.`,
    },
    input.baseUrl,
  );
}

/** coverageOutcomeMessage tells the requester whether their coverage request was accepted. */
export function coverageOutcomeMessage(input: {
  baseUrl: string;
  rotation: RotationRef;
  coveringName: string;
  outcome: 'accepted' | 'declined';
  startAt: Date;
  endAt: Date;
  timeZone: string;
}): MessageContent {
  const { rotation } = input;
  const from = formatWhen(input.startAt, input.timeZone);
  const to = formatWhen(input.endAt, input.timeZone);
  const accepted = input.outcome === 'accepted';
  return compose(
    {
      subject: `${input.coveringName} ${input.outcome} your coverage request for ${rotation.name}`,
      lead: accepted
        ? `${input.coveringName} will cover ${rotation.name} for you.`
        : `${input.coveringName} cannot cover ${rotation.name} for you; you stay on call unless someone else covers.`,
      details: [
        ['From', from],
        ['Until', to],
      ],
      action: { label: 'Open the rotation in Baton', url: rotationUrl(input.baseUrl, rotation.id) },
      sms: `Baton: ${input.coveringName} ${input.outcome} covering ${rotation.name} (${from} to ${to}).`,
    },
    input.baseUrl,
  );
}

// ---------------------------------------------------------------------------------------------
// Pages

interface PageMessageInput {
  baseUrl: string;
  rotation: RotationRef;
  pagerName: string | null;
  message: string;
  urgency: Urgency;
  ackUrl: string;
  createdAt: Date;
  timeZone: string;
}

const pager = (name: string | null) => name ?? 'Someone';

/** pageMessage is the page itself, to the holder, with the acknowledgement link. */
export function pageMessage(input: PageMessageInput): MessageContent {
  const { rotation } = input;
  const label = URGENCY_LABELS[input.urgency];
  return compose(
    {
      subject: `Page (${label.toLowerCase()} urgency): ${rotation.name}: ${shorten(input.message, 80)}`,
      lead: `${pager(input.pagerName)} paged you as the on-call person for ${rotation.name}.`,
      quote: { label: 'Message', text: input.message },
      details: [
        ['Urgency', label],
        ['Sent', formatWhen(input.createdAt, input.timeZone)],
      ],
      after: [
        'Acknowledge the page to let them know you are on it; the link works once, without signing in.',
      ],
      action: { label: 'Acknowledge page', url: input.ackUrl },
      secondary: { label: 'Open Baton', url: pagesUrl(input.baseUrl, rotation.id) },
      sms: `Baton PAGE (${label}) ${rotation.name} from ${pager(input.pagerName)}: ${shorten(
        input.message,
        240,
      )} Ack: ${input.ackUrl}`,
    },
    input.baseUrl,
  );
}

/**
 * pageBackupMessage is a copy of a new page to the previous holder while they are backup after a
 * handoff (decision 130): the holder was paged; the backup stands by. No acknowledgement link:
 * the page is the holder's to acknowledge.
 */
export function pageBackupMessage(
  input: Omit<PageMessageInput, 'ackUrl'> & { holderName: string; backupUntil: Date | null },
): MessageContent {
  const { rotation } = input;
  const label = URGENCY_LABELS[input.urgency];
  const until = input.backupUntil
    ? `until ${formatWhen(input.backupUntil, input.timeZone)}`
    : `until ${input.holderName} acknowledges the emergency handoff`;
  return compose(
    {
      subject: `Backup: ${input.holderName} was paged (${label.toLowerCase()} urgency): ${rotation.name}: ${shorten(input.message, 60)}`,
      lead: `${pager(input.pagerName)} paged ${input.holderName}, who took over ${rotation.name} from you. You are backup ${until}.`,
      quote: { label: 'Message', text: input.message },
      details: [
        ['Urgency', label],
        ['Sent', formatWhen(input.createdAt, input.timeZone)],
      ],
      after: [
        `${input.holderName} acknowledges the page. Be ready to help if they do not; the page history shows whether they did.`,
      ],
      action: { label: 'Open the page history', url: pagesUrl(input.baseUrl, rotation.id) },
      sms: `Baton BACKUP (${label}) ${rotation.name}: ${input.holderName} was paged: ${shorten(
        input.message,
        180,
      )} ${pagesUrl(input.baseUrl, rotation.id)}`,
    },
    input.baseUrl,
  );
}

/** pageEscalatedToYouMessage is the page, escalated to the next person in the rotation. */
export function pageEscalatedToYouMessage(
  input: PageMessageInput & { fromName: string | null; reason: string; escalatedAt: Date },
): MessageContent {
  const { rotation } = input;
  const label = URGENCY_LABELS[input.urgency];
  return compose(
    {
      subject: `Escalated page (${label.toLowerCase()} urgency): ${rotation.name}: ${shorten(input.message, 80)}`,
      lead: `A page for ${rotation.name} from ${pager(input.pagerName)} was escalated to you${
        input.fromName ? ` because ${input.fromName} did not acknowledge it` : ''
      }.`,
      quote: { label: 'Message', text: input.message },
      details: [
        ['Urgency', label],
        ['Paged', formatWhen(input.createdAt, input.timeZone)],
        ['Escalated', formatWhen(input.escalatedAt, input.timeZone)],
        ['Reason', input.reason],
      ],
      after: ['Acknowledge the page to let them know you are on it.'],
      action: { label: 'Acknowledge page', url: input.ackUrl },
      secondary: { label: 'Open Baton', url: pagesUrl(input.baseUrl, rotation.id) },
      sms: `Baton ESCALATED PAGE (${label}) ${rotation.name}: ${shorten(input.message, 220)} Ack: ${input.ackUrl}`,
    },
    input.baseUrl,
  );
}

/** pageReminderMessage reminds the recipient of a page nobody acknowledged yet. */
export function pageReminderMessage(
  input: PageMessageInput & { escalatesAt: Date | null },
): MessageContent {
  const { rotation } = input;
  const label = URGENCY_LABELS[input.urgency];
  return compose(
    {
      subject: `Reminder: unacknowledged page for ${rotation.name}`,
      lead: `You have not acknowledged the page from ${pager(input.pagerName)} for ${rotation.name}.`,
      quote: { label: 'Message', text: input.message },
      details: [
        ['Urgency', label],
        ['Sent', formatWhen(input.createdAt, input.timeZone)],
      ],
      after: input.escalatesAt
        ? [
            `Unless you acknowledge it, it escalates to the next person in the rotation at ${formatWhen(input.escalatesAt, input.timeZone)}.`,
          ]
        : [],
      action: { label: 'Acknowledge page', url: input.ackUrl },
      secondary: { label: 'Open Baton', url: pagesUrl(input.baseUrl, rotation.id) },
      sms: `Baton REMINDER: page for ${rotation.name} not acknowledged: ${shorten(input.message, 200)} Ack: ${input.ackUrl}`,
    },
    input.baseUrl,
  );
}

/** pageWarningMessage warns the pager that their page is still not acknowledged. */
export function pageWarningMessage(input: {
  baseUrl: string;
  rotation: RotationRef;
  targetName: string | null;
  message: string;
  sentAt: Date;
  /** the automatic escalation to come, null when none comes */
  escalation: { at: Date; toName: string } | null;
  timeZone: string;
}): MessageContent {
  const { rotation } = input;
  const who = input.targetName ?? 'The person you paged';
  const next = input.escalation
    ? `Unless it is acknowledged, it escalates to ${input.escalation.toName} at ${formatWhen(input.escalation.at, input.timeZone)}.`
    : 'It will not escalate on its own: escalate it by hand in Baton if it cannot wait.';
  return compose(
    {
      subject: `Warning: your page for ${rotation.name} is not acknowledged`,
      lead: `${who} has not acknowledged your page for ${rotation.name}, sent ${formatWhen(input.sentAt, input.timeZone)}.`,
      quote: { label: 'Message', text: input.message },
      after: [next],
      action: { label: 'See the page in Baton', url: pagesUrl(input.baseUrl, rotation.id) },
      sms: `Baton WARNING: your page for ${rotation.name} is not acknowledged yet. ${next}`,
    },
    input.baseUrl,
  );
}

/** pageEscalatedNotice tells the pager who their page went on to. */
export function pageEscalatedNotice(input: {
  baseUrl: string;
  rotation: RotationRef;
  fromName: string | null;
  toName: string;
  reason: string;
  automatic: boolean;
}): MessageContent {
  const { rotation } = input;
  return compose(
    {
      subject: `Your page for ${rotation.name} was escalated to ${input.toName}`,
      lead: `${input.automatic ? 'Nobody acknowledged your page in time, so it' : 'Your page'} for ${rotation.name} was escalated${
        input.fromName ? ` from ${input.fromName}` : ''
      } to ${input.toName}.`,
      details: [['Reason', input.reason]],
      action: { label: 'See the page in Baton', url: pagesUrl(input.baseUrl, rotation.id) },
      sms: `Baton: your page for ${rotation.name} was escalated to ${input.toName}.`,
    },
    input.baseUrl,
  );
}

/** pageAcknowledgedNotice tells the pager the page was acknowledged. */
export function pageAcknowledgedNotice(input: {
  baseUrl: string;
  rotation: RotationRef;
  byName: string;
  at: Date;
  timeZone: string;
}): MessageContent {
  const { rotation } = input;
  return compose(
    {
      subject: `${input.byName} acknowledged your page for ${rotation.name}`,
      lead: `${input.byName} acknowledged your page for ${rotation.name} at ${formatWhen(input.at, input.timeZone)}.`,
      action: { label: 'See the page in Baton', url: pagesUrl(input.baseUrl, rotation.id) },
      sms: `Baton: ${input.byName} acknowledged your page for ${rotation.name}.`,
    },
    input.baseUrl,
  );
}

/** pageResolvedNotice tells the recipient of an unacknowledged page that it needs nothing more. */
export function pageResolvedNotice(input: {
  baseUrl: string;
  rotation: RotationRef;
  byName: string;
  message: string;
}): MessageContent {
  const { rotation } = input;
  return compose(
    {
      subject: `Page for ${rotation.name} resolved by ${input.byName}`,
      lead: `${input.byName} resolved the page for ${rotation.name}; it needs nothing more from you.`,
      quote: { label: 'Message', text: input.message },
      action: { label: 'See the page in Baton', url: pagesUrl(input.baseUrl, rotation.id) },
      sms: `Baton: the page for ${rotation.name} was resolved by ${input.byName}; no action needed.`,
    },
    input.baseUrl,
  );
}

// ---------------------------------------------------------------------------------------------
// Invitations

/**
 * invitationEmail is the invitation: who invited whom, as what, the single-use link and when it
 * expires. `link` is the full sign-up address (invitationUrl).
 */
export function invitationEmail(
  invitation: { name: string; email: string; role: string; expiresAt?: Date | null },
  link: string,
  options: { inviterName?: string | null; baseUrl?: string } = {},
): MessageContent {
  const role = normalizeRole(invitation.role);
  const roleLabel = role ? ROLE_LABELS[role] : invitation.role;
  const baseUrl = options.baseUrl ?? new URL(link).origin;
  return compose(
    {
      subject: 'You are invited to Baton',
      lead: `Hello ${invitation.name}, ${options.inviterName ?? 'an administrator'} invited you to join Baton, your team's on-call rotations, as ${roleLabel}.`,
      details: invitation.expiresAt
        ? [['Expires', formatWhen(invitation.expiresAt, 'UTC')]]
        : undefined,
      after: [
        `Sign in with your company Google account (${invitation.email}) to finish registration. The link works once.`,
      ],
      action: { label: 'Accept the invitation', url: link },
      sms: `Baton: you are invited to join as ${roleLabel}: ${link}`,
    },
    baseUrl,
  );
}
