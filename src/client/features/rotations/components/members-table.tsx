import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { Rotation, RotationMember } from '@shared/contracts/rotations';
import { membersInOrder } from '@shared/domain/rotation';
import { ArrowDown, ArrowUp, GripVertical, UserMinus, Users } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { useRemoveMember } from '../api/remove-member';
import { useReorderMembers } from '../api/reorder-members';
import { memberStatusLabel, moveItem } from '../lib/rotation-view';
import { EmptyState } from './empty-state';
import { PersonAvatar } from './person-avatar';
import { MemberStatusBadge } from './status-badges';

type RowProps = {
  rotation: Rotation;
  member: RotationMember;
  index: number;
  count: number;
  canRemove: boolean;
  onRemove: (member: RotationMember) => void;
};

function MemberCells({ rotation, member }: Pick<RowProps, 'rotation' | 'member'>) {
  return (
    <>
      <TableCell className="hidden w-10 text-muted-foreground tabular-nums sm:table-cell">
        {member.order + 1}
      </TableCell>
      <TableCell className="max-w-36 sm:max-w-64">
        <div className="flex min-w-0 items-center gap-3">
          <PersonAvatar name={member.user.name} />
          <div className="min-w-0">
            <p className="truncate font-medium">{member.user.name}</p>
            <p className="hidden truncate text-muted-foreground text-xs sm:block md:hidden">
              {member.user.email}
            </p>
            <div className="mt-0.5 sm:hidden">
              <MemberStatusBadge status={memberStatusLabel(rotation, member.userId)} />
            </div>
          </div>
        </div>
      </TableCell>
      <TableCell className="hidden text-muted-foreground md:table-cell">
        {member.user.email}
      </TableCell>
      <TableCell className="hidden sm:table-cell">
        <MemberStatusBadge status={memberStatusLabel(rotation, member.userId)} />
      </TableCell>
    </>
  );
}

function RemoveButton({ member, onRemove }: Pick<RowProps, 'member' | 'onRemove'>) {
  return (
    <Button
      variant="ghost"
      size="sm"
      className="text-destructive hover:bg-destructive/10 hover:text-destructive"
      onClick={() => onRemove(member)}
      aria-label={`Remove ${member.user.name}`}
    >
      <UserMinus aria-hidden="true" />
      <span className="hidden sm:inline">Remove</span>
    </Button>
  );
}

function SortableMemberRow({
  onMove,
  ...props
}: RowProps & { onMove: (from: number, to: number) => void }) {
  const { member, index, count, canRemove, onRemove } = props;
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id: member.id });
  const name = member.user.name;
  return (
    <TableRow
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn('relative bg-card', isDragging && 'z-10 bg-muted shadow-md')}
    >
      <TableCell className="w-8 pr-0">
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={`Drag to reorder ${name}`}
          className="flex size-7 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing"
        >
          <GripVertical className="size-4" aria-hidden="true" />
        </button>
      </TableCell>
      <MemberCells {...props} />
      <TableCell className="text-right">
        <div className="flex items-center justify-end gap-0.5">
          <Button
            variant="ghost"
            size="icon"
            className="size-8"
            disabled={index === 0}
            onClick={() => onMove(index, index - 1)}
            aria-label={`Move ${name} up`}
          >
            <ArrowUp aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="size-8"
            disabled={index === count - 1}
            onClick={() => onMove(index, index + 1)}
            aria-label={`Move ${name} down`}
          >
            <ArrowDown aria-hidden="true" />
          </Button>
          {canRemove ? <RemoveButton member={member} onRemove={onRemove} /> : null}
        </div>
      </TableCell>
    </TableRow>
  );
}

function TableHead5({ sortable, actions }: { sortable: boolean; actions: boolean }) {
  return (
    <TableHeader>
      <TableRow className="hover:bg-transparent">
        {sortable ? (
          <TableHead className="w-8 pr-0">
            <span className="sr-only">Drag handle</span>
          </TableHead>
        ) : null}
        <TableHead className="hidden w-10 sm:table-cell">#</TableHead>
        <TableHead>Name</TableHead>
        <TableHead className="hidden md:table-cell">Email</TableHead>
        <TableHead className="hidden sm:table-cell">Status</TableHead>
        {actions ? <TableHead className="text-right">Actions</TableHead> : null}
      </TableRow>
    </TableHeader>
  );
}

/**
 * MembersTable is the On-Call Team table: position (order + 1), avatar and name, email and status.
 * Those who may reorder drag rows by a handle (mouse, touch, or keyboard: Space, arrows, Space) or
 * use the Move up / Move down buttons; everyone else sees a static table. Remove asks first.
 */
export function MembersTable({
  rotation,
  canReorder,
  canRemove,
}: {
  rotation: Rotation;
  canReorder: boolean;
  canRemove: boolean;
}) {
  const members = membersInOrder(rotation.members);
  const reorder = useReorderMembers();
  const removeMember = useRemoveMember();
  const [removing, setRemoving] = useState<RotationMember | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const nameOf = (id: string | number) =>
    members.find((m) => m.id === Number(id))?.user.name ?? 'member';
  const positionOf = (id: string | number) => members.findIndex((m) => m.id === Number(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Picked up ${nameOf(active.id)}, position ${positionOf(active.id)} of ${members.length}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${nameOf(active.id)} moved to position ${positionOf(over.id)} of ${members.length}.`
        : `${nameOf(active.id)} is no longer over a position.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${nameOf(active.id)} dropped at position ${positionOf(over.id)} of ${members.length}.`
        : `${nameOf(active.id)} dropped.`,
    onDragCancel: ({ active }) => `Reordering cancelled. ${nameOf(active.id)} was not moved.`,
  };

  const move = (from: number, to: number) => {
    if (from === to) return;
    const ids = moveItem(
      members.map((m) => m.id),
      from,
      to,
    );
    reorder.mutate({ rotationId: rotation.id, memberIds: ids });
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    move(positionOf(active.id) - 1, positionOf(over.id) - 1);
  };

  if (members.length === 0) {
    return (
      <EmptyState
        icon={Users}
        title="No one is in this rotation yet"
        description="Add on-call people to start taking turns."
      />
    );
  }

  const confirm = (
    <ConfirmDialog
      open={removing !== null}
      onOpenChange={(open) => (open ? undefined : setRemoving(null))}
      title={removing ? `Remove ${removing.user.name}?` : 'Remove member?'}
      description={
        removing && rotation.currentOnCallUserId === removing.userId
          ? `${removing.user.name} is currently on call for ${rotation.name}. ${rotation.suspended ? 'The rotation is suspended, so it is left with no one on call.' : 'Removing them passes the baton to the next member in the order who can hold it.'}`
          : `${removing?.user.name ?? 'This person'} will no longer be part of ${rotation.name}.`
      }
      confirmLabel="Remove"
      pendingLabel="Removing..."
      pending={removeMember.isPending}
      onConfirm={() => {
        if (!removing) return;
        removeMember.mutate(
          { rotationId: rotation.id, userId: removing.userId, userName: removing.user.name },
          { onSuccess: () => setRemoving(null) },
        );
      }}
    />
  );

  if (!canReorder) {
    return (
      <>
        <Table>
          <TableHead5 sortable={false} actions={canRemove} />
          <TableBody>
            {members.map((member) => (
              <TableRow key={member.id}>
                <MemberCells rotation={rotation} member={member} />
                {canRemove ? (
                  <TableCell className="text-right">
                    <RemoveButton member={member} onRemove={setRemoving} />
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {confirm}
      </>
    );
  }

  return (
    <>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              'To reorder, press Space or Enter to pick up the member, use the up and down arrow keys to move, then press Space or Enter to drop, or Escape to cancel.',
          },
        }}
      >
        <Table>
          <TableHead5 sortable actions />
          <TableBody>
            <SortableContext
              items={members.map((m) => m.id)}
              strategy={verticalListSortingStrategy}
            >
              {members.map((member, index) => (
                <SortableMemberRow
                  key={member.id}
                  rotation={rotation}
                  member={member}
                  index={index}
                  count={members.length}
                  canRemove={canRemove}
                  onRemove={setRemoving}
                  onMove={move}
                />
              ))}
            </SortableContext>
          </TableBody>
        </Table>
      </DndContext>
      {confirm}
    </>
  );
}
