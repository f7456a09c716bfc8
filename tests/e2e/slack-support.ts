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
  // Above the server's own range (20,000 to 39,999 in playwright.config.ts).
  process.env.E2E_SLACK_PORT ??= String(40_000 + Math.floor(Math.random() * 20_000));
  return Number(process.env.E2E_SLACK_PORT);
}
