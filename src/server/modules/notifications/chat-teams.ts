import type { ChatMessage } from './chat-messages';

/**
 * teamsBody writes a message as a Teams Workflows webhook expects it: a message with one Adaptive
 * Card 1.4 attachment (the Office 365 connectors' MessageCard is retired). Adaptive Cards' text
 * is plain: nothing to escape.
 */
export function teamsBody(message: ChatMessage): object {
  const body: object[] = [
    { type: 'TextBlock', text: message.title, weight: 'Bolder', size: 'Medium', wrap: true },
  ];
  if (message.facts.length > 0) {
    body.push({
      type: 'FactSet',
      facts: message.facts.map(([title, value]) => ({ title, value })),
    });
  }
  if (message.quote) {
    body.push({ type: 'TextBlock', text: message.quote.label, weight: 'Bolder', wrap: true });
    body.push({ type: 'TextBlock', text: message.quote.text, wrap: true, isSubtle: true });
  }
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          actions: [{ type: 'Action.OpenUrl', title: message.link.label, url: message.link.url }],
        },
      },
    ],
  };
}
