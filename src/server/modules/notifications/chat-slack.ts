import { SLACK_ACTIONS_BLOCK_ID } from '../../../shared/contracts/slack';
import type { ChatAction, ChatMessage } from './chat-messages';

/**
 * The Slack body (decision 221): Block Kit, for Slack and for Mattermost and Discord, which take
 * Slack-compatible bodies. Slack's escaping and its limits on text length live here, once.
 */

const ACTION_LABELS: Record<ChatAction['actionId'], string> = {
  'incident.acknowledge': 'Acknowledge',
  'incident.resolve': 'Resolve',
  'incident.escalate': 'Escalate',
  'handoff.acknowledge': 'Acknowledge handoff',
};

/** escapeSlack escapes the three characters Slack's mrkdwn gives meaning (&, <, >). */
export function escapeSlack(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const cut = (value: string, max: number) =>
  value.length > max ? `${value.slice(0, max - 1)}…` : value;

/** slackBody writes a message as Slack Block Kit: `text` (the fallback) and `blocks`. */
export function slackBody(message: ChatMessage, options: { buttons: boolean }): object {
  const blocks: object[] = [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: `*${escapeSlack(cut(message.title, 2900))}*` },
    },
  ];
  if (message.facts.length > 0) {
    blocks.push({
      type: 'section',
      // Block Kit allows at most ten fields a section.
      fields: message.facts.slice(0, 10).map(([label, value]) => ({
        type: 'mrkdwn',
        text: `*${escapeSlack(label)}*\n${escapeSlack(cut(value, 1900))}`,
      })),
    });
  }
  if (message.quote) {
    const quoted = escapeSlack(cut(message.quote.text, 2800))
      .split('\n')
      .map((line) => `>${line}`)
      .join('\n');
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: `*${escapeSlack(message.quote.label)}*\n${quoted}` },
    });
  }
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: `<${message.link.url}|${escapeSlack(message.link.label)}>`,
      },
    ],
  });
  if (options.buttons && message.actions && message.actions.length > 0) {
    blocks.push({
      type: 'actions',
      block_id: SLACK_ACTIONS_BLOCK_ID,
      elements: message.actions.map((a) => ({
        type: 'button',
        action_id: a.actionId,
        value: a.value,
        text: { type: 'plain_text', text: ACTION_LABELS[a.actionId] },
        ...(a.actionId === 'incident.acknowledge' || a.actionId === 'handoff.acknowledge'
          ? { style: 'primary' }
          : {}),
      })),
    });
  }
  return { text: cut(message.title, 3000), blocks };
}
