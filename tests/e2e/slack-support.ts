/**
 * The Slack app's settings for the server playwright.config.ts starts (decision 222): its signing
 * secret and bot token, and the port of the loopback Slack Web API slack.spec.ts starts.
 */
export const E2E_SLACK = {
  signingSecret: 'e2e-slack-signing-secret',
  botToken: 'xoxb-e2e-0000-slack-bot-token',
} as const;

/** The loopback Slack's port: set once, in the environment, so the server and the spec agree. */
export function e2eSlackPort(): number {
  // Apart from the server's range (20,000 to 31,999 in playwright.config.ts) and above Linux's
  // ephemeral ports (32,768 to 60,999), where an outgoing connection could hold it (EADDRINUSE).
  process.env.E2E_SLACK_PORT ??= String(61_000 + Math.floor(Math.random() * 4_000));
  return Number(process.env.E2E_SLACK_PORT);
}
