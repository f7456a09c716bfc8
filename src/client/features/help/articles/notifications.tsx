import { Link } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { PagingFlowSteps } from '../components/flow-timings';
import { Callout, Steps } from '../components/prose';

export function NotificationMethodsArticle() {
  return (
    <>
      <p>
        Baton notifies people by <strong>email</strong> and <strong>SMS</strong>. Push notifications
        to a mobile app are not available yet; they are planned for a future update.
      </p>
      <h2>Your notification preference</h2>
      <ul>
        <li>
          <strong>Email only</strong> (the default), <strong>SMS only</strong> or{' '}
          <strong>Both Email and SMS</strong>. Set it on your <Link to="/profile">Profile</Link> or
          in <Link to="/settings">Settings</Link>.
        </li>
        <li>If you choose SMS but have no phone number, Baton emails you instead.</li>
      </ul>
      <h2>What Baton tells you about</h2>
      <ul>
        <li>The baton passed to you, with the handoff notes.</li>
        <li>Taking on-call, and on-call duty reassigned to or from you.</li>
        <li>Coverage requests made to you, and their outcome.</li>
        <li>Handoff notices before your shift ends, and escalations when a handoff is late.</li>
        <li>Pages while you are on call.</li>
        <li>
          Changes to your shifts in the next 8 weeks that someone&apos;s edits caused: one message
          per rotation once the edits pause for two minutes (ten minutes after the first at most),
          and one notice per rotation on your <Link to="/">Dashboard</Link>. A later change updates
          that notice rather than adding another, a removed shift names who is on call instead, and
          changes whose shifts are over drop off.
        </li>
        <li>
          For rotations you manage: changes someone else made to their members or escalation policy,
          gathered into one email once the changes pause.
        </li>
        <li>Your invitation to join Baton.</li>
      </ul>
      <h2>How delivery works</h2>
      <p>
        Every notification is written down in the same step as the event that causes it, then sent
        by a background worker. A failed send is retried with growing pauses, up to six attempts; a
        message is never sent twice for the same event, and a slow text-message provider never holds
        up email. Administrators can see every notification and its outcome, including those that
        could not be sent because no email or SMS service is configured.
      </p>
      <Callout title="Per-type choices">
        <p>
          The Settings page shows a choice per notification type. Those choices are not saved yet:
          your notification preference applies to every notification.
        </p>
      </Callout>
    </>
  );
}

export function SmsSetupArticle() {
  return (
    <>
      <Steps
        steps={[
          [
            'Add your phone number',
            <>
              On your <Link to="/profile">Profile</Link>, enter your mobile number in international
              format: a plus sign, the country code and the number, without spaces — for example{' '}
              <code>+15550100001</code>.
            </>,
          ],
          [
            'Choose SMS',
            'Set Notification Preference to "SMS only" or "Both Email and SMS", and save.',
          ],
          [
            'Let the texts through',
            <>
              Save the number Baton texts from as a contact and allow it through Do Not Disturb or
              Focus (<Link to="/notification-help">Notification Settings</Link>).
            </>,
          ],
        ]}
      />
      <h2>Good to know</h2>
      <ul>
        <li>
          Baton sends texts through the SMS service your administrators configure (Twilio). Until
          one is configured, texts are not sent: they are recorded for administrators instead.
        </li>
        <li>Without a phone number, SMS notifications go to your email address.</li>
        <li>Your phone number is stored encrypted.</li>
        <li>A page's text includes a link to acknowledge it without signing in; it works once.</li>
        <li>
          When your administrators have connected Twilio's replies, a page's text also says, for
          example, "Reply 4821 to acknowledge, 4821R to resolve." Reply from the phone it reached
          you on; Baton answers with what happened. The code stops working once the page is
          acknowledged or resolved.
        </li>
      </ul>
    </>
  );
}

export function EmailNotificationsArticle() {
  return (
    <>
      <p>
        Baton emails the address you were invited with. Each email has a plain-text and an HTML
        version, and a link back to Baton.
      </p>
      <h2>Making sure emails arrive</h2>
      <ul>
        <li>Add Baton's sending address to your contacts or safe-senders list.</li>
        <li>Check your spam folder once, and mark a Baton email as “not spam”.</li>
        <li>
          If you use mail rules, keep Baton's emails out of folders you only read later — pages and
          escalations need attention within minutes.
        </li>
        <li>
          On your phone, allow notifications for your mail app (
          <Link to="/notification-help">Notification Settings</Link>).
        </li>
      </ul>
      <h2>Email and SMS together</h2>
      <p>
        Choose <strong>Both Email and SMS</strong> to get every notification on both channels. A
        failure on one channel does not stop the other.
      </p>
      <Callout title="No emails at all?">
        <p>
          Your administrators may not have configured an email service yet. Until they do, Baton
          records notifications without sending them; an administrator can see them.
        </p>
      </Callout>
    </>
  );
}

export function PagingOnCallArticle() {
  return (
    <>
      <p>
        A <strong>page</strong> is an urgent message to whoever holds a rotation's baton, sent by
        email and SMS according to their notification preference. Administrators and incident
        managers can page any rotation; managers can page the rotations they manage (those they
        created or belong to).
      </p>
      <Tabs defaultValue="incident" className="mt-6">
        <TabsList className="h-auto max-w-full flex-wrap justify-start">
          <TabsTrigger className="h-8 flex-none" value="incident">
            Incident Response
          </TabsTrigger>
          <TabsTrigger className="h-8 flex-none" value="rotation">
            From Rotation View
          </TabsTrigger>
        </TabsList>
        <TabsContent value="incident" className="space-y-4 pt-4">
          <h2>Paging during an incident</h2>
          <p>Write the page so the person on call can act without asking questions:</p>
          <ul>
            <li>
              <strong>Title</strong> — one line: what is broken.
            </li>
            <li>
              <strong>Severity</strong> — P1 critical, P2 major or P3 minor.
            </li>
            <li>
              <strong>Description</strong> — what you see, since when.
            </li>
            <li>
              <strong>Impact</strong> — who or what is affected.
            </li>
            <li>
              <strong>Troubleshooting steps</strong> — what has been tried already.
            </li>
          </ul>
          <Callout title="Example">
            <p>
              P1 critical — Checkout API returning 500s since 14:05. About 30% of orders fail.
              Restarted one pod, no change. Dashboard link in #incident-142.
            </p>
          </Callout>
          <h2>What happens after you page</h2>
          <p>This is Baton's paging flow:</p>
          <PagingFlowSteps />
          <h2>Escalation policies</h2>
          <p>
            Each rotation names an <strong>escalation policy</strong>: ordered steps, each notifying
            a rotation's holder, its next on call, its backup, every member or a named person, with
            a delay before the next step, and a repeat count. Every rotation starts with its own
            default policy, the flow above. Managers and administrators choose a rotation's policy
            in its Settings card and edit policies from the rotation page's “Escalation policy” link
            or from <strong>Escalation Policies</strong>, under Rotations in the menu; the editor
            shows who each step would notify right now.
          </p>
          <p>
            A page, and every incident, climbs its rotation's policy step by step until someone it
            notified acknowledges it. A step that would reach nobody right now (a suspended
            rotation, nobody on call, outside the step's hours) is skipped at once and the skip is
            written in the incident's timeline. An incident keeps a copy of the policy as it was
            when it was raised, so editing a policy changes only the incidents raised after.
          </p>
          <h2>Incidents</h2>
          <p>
            Every page is an <strong>incident</strong>: one record of something that needs a person,
            with a title, a severity, its fields and a timeline. <strong>Incidents</strong> in the
            main menu lists them, open ones first by default, with filters for status, severity and
            rotation, a search of the titles and the count of each status. Its{' '}
            <strong>Page history</strong> button opens the pages sent to you and each rotation's
            page history, where every page has <strong>Open incident</strong>.
          </p>
          <ul>
            <li>
              <strong>Raise incident</strong> (incident managers, administrators and managers, on
              the rotations they manage): a title, the severity, the urgency, the description, the
              impact and the troubleshooting steps, and the rotation (its policy) or the escalation
              policy it follows.
            </li>
            <li>
              An incident’s page shows its number (“Incident #42”), its{' '}
              <strong>Time to acknowledge</strong> and <strong>Time to resolve</strong> (from when
              it was raised; “Open for 12 min” until it is resolved), where it is on its policy
              (“Step 2 of 3”), when the next step comes, who has it, and its timeline: each step
              reached and whom it notified, each email and SMS with its result, steps skipped and
              why, notes, acknowledgement, resolution and reopening. Web addresses in its
              description, impact, troubleshooting steps, notes and resolution note are links that
              open in a new tab.
            </li>
            <li>
              The people it notified, its rotation’s managers and incident managers can{' '}
              <strong>Acknowledge</strong> (the climb stops), <strong>Resolve</strong> with an
              optional <strong>resolution note</strong> (what fixed it, shown on the incident and in
              its timeline), <strong>Escalate</strong> to the next step or any step with a reason,{' '}
              <strong>Reassign</strong> it to one person (the climb starts again from them) and add
              notes.
            </li>
            <li>
              <strong>Reopen</strong> takes a resolved incident back to triggered, with an optional
              reason: its escalation policy starts again from step 1, whose people are paged now,
              and each step follows after its delay until someone acknowledges. The same people who
              may resolve it may reopen it. Its times still count from when it was first raised.
            </li>
            <li>
              Every email about an incident states its severity and description and links to its
              page. An incident an integration raised names the integration as who paged, and as who
              acknowledged or resolved it when its alert cleared.
            </li>
            <li>
              The Dashboard’s <strong>Incidents for you</strong> lists the open incidents that
              notified you, with Acknowledge and Resolve.
            </li>
          </ul>
        </TabsContent>
        <TabsContent value="rotation" className="space-y-4 pt-4">
          <h2>Paging from a rotation's page</h2>
          <Steps
            steps={[
              ['Open the rotation', 'From Rotations or the Dashboard.'],
              ['Choose Page On-Call', 'The button appears when your role may page this rotation.'],
              ['Write the message', 'A message is required ("Please enter a message").'],
              ['Choose the urgency', 'Low, medium or high; high is the default.'],
              [
                'Send',
                'The confirmation "Page alert sent" names the person paged. A rotation with nobody on call cannot be paged.',
              ],
            ]}
          />
          <p>
            Page history on the rotation shows who paged whom, when, and what happened since; each
            page opens as the incident it is.
          </p>
        </TabsContent>
      </Tabs>
    </>
  );
}
