import { ROLE_LABELS } from '@shared/domain/roles';
import { Link } from 'react-router';
import { PermissionsMatrix } from '../components/permissions-matrix';
import { Callout, Steps } from '../components/prose';

export function InvitingUsersArticle() {
  return (
    <>
      <p>
        Baton is invitation-only. Administrators invite people from{' '}
        <Link to="/admin/users">User Management</Link>.
      </p>
      <Steps
        steps={[
          ['Open the dialog', 'Choose Invite User.'],
          [
            'Enter the email address',
            'It must be on your company’s email domain ("Email must be from the … domain").',
          ],
          ['Enter the name', 'The person’s name, as teammates will see it.'],
          [
            'Choose the role',
            `${ROLE_LABELS.admin}, ${ROLE_LABELS.manager}, ${ROLE_LABELS.incident_manager} or ${ROLE_LABELS['on-call']} (the default). Roles can be changed later.`,
          ],
          ['Send', 'The invitation appears under Pending Invitations.'],
        ]}
      />
      <h2>The invitation link</h2>
      <ul>
        <li>
          The link works once and expires after <strong>7 days</strong>; the expiry date shows in
          the Pending Invitations table.
        </li>
        <li>
          When an email service is configured, Baton emails the link. Administrators can also copy
          it from the pending invitation and send it another way.
        </li>
        <li>
          The person opens the link, sees “Valid Invitation” with the role they were invited as, and
          signs in with their company Google account to finish registering.
        </li>
      </ul>
      <h2>When an invitation is refused</h2>
      <ul>
        <li>The address already belongs to a user.</li>
        <li>A pending invitation for the same address (in any letter case) already exists.</li>
        <li>The address is not on the company domain.</li>
      </ul>
      <p>
        Delete a pending invitation to withdraw it; its link stops working at once. Invitations and
        deletions are recorded in the <Link to="/help/audit-logs">audit trail</Link>.
      </p>
    </>
  );
}

export function UserAccessArticle() {
  return (
    <>
      <p>
        Administrators manage access in <Link to="/admin/users">User Management</Link>. Only
        administrators change roles.
      </p>
      <h2>Change someone's roles</h2>
      <p>
        Open the <strong>Edit User Roles</strong> dialog from their row. A person can hold several
        roles; the dialog starts with their current ones.
      </p>
      <ul>
        <li>At least one role must stay selected: “A user must have at least one role.”</li>
        <li>
          You cannot remove your own administrator role: “You cannot remove your own admin role.”
          Another administrator can.
        </li>
        <li>
          The change takes effect on the person's next request; they do not need to sign in again.
        </li>
      </ul>
      <h2>Remove someone</h2>
      <ul>
        <li>
          <strong>Delete</strong> asks for confirmation. You cannot delete your own account.
        </li>
        <li>
          A person who is still a member of a rotation, or has an upcoming schedule entry, cannot be
          deleted: Baton names the rotations. Remove them from those rotations first (the baton
          passes on if they hold it).
        </li>
        <li>
          Deleting a user ends their sessions at once. Their past handoffs stay in the history,
          shown without a name.
        </li>
      </ul>
      <Callout title="Sessions">
        <p>
          A session ends after 14 days without use, or 30 days after sign-in, whichever comes first.
          Logging out ends it everywhere at once.
        </p>
      </Callout>
      <p>
        Every role change and deletion is recorded in the{' '}
        <Link to="/help/audit-logs">administrative audit trail</Link>.
      </p>
    </>
  );
}

export function UserRolesArticle() {
  return (
    <>
      <p>Baton has four roles. A person can hold more than one.</p>
      <ul>
        <li>
          <strong>{ROLE_LABELS.admin}</strong> — everything, including users, roles, invitations,
          suspending and deleting rotations, schedules, the audit trail and the Debug Tools. An
          administrator also counts as a manager and as an incident manager.
        </li>
        <li>
          <strong>{ROLE_LABELS.manager}</strong> — creates and edits rotations, adds, removes and
          reorders members, reassigns on-call duty, holds the baton, and pages the rotations they
          manage (those they created or belong to). Managers cannot delete rotations, manage users
          or view the administrative audit trail.
        </li>
        <li>
          <strong>{ROLE_LABELS['on-call']}</strong> — views rotations, holds, takes and passes the
          baton, and requests coverage. Accounts from before roles were split show the old role
          “member” as On-Call.
        </li>
        <li>
          <strong>{ROLE_LABELS.incident_manager}</strong> — pages whoever is on call in any rotation
          and views page history, but never holds the baton.
        </li>
      </ul>
      <h2>Permission table</h2>
      <p>
        This table is drawn from the same permission table the server enforces on every request.
      </p>
      <PermissionsMatrix />
      <Callout title="What the server checks">
        <p>
          Every request is decided from your signed-in session alone; what the browser claims about
          who you are is ignored. Beyond this table, some actions depend on the rotation: only the
          current holder passes the baton or requests coverage, and only a member takes on-call when
          nobody holds it.
        </p>
      </Callout>
    </>
  );
}

export function AuditLogsArticle() {
  return (
    <>
      <p>
        The <Link to="/audit-log">Audit Log</Link> shows every time the baton changed hands, newest
        first. Everyone who is signed in can read it.
      </p>
      <h2>Reading an entry</h2>
      <ul>
        <li>
          <strong>Success</strong> — “Baton passed successfully from A to B”.
        </li>
        <li>
          <strong>Acknowledged</strong> — “B acknowledged new on-call duty”.
        </li>
        <li>
          <strong>Missed</strong> — “B missed handoff acknowledgment”.
        </li>
        <li>
          <strong>Escalated</strong> — “Handoff to B was escalated”: the handoff was late and Baton
          moved the baton itself.
        </li>
      </ul>
      <p>
        Each entry links to its rotation and says how the handoff came about: passed by hand, taken,
        reassigned, automatic, and so on, with the handoff notes if there were any.
      </p>
      <h2>Searching and filtering</h2>
      <ul>
        <li>
          The search box matches the rotation's name and the names of the people handing over and
          taking over, ignoring upper and lower case.
        </li>
        <li>The status filter shows only success, acknowledged, missed or escalated entries.</li>
        <li>
          The list shows 20 entries; <strong>Load more</strong> adds 20 at a time while older
          entries remain.
        </li>
      </ul>
      <h2>For administrators</h2>
      <ul>
        <li>
          <strong>Export CSV</strong> downloads the history that matches the current search and
          filter, for a spreadsheet. Cells that a spreadsheet could run as a formula (starting with
          =, +, -, @, a tab or a carriage return) are prefixed with an apostrophe.
        </li>
        <li>
          The <strong>Administrative Trail</strong> lists who invited or deleted users, changed
          roles, created, edited, suspended, activated or deleted rotations, changed their type, and
          added, removed or reordered members, added or deleted schedule entries, and acknowledged,
          escalated or resolved pages — with the time of each, in your time zone.
        </li>
        <li>
          Its search box matches the name of the person who acted, the name of the user, invitee,
          rotation or page's rotation acted on (deleted ones too), and the action, ignoring upper
          and lower case; the action filter shows one kind of action. Long details open with{' '}
          <strong>Show details</strong>. Its <strong>Export CSV</strong> downloads what matches,
          neutralised the same way.
        </li>
      </ul>
    </>
  );
}
