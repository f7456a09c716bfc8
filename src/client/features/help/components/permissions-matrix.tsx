import { type Action, can, PERMISSIONS } from '@shared/domain/permissions';
import { ROLE_LABELS, ROLES } from '@shared/domain/roles';
import { Check, Minus } from 'lucide-react';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';

/** What each permission of the shared table lets a person do, in words. */
const ACTION_DESCRIPTIONS: Record<Action, string> = {
  'rotation.view': 'View rotations and who is on call',
  'rotation.create': 'Create rotations',
  'rotation.edit':
    'Edit a rotation’s name, description, cadence, handoff time and escalation policy (managers: their own rotations)',
  'rotation.delete': 'Delete a rotation',
  'rotation.changeType': 'Change a rotation’s type (fixed or scheduled)',
  'rotation.suspend': 'Suspend and activate rotations',
  'schedule.manage': 'Add and delete schedule entries',
  'member.add': 'Add members to a rotation (managers: their own rotations)',
  'member.remove': 'Remove members from a rotation (managers: their own rotations)',
  'member.reorder': 'Reorder members (drag and drop; managers: their own rotations)',
  'baton.hold': 'Hold, take and pass the baton; request coverage',
  'baton.reassign': 'Reassign on-call duty to another member (managers: their own rotations)',
  'page.send': 'Page the person on call (managers: their own rotations)',
  'page.viewHistory': 'View page history',
  'handoff.viewHistory': 'View the handoff history in the Audit Log',
  'audit.viewAdmin': 'View the administrative audit trail',
  'audit.export': 'Export the handoff history as CSV',
  'users.view': 'See the On-Call Team list',
  'users.manage': 'Delete users',
  'roles.change': 'Change people’s roles',
  'invitations.manage': 'Invite people and delete invitations',
  'profile.editOwn': 'Edit their own profile and settings',
  'profile.editAny': 'Edit anyone’s profile',
  'system.configure': 'Configure the system',
  'debug.view': 'Use the Debug Tools',
  'escalationPolicy.view': 'View escalation policies (on-call members: their rotations’ policies)',
  'escalationPolicy.edit':
    'Create escalation policies and edit those of rotations they manage (managers)',
};

/**
 * PermissionsMatrix shows the permission table the server enforces (src/shared/domain/
 * permissions.ts), one row an action and one column a role, so the help can never drift from it.
 */
export function PermissionsMatrix() {
  const actions = Object.keys(PERMISSIONS) as Action[];
  return (
    <Table>
      <caption className="sr-only">What each role may do</caption>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Action</TableHead>
          {ROLES.map((role) => (
            <TableHead key={role} scope="col" className="text-center">
              {ROLE_LABELS[role]}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {actions.map((action) => (
          <TableRow key={action}>
            <TableHead scope="row" className="whitespace-normal font-normal">
              {ACTION_DESCRIPTIONS[action]}
            </TableHead>
            {ROLES.map((role) => {
              const allowed = can([role], action);
              return (
                <TableCell key={role} className="text-center">
                  {allowed ? (
                    <Check className="mx-auto size-4 text-foreground" aria-label="Yes" role="img" />
                  ) : (
                    <Minus
                      className="mx-auto size-4 text-muted-foreground"
                      aria-label="No"
                      role="img"
                    />
                  )}
                </TableCell>
              );
            })}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
