import type { SlackCommandForm, SlackMessage } from '../../../shared/contracts/slack';
import type { User } from '../../../shared/contracts/users';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { AppDeps } from '../../deps';
import { layOut } from '../calendar/calendar-service';
import { listRotationFactsOf } from '../rotations/rotation-repository';
import { slackEscape, slackTime } from './slack-interactions';
import type { SlackPeople } from './slack-people';

const DAY = 86_400_000;
/** How far back a holder's shift is looked for (since when they hold it) and forward for the next. */
const WHO_SPAN_MS = 31 * DAY;
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
 * who is next (from when), as the calendar's projection lays the rotation out (schedule entries,
 * cover and time off included); `help`, nothing or anything else: the usage.
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
  const now = deps.clock.now();
  const { laid, people } = await layOut(
    deps,
    new Date(now.getTime() - WHO_SPAN_MS),
    new Date(now.getTime() + WHO_SPAN_MS),
    viewer,
    found.id,
  );
  const rotation = laid[0];
  const zone = zoneOrUtc(viewer.timezone);
  const title = `*${slackEscape(found.name)}*`;
  if (!rotation) return SLACK_COMMAND_MESSAGES.noRotation(slackEscape(query));
  const nameOf = (id: number) => slackEscape(people.get(id)?.name ?? 'a former member');
  const holderId = rotation.row.holderUserId;
  const lines: string[] = [];
  if (holderId === null) {
    lines.push(`${title}: nobody holds the baton now.`);
  } else {
    // The holder's stretch reaching now, as the calendar merges it; else when they took it.
    const stretch = rotation.shifts.find(
      (s) =>
        s.userId === holderId &&
        s.start.getTime() <= now.getTime() &&
        s.end.getTime() >= now.getTime(),
    );
    const since = stretch?.start ?? rotation.row.holderSince;
    lines.push(
      `${title}: ${nameOf(holderId)} holds the baton${since ? ` since ${slackTime(since, zone)}` : ''}.`,
    );
  }
  if (found.suspended) {
    lines.push('The rotation is suspended: nobody is next.');
    return lines.join('\n');
  }
  const next = rotation.shifts.find(
    (s) => s.start.getTime() >= now.getTime() && s.userId !== holderId,
  );
  lines.push(
    next
      ? `Next: ${nameOf(next.userId)} from ${slackTime(next.start, zone)}.`
      : 'Nobody is next in the coming month.',
  );
  return lines.join('\n');
}

function ephemeral(text: string): SlackMessage {
  return { response_type: 'ephemeral', text };
}
