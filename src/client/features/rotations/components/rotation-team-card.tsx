import type { Rotation } from '@shared/contracts/rotations';
import { can } from '@shared/domain/permissions';
import { UserPlus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { useAuth } from '@/lib/use-auth';
import { MembersTable } from './members-table';

/** RotationTeamCard lists the members in turn order, with add, reorder and remove for managers. */
export function RotationTeamCard({
  rotation,
  onAddMember,
}: {
  rotation: Rotation;
  onAddMember: () => void;
}) {
  const { roles } = useAuth();
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>On-Call Team</h2>
        </CardTitle>
        <CardDescription>
          {can(roles, 'member.reorder')
            ? 'Members take turns in this order. Drag a row by its handle, or use the arrows, to change it.'
            : 'Members take turns in this order.'}
        </CardDescription>
        {can(roles, 'member.add') ? (
          <CardAction>
            <Button size="sm" onClick={onAddMember} aria-label="Add On-Call Person">
              <UserPlus aria-hidden="true" />
              <span className="hidden sm:inline">Add On-Call Person</span>
              <span className="sm:hidden">Add</span>
            </Button>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        <MembersTable
          rotation={rotation}
          canReorder={can(roles, 'member.reorder')}
          canRemove={can(roles, 'member.remove')}
        />
      </CardContent>
    </Card>
  );
}
