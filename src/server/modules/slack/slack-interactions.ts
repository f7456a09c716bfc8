import {
  SLACK_ACTIONS_BLOCK_ID,
  type SlackActionId,
  type SlackBlock,
  type SlackBlockActions,
  type SlackMessage,
} from '../../../shared/contracts/slack';
import type { User } from '../../../shared/contracts/users';
import { can } from '../../../shared/domain/permissions';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { AppDeps } from '../../core/deps';
import { AppError, forbidden } from '../../http/errors';
import { latestHandoffId } from '../handoffs/handoff-repository';
import { acknowledgeHandoff } from '../handoffs/handoff-service';
import {
  acknowledgeIncidentAs,
  escalateIncidentAs,
  resolveIncidentAs,
} from '../incidents/incident-actions';
import { formatWhen } from '../notifications/message-layout';
import type { SlackPeople } from './slack-people';

/** The reason an escalation from Slack's button records (the timeline shows it). */
export const SLACK_ESCALATION_REASON = 'Escalated from Slack';

export const SLACK_CLICK_MESSAGES = {
  unknownButton: 'Baton does not know this button. Nothing changed.',
  noIncident: 'This button names no incident. Nothing changed.',
  noRotation: 'This button names no rotation. Nothing changed.',
  noHandoff: 'This rotation has no handoff to acknowledge. Nothing changed.',
  handoffNeedsNoAck: 'This handoff needs no acknowledgement. Nothing changed.',
} as const;

/** What a click comes to: the message posted to its response_url. */
export interface SlackClickAnswer {
  /** true: the message itself changes (replace_original); false: only the clicker reads it */
  replaces: boolean;
  message: SlackMessage;
}

const rowId = (value: string | undefined) =>
  value !== undefined && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647
    ? Number(value)
    : null;

/**
 * The Escalate button's value: `42:1`, the incident and the step its message showed (decision
 * 236); a bare `42`, on messages posted before the step was carried, escalates from wherever it is.
 */
function escalateValue(value: string | undefined): { id: number | null; fromStep?: number } {
  const [id, step, ...rest] = (value ?? '').split(':');
  if (step === undefined) return { id: rowId(id) };
  const fromStep = rowId(step);
  if (rest.length > 0 || fromStep === null || fromStep > 1000) return { id: null };
  return { id: rowId(id), fromStep };
}

/**
 * answerSlackClick acts on a click on one of Baton's buttons (decision 222) as the Baton user
 * behind the Slack user, through the services the screens use (so the same rules, the same
 * refusals, the same timeline and audit trail), each change in its own transaction, committed
 * before this returns. It answers what to post to the click's response_url: the message without
 * the buttons that no longer apply and a line saying who did what and when, or, when Baton does
 * not act, an ephemeral message to the clicker alone. Nothing here throws for a refusal.
 */
export async function answerSlackClick(
  deps: AppDeps,
  people: SlackPeople,
  payload: SlackBlockActions,
  warn?: (reason: string) => void,
): Promise<SlackClickAnswer> {
  const action = payload.actions[0];
  const known: readonly string[] = [
    'incident.acknowledge',
    'incident.resolve',
    'incident.escalate',
    'handoff.acknowledge',
  ] satisfies SlackActionId[];
  if (!known.includes(action.action_id)) return ephemeral(SLACK_CLICK_MESSAGES.unknownButton);
  const who = await people.identify(payload.user.id, warn);
  if (who.kind === 'refused') return ephemeral(who.message);
  const actor = who.user;
  const id = rowId(action.value);
  try {
    switch (action.action_id as SlackActionId) {
      case 'incident.acknowledge':
        if (id === null) return ephemeral(SLACK_CLICK_MESSAGES.noIncident);
        await acknowledgeIncidentAs(deps, actor, id, 'slack');
        return updated(payload, actor, 'Acknowledged', deps.clock.now(), ['incident.resolve']);
      case 'incident.resolve':
        if (id === null) return ephemeral(SLACK_CLICK_MESSAGES.noIncident);
        await resolveIncidentAs(deps, actor, id, 'slack');
        return updated(payload, actor, 'Resolved', deps.clock.now(), []);
      case 'incident.escalate': {
        const target = escalateValue(action.value);
        if (target.id === null) return ephemeral(SLACK_CLICK_MESSAGES.noIncident);
        await escalateIncidentAs(deps, actor, target.id, {
          reason: SLACK_ESCALATION_REASON,
          fromStep: target.fromStep,
        });
        // Its buttons stay: a second Escalate from this message answers that it already moved.
        return updated(payload, actor, 'Escalated', deps.clock.now(), null);
      }
      case 'handoff.acknowledge':
        return await acknowledgeRotationHandoff(deps, payload, actor, id);
    }
  } catch (err) {
    // A refusal of the rules: the words the screen shows, to the clicker alone.
    if (err instanceof AppError && err.status < 500) return ephemeral(err.message);
    throw err;
  }
}

/** The handoff button names the rotation: its latest handoff, acknowledged by its receiver. */
async function acknowledgeRotationHandoff(
  deps: AppDeps,
  payload: SlackBlockActions,
  actor: User,
  rotationId: number | null,
): Promise<SlackClickAnswer> {
  if (rotationId === null) return ephemeral(SLACK_CLICK_MESSAGES.noRotation);
  // The screen's route asks for the permission to hold the baton first (permitted('baton.hold')).
  if (!can(actor.roles, 'baton.hold')) throw forbidden();
  const handoffId = await deps.database.db.transaction((tx) => latestHandoffId(tx, rotationId));
  if (handoffId === undefined) return ephemeral(SLACK_CLICK_MESSAGES.noHandoff);
  const handoff = await acknowledgeHandoff(deps, actor, handoffId);
  if (handoff.acknowledgedAt === null) return ephemeral(SLACK_CLICK_MESSAGES.handoffNeedsNoAck);
  return updated(payload, actor, 'Acknowledged', new Date(handoff.acknowledgedAt), []);
}

function ephemeral(text: string): SlackClickAnswer {
  return {
    replaces: false,
    message: { response_type: 'ephemeral', replace_original: false, text },
  };
}

/** mrkdwn: Slack reads &, < and > as markup; a name must not. */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * slackTime is a time every reader sees in their own Slack time zone; the fallback (clients that
 * cannot) is in the Baton user's zone.
 */
export function slackTime(at: Date, fallbackZone: string): string {
  const seconds = Math.floor(at.getTime() / 1000);
  return `<!date^${seconds}^{date_short_pretty} at {time}|${slackEscape(formatWhen(at, fallbackZone))}>`;
}

/**
 * updated is the clicked message after the click: the original blocks, the actions block keeping
 * only the buttons in `keep` (null: all of them; none kept: the block goes), and a context line
 * "Acknowledged by Olivia Ortiz at …".
 */
function updated(
  payload: SlackBlockActions,
  actor: User,
  verb: string,
  at: Date,
  keep: readonly SlackActionId[] | null,
): SlackClickAnswer {
  const line = `${verb} by ${slackEscape(actor.name)} at ${slackTime(at, zoneOrUtc(actor.timezone))}`;
  const blocks: SlackBlock[] = [];
  for (const block of payload.message?.blocks ?? []) {
    if (block.block_id !== SLACK_ACTIONS_BLOCK_ID || keep === null) {
      blocks.push(block);
      continue;
    }
    const elements = Array.isArray(block.elements) ? block.elements : [];
    const kept = elements.filter(
      (e: unknown) =>
        typeof e === 'object' &&
        e !== null &&
        keep.includes((e as { action_id?: string }).action_id as SlackActionId),
    );
    if (kept.length > 0) blocks.push({ ...block, elements: kept });
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: line }] });
  return {
    replaces: true,
    message: {
      replace_original: true,
      text: payload.message?.text ?? `${verb} by ${actor.name}`,
      blocks,
    },
  };
}
