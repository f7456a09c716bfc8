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
import { canManage } from '../lib/rotation-view';
import { MembersTable } from './members-table';

/**
 * RotationTeamCard lists the members in turn order, with add, reorder and remove for the
 * rotation's managers and administrators (decision 233).
 */
export function RotationTeamCard({
  rotation,
  onAddMember,
}: {
  rotation: Rotation;
  onAddMember: () => void;
}) {
  const { roles, user } = useAuth();
  const manages = canManage(rotation, user?.id ?? null, roles);
  const canReorder = manages && can(roles, 'member.reorder');
  const canAdd = manages && can(roles, 'member.add');
  const canRemove = manages && can(roles, 'member.remove');
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>On-Call Team</h2>
        </CardTitle>
        <CardDescription>
          {canReorder
            ? 'Members take turns in this order. Drag a row by its handle, or use the arrows, to change it.'
            : 'Members take turns in this order.'}
        </CardDescription>
        {canAdd ? (
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
        <MembersTable rotation={rotation} canReorder={canReorder} canRemove={canRemove} />
      </CardContent>
    </Card>
  );
}
