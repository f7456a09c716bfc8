import { ErrorCodes } from '../../../shared/contracts/errors';
import { ONCALLS_LOOKAHEAD_DAYS } from '../../../shared/contracts/oncalls';
import type { SlackCommandForm, SlackMessage } from '../../../shared/contracts/slack';
import type { User } from '../../../shared/contracts/users';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { AppDeps } from '../../core/deps';
import { AppError } from '../../http/errors';
import { listOnCalls } from '../oncalls/oncalls-service';
import { listRotationFactsOf } from '../rotations/rotation-repository';
import { slackEscape, slackTime } from './slack-interactions';
import type { SlackPeople } from './slack-people';

/** At most this many rotation names are listed when a name matches several. */
const MAX_LISTED = 10;

export const SLACK_COMMAND_MESSAGES = {
  usage:
    'Usage: `/baton who <rotation>`: who holds the baton of a rotation now, and who is next. A unique start of the name is enough.',
  noRotation: (query: string) =>
    `No rotation is called “${query}”. \`/baton who\` takes a rotation's name or the start of it.`,
  several: (query: string, names: string[]) =>
    `Several rotations start with “${query}”: ${names.join(', ')}. Which one?`,
} as const;

/**
 * answerSlackCommand answers `/baton …` (decision 222) to the Baton user behind the Slack user,
 * ephemerally (only they see it): `who <rotation>` names who holds the baton now (since when) and
 * who is next (from when), as `GET /api/oncalls` reads them (`listOnCalls`, decision 226: the
 * calendar's layout with schedule entries, cover and time off; a suspended rotation has nobody),
 * and, in a gap, until when everyone is away;
 * `help`, nothing or anything else: the usage.
 */
export async function answerSlackCommand(
  deps: AppDeps,
  people: SlackPeople,
  form: SlackCommandForm,
  warn?: (reason: string) => void,
): Promise<SlackMessage> {
  const who = await people.identify(form.user_id, warn);
  if (who.kind === 'refused') return ephemeral(who.message);
  const match = /^who\s+(.+)$/is.exec(form.text.trim());
  if (!match) return ephemeral(SLACK_COMMAND_MESSAGES.usage);
  return ephemeral(await whoHolds(deps, who.user, match[1].trim().replace(/\s+/g, ' ')));
}

/** findRotation: an exact name (case-insensitive) wins, else the one name starting with `query`. */
function findRotation<R extends { name: string }>(rotations: readonly R[], query: string): R | R[] {
  const q = query.toLocaleLowerCase();
  const exact = rotations.filter((r) => r.name.toLocaleLowerCase() === q);
  if (exact.length === 1) return exact[0];
  if (exact.length > 1) return exact;
  const prefixed = rotations.filter((r) => r.name.toLocaleLowerCase().startsWith(q));
  return prefixed.length === 1 ? prefixed[0] : prefixed;
}

async function whoHolds(deps: AppDeps, viewer: User, query: string): Promise<string> {
  const rotations = await listRotationFactsOf(deps.database.db);
  const found = findRotation(rotations, query);
  if (Array.isArray(found)) {
    if (found.length === 0) return SLACK_COMMAND_MESSAGES.noRotation(slackEscape(query));
    const names = found.slice(0, MAX_LISTED).map((r) => slackEscape(r.name));
    if (found.length > MAX_LISTED) names.push(`and ${found.length - MAX_LISTED} more`);
    return SLACK_COMMAND_MESSAGES.several(slackEscape(query), names);
  }
  // The one reading of who is on call (decision 226); a rotation deleted since it was found is 404.
  const answer = await listOnCalls(deps, viewer, { rotationId: found.id }).catch((error) => {
    if (error instanceof AppError && error.code === ErrorCodes.NOT_FOUND) return null;
    throw error;
  });
  const oncall = answer?.oncalls[0];
  if (!oncall) return SLACK_COMMAND_MESSAGES.noRotation(slackEscape(query));
  const zone = zoneOrUtc(viewer.timezone);
  const title = `*${slackEscape(found.name)}*`;
  const lines: string[] = [];
  if (oncall.holder === null) {
    lines.push(`${title}: nobody holds the baton now.`);
  } else {
    const since = oncall.since ? ` since ${slackTime(new Date(oncall.since), zone)}` : '';
    lines.push(`${title}: ${slackEscape(oncall.holder.name)} holds the baton${since}.`);
  }
  if (oncall.gap) {
    // Every member is away (decision 217): the holder keeps the baton though away too.
    const until = slackTime(new Date(oncall.gap.end), zone);
    lines.push(
      oncall.holder
        ? `Everyone is away until ${until}: the baton stays with ${slackEscape(oncall.holder.name)}.`
        : `Everyone is away until ${until}.`,
    );
  }
  if (oncall.rotation.suspended) {
    lines.push('The rotation is suspended: nobody is next.');
    return lines.join('\n');
  }
  lines.push(
    oncall.next
      ? `Next: ${slackEscape(oncall.next.holder.name)} from ${slackTime(new Date(oncall.next.from), zone)}.`
      : `Nobody is next in the coming ${ONCALLS_LOOKAHEAD_DAYS} days.`,
  );
  return lines.join('\n');
}

function ephemeral(text: string): SlackMessage {
  return { response_type: 'ephemeral', text };
}
