import type { ScheduleEntry } from '@shared/contracts/rotations';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useTimeFormat } from '@/lib/use-time-format';
import { useDeleteSchedule } from '../api/delete-schedule';

/** DeleteScheduleDialog confirms, then deletes, one schedule entry. */
export function DeleteScheduleDialog({
  entry,
  onOpenChange,
}: {
  /** the entry to delete; the dialog is open while one is given */
  entry: ScheduleEntry | null;
  onOpenChange: (open: boolean) => void;
}) {
  const fmt = useTimeFormat();
  const deleteSchedule = useDeleteSchedule();
  return (
    <ConfirmDialog
      open={entry !== null}
      onOpenChange={onOpenChange}
      title="Delete schedule entry?"
      description={
        entry
          ? `${entry.user.name}'s shift from ${fmt.dateTime(entry.startTime)} to ${fmt.dateTime(entry.endTime)} will be removed. This cannot be undone.`
          : ''
      }
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={deleteSchedule.isPending}
      onConfirm={() => {
        if (!entry) return;
        deleteSchedule.mutate({ scheduleId: entry.id }, { onSuccess: () => onOpenChange(false) });
      }}
    />
  );
}
