import { CodeBlock } from '../components/prose';

const EXAMPLE_EVENT = `{
  "type": "incident.raised",
  "timestamp": "2026-11-28T09:14:03.000Z",
  "data": {
    "incident": {
      "id": 42,
      "title": "Checkout errors above 5%",
      "severity": "P1",
      "status": "triggered",
      "url": "https://baton.example.com/incidents/42"
    },
    "rotation": { "id": 7, "name": "Payments primary" },
    "by": "Grafana",
    "at": "2026-11-28T09:14:03.000Z"
  }
}`;

const VERIFY_NODE = `import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.BATON_WEBHOOK_SECRET; // whsec_…, shown once when you added it
const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
const seen = new Set(); // webhook-id of the messages already handled

function verify(raw, headers) {
  const id = headers['webhook-id'];
  const timestamp = Number(headers['webhook-timestamp']);
  if (!id || !Number.isInteger(timestamp)) throw new Error('missing headers');
  if (Math.abs(Date.now() / 1000 - timestamp) > 300) throw new Error('too old');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${raw}\`).digest();
  for (const part of String(headers['webhook-signature']).split(' ')) {
    const [version, signature] = part.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    if (version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected))
      return JSON.parse(raw);
  }
  throw new Error('bad signature');
}

createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    try {
      const event = verify(raw, req.headers);
      if (!seen.has(req.headers['webhook-id'])) {
        seen.add(req.headers['webhook-id']);
        console.log(event.type, event.data);
      }
      res.writeHead(204).end();
    } catch {
      res.writeHead(401).end();
    }
  });
}).listen(8080);`;

/** WebhookReceiversArticle: what a signed webhook destination sends, and how to verify it. */
export function WebhookReceiversArticle() {
  return (
    <>
      <p>
        A <strong>Webhook</strong> destination (added under “Chat and webhooks” on a rotation, an
        escalation policy or an integration) sends each event it is set to post as a JSON{' '}
        <code>POST</code> to your https address, signed by the Standard Webhooks scheme with the
        destination’s signing secret (<code>whsec_…</code>, shown once when you add it). Baton
        retries when your receiver answers 408, 429 or 5xx or does not answer within 10 seconds,
        with growing waits, up to six attempts; any other 4xx is taken as a refusal and not retried.
        Answer 2xx once you have handled it.
      </p>
      <h2>The event</h2>
      <p>
        Every event has a <code>type</code>, the <code>timestamp</code> it happened and its{' '}
        <code>data</code>:
      </p>
      <ul>
        <li>
          <code>handoff</code>: <code>handoffId</code>, <code>rotation</code>, <code>from</code>,{' '}
          <code>to</code>, <code>how</code> (passed, taken, reassigned, scheduled),{' '}
          <code>notes</code>, <code>at</code>.
        </li>
        <li>
          <code>cover</code>: <code>coverId</code>, <code>rotation</code>, <code>covering</code>,{' '}
          <code>covered</code>, <code>startAt</code>, <code>endAt</code>.
        </li>
        <li>
          <code>incident.raised</code>, <code>incident.acknowledged</code>,{' '}
          <code>incident.escalated</code>, <code>incident.resolved</code>: <code>incident</code> (
          <code>id</code>, <code>title</code>, <code>severity</code>, <code>status</code>,{' '}
          <code>url</code>), <code>rotation</code> (or null), <code>by</code> (who acknowledged or
          resolved it; for an escalation, whom it now pages), <code>at</code>.
        </li>
        <li>
          <code>time-off</code>: <code>timeOffId</code>, <code>rotation</code>, <code>person</code>,{' '}
          <code>startAt</code>, <code>endAt</code>.
        </li>
        <li>
          <code>shift-moved</code>: <code>change</code>, <code>rotation</code>, <code>people</code>.
        </li>
        <li>
          <code>test</code>: sent by “Send test event”: <code>destinationId</code>,{' '}
          <code>sentBy</code>.
        </li>
      </ul>
      <CodeBlock>{EXAMPLE_EVENT}</CodeBlock>
      <h2>Verifying the signature</h2>
      <p>Each request carries three headers:</p>
      <ul>
        <li>
          <code>webhook-id</code>: the message’s id, the same on every retry: handle each id once.
        </li>
        <li>
          <code>webhook-timestamp</code>: the attempt’s time in seconds; refuse one more than five
          minutes away from your clock.
        </li>
        <li>
          <code>webhook-signature</code>: <code>v1,</code> and the base64 HMAC-SHA256 of{' '}
          <code>{'{webhook-id}.{webhook-timestamp}.{body}'}</code>, keyed with the base64-decoded
          part of the secret after <code>whsec_</code>. Compute it over the body exactly as
          received, before parsing it.
        </li>
      </ul>
      <p>
        Any Standard Webhooks library verifies it (for Node, <code>standardwebhooks</code>:{' '}
        <code>new Webhook(secret).verify(body, headers)</code>). Without one, in Node:
      </p>
      <CodeBlock>{VERIFY_NODE}</CodeBlock>
      <h2>Chat destinations</h2>
      <p>
        Slack, Mattermost, Discord and Microsoft Teams destinations are not signed: their webhook
        address is the secret. For Discord, paste the webhook address with <code>/slack</code> at
        its end (Discord’s Slack-compatible endpoint); for Microsoft Teams, the address of a
        Workflows “Post to a channel when a webhook request is received” flow.
      </p>
    </>
  );
}
