import { Link } from 'react-router';
import { Callout, CodeBlock, Steps } from '../components/prose';

/*
 * The Slack app (issue 19, decision 222): what the buttons and /baton do, and how an administrator
 * installs it (docs/slack.md in the repository has the same steps, with troubleshooting).
 */

export function SlackAppArticle() {
  return (
    <>
      <p>
        When your administrators have installed Baton's Slack app, Baton's messages about an
        incident carry <strong>Acknowledge</strong>, <strong>Resolve</strong> and{' '}
        <strong>Escalate</strong> buttons, and a handoff message an <strong>Acknowledge</strong>{' '}
        button for the person who receives the baton.
      </p>
      <h2>Using the buttons</h2>
      <ul>
        <li>
          A click acts as you: the Baton account whose email is the confirmed email of your Slack
          profile. If Baton knows no one with that email, it tells you (only you) and nothing
          changes: sign in to Baton with that email, or change the one in Slack.
        </li>
        <li>
          The rules are the ones of Baton's own screens: you can act on an incident that notified
          you, that you raised, on your rotations as a manager, or on any as an incident manager.
          When Baton refuses, only you read why.
        </li>
        <li>
          The message then says, for example, "Acknowledged by Olivia Ortiz at 2:05 PM", and the
          incident's timeline in Baton "Acknowledged by Olivia Ortiz from Slack". After Acknowledge
          the Resolve button stays; after Resolve the buttons go.
        </li>
      </ul>
      <h2>Who holds the baton?</h2>
      <p>Type in any channel (only you see the answer):</p>
      <CodeBlock>{'/baton who Payments primary'}</CodeBlock>
      <p>
        Baton answers who holds the baton of that rotation now and since when, and who is next and
        from when, as the <Link to="/calendar">calendar</Link> shows it. When every member is away,
        it says until when: the baton stays with its holder meanwhile. The start of a name is enough
        when only one rotation starts that way. <code>/baton help</code> shows the usage.
      </p>
      <h2>Installing the app (administrators)</h2>
      <Steps
        steps={[
          [
            'Create the app',
            <>
              At api.slack.com/apps, <strong>Create New App → From an app manifest</strong>, and
              paste <code>slack/manifest.yml</code> from Baton's repository with{' '}
              <code>https://baton.example.com</code> replaced by your Baton's address.
            </>,
          ],
          [
            'Install it',
            'Install it to your workspace and choose the channel for Baton’s messages. Copy the Signing Secret (Basic Information) and the Bot User OAuth Token (xoxb-…).',
          ],
          [
            'Configure Baton',
            <>
              Set <code>SLACK_SIGNING_SECRET</code> and <code>SLACK_BOT_TOKEN</code> in Baton's
              environment and restart. Try <code>/baton who</code> in Slack.
            </>,
          ],
        ]}
      />
      <Callout title="Why Baton trusts a click" tone="info">
        <p>
          Baton accepts a request only with Slack's signature, made with the signing secret, and
          sent within five minutes. It asks Slack who clicked; it never takes a name or an email
          from the request itself.
        </p>
      </Callout>
    </>
  );
}
