import { handoffReminderChoicesText } from '@shared/contracts/settings';
import { Link } from 'react-router';
import { DeploymentLink } from '../components/deployment-link';
import { Callout, Steps } from '../components/prose';

export function WelcomeArticle() {
  return (
    <>
      <p>
        Baton keeps track of who is on call. A team keeps one or more <strong>rotations</strong>.
        Each rotation has members in a fixed order, and at most one of them holds on-call duty at a
        time — the <strong>baton</strong>. The baton passes from member to member by hand, with
        handoff notes, or on the server's clock at the end of each shift.
      </p>
      <h2>Signing in</h2>
      <p>
        Sign in with your company Google account. Access is by invitation only: an administrator
        invites your email address, and the link in the invitation lets you finish registering.
        Without an invitation, sign-in is refused.
      </p>
      <h2>Finding your way around</h2>
      <ul>
        <li>
          <strong>Dashboard</strong> — who is on call now and the next 7 days, your rotations (with{' '}
          <em>Pass Baton</em> or <em>Take On-Call</em> where you can), every team rotation, and the
          five latest handoffs.
        </li>
        <li>
          <strong>Rotations</strong> — every rotation, filtered by status, and the detail page of
          each: members, schedule, and the actions your role allows.
        </li>
        <li>
          <strong>On-Call Team</strong> — everyone, the rotations they belong to, and how Baton
          reaches them; each person&apos;s page lists their upcoming shifts.
        </li>
        <li>
          <strong>Audit Log</strong> — the handoff history, searchable and filterable.
        </li>
        <li>
          <strong>Calendar</strong> — the next two weeks as a timeline, and a month view of who is
          on call in each rotation.
        </li>
        <li>
          <strong>Help</strong> — these pages, readable without signing in.
        </li>
      </ul>
      <h2>Who can do what</h2>
      <p>
        Baton has four roles: administrator, manager, on-call and incident manager. What each may do
        is listed in <Link to="/help/user-roles">User Roles &amp; Permissions</Link>.
      </p>
      <h2>Setting up a new Baton (administrators)</h2>
      <p>
        On a new install the dashboard leads with <strong>Set up Baton</strong>, a checklist for
        each administrator. Each step is ticked when Baton sees it done, and links to the screen
        that does it:
      </p>
      <Steps
        steps={[
          [
            'Invite your team',
            <>
              From <Link to="/admin/users">User Management</Link> (
              <Link to="/help/inviting-users">Inviting Users</Link>).
            </>,
          ],
          [
            'People add their phone and time zone',
            <>
              Starting with you, on the checklist itself: your browser's time zone is offered
              instead of the default UTC. Done when everyone, and everyone still invited, has a
              phone number and a time zone other than UTC.
            </>,
          ],
          [
            'Create a rotation with its members',
            <>
              With <Link to="/rotations/new">New Rotation</Link>: the first member holds the baton
              at once.
            </>,
          ],
          [
            'Decide who is paged when nobody answers',
            <>
              Every rotation starts with Baton's escalation policy; the step is done once a rotation
              follows a policy of your own (a step added or changed).
            </>,
          ],
          [
            'Connect your monitoring',
            <>Add an integration on a rotation's page, for Alertmanager, Grafana and the like.</>,
          ],
          [
            'Send a test page to yourself',
            <>
              <strong>Send a test page to me</strong> sends a test by email and by SMS to the phone
              on your profile at once, and says whether each went; look for them on your phone and
              in your inbox. Calls and push are tested from your profile.
            </>,
          ],
        ]}
      />
      <p>
        <strong>Dismiss</strong> hides the checklist for you only; other administrators keep theirs.
        Every step stays where the menu has it.
      </p>
      <h2>First steps</h2>
      <Steps
        steps={[
          [
            'Complete your profile',
            <>
              Add your phone number and choose how to be notified (
              <Link to="/help/profile-setup">Setting Up Your Profile</Link>).
            </>,
          ],
          [
            'Learn how rotations work',
            <Link key="intro" to="/help/rotations-intro">
              Introduction to Rotations
            </Link>,
          ],
          [
            'Read the handoff guide',
            <Link key="handoff" to="/help/handoff-process">
              Handoff Process Guide
            </Link>,
          ],
        ]}
      />
    </>
  );
}

export function ProfileSetupArticle() {
  return (
    <>
      <p>
        Open your profile from the avatar menu at the top right (<strong>Profile</strong>). The
        profile holds what Baton needs to reach you.
      </p>
      <h2>The profile form</h2>
      <ul>
        <li>
          <strong>Name</strong> — at least 2 characters; your teammates see it on rotations and in
          the audit log.
        </li>
        <li>
          <strong>Phone Number</strong> — optional, but needed for SMS. Use the international
          format, for example <code>+15550100001</code>.
        </li>
        <li>
          <strong>Timezone</strong> — UTC unless you choose another. Rotations you create start in
          this time zone.
        </li>
        <li>
          <strong>Notification Preference</strong> — <em>Email only</em>, <em>SMS only</em> or{' '}
          <em>Both Email and SMS</em> (email by default). If you choose SMS without a phone number,
          Baton emails you instead.
        </li>
      </ul>
      <p>
        Press <strong>Save Changes</strong>. Your name, email address and phone number are stored
        encrypted (see <Link to="/help/encryption">Data Encryption</Link>).
      </p>
      <h2>Settings</h2>
      <p>
        The <strong>Settings</strong> page has the same time zone, plus your{' '}
        <strong>handoff reminder</strong>: how long before your shift ends Baton sends you the
        handoff notice — {handoffReminderChoicesText()}. Its Notifications tab changes your
        notification preference too.
      </p>
      <Callout title="Your email address">
        <p>
          Your email address is the one you were invited with and sign in with; ask an administrator
          if it needs to change.
        </p>
      </Callout>
    </>
  );
}

export function SupportArticle() {
  return (
    <>
      <p>Baton is run by your own organisation, so help comes from two places.</p>
      <h2>Questions about your team's rotations</h2>
      <p>
        Ask your manager or a Baton administrator: they can change rotations, roles and invitations.
        The <Link to="/on-call-team">On-Call Team</Link> page lists everyone (you need to be signed
        in).
      </p>
      <h2>Questions about Baton itself</h2>
      <ul>
        <li>
          Ask in the <DeploymentLink link="usersForumUrl">users forum</DeploymentLink>.
        </li>
        <li>
          Report a bug in the <DeploymentLink link="bugReportUrl">bug backlog</DeploymentLink>. Say
          what you did, what you expected and what happened; never include passwords, tokens or
          other people's personal data.
        </li>
        <li>
          Report a security problem privately, as described in{' '}
          <Link to="/help/security-disclosures">Security Disclosures</Link>.
        </li>
      </ul>
      <Callout title="During an incident" tone="warning">
        <p>
          Do not wait for support: page whoever is on call from the rotation's page (
          <Link to="/help/paging-oncall">Paging On-Call Personnel</Link>).
        </p>
      </Callout>
      <p>
        Browse the <Link to="/help">Help Center</Link> for everything else.
      </p>
    </>
  );
}
