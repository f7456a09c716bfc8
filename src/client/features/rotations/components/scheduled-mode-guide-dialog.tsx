import { CalendarClock, CalendarPlus, Repeat } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

const STEPS = [
  {
    icon: CalendarPlus,
    title: 'Add schedule entries',
    text: 'In the Schedule section, add at least one entry: a team member and the window in which they hold the baton.',
  },
  {
    icon: Repeat,
    title: 'Switch the type to Scheduled',
    text: 'An administrator changes the rotation type from Fixed to Scheduled. Without a schedule entry the switch is refused.',
  },
  {
    icon: CalendarClock,
    title: 'On-call follows the calendar',
    text: 'During each entry its team member is on call; Next On-Call shows the person of the next entry.',
  },
] as const;

/** ScheduledModeGuideDialog explains how to set up a scheduled rotation. */
export function ScheduledModeGuideDialog({
  open,
  onOpenChange,
  onAddSchedule,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** given to those who may add schedule entries: closes the guide and opens the form */
  onAddSchedule?: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Set up scheduled mode</DialogTitle>
          <DialogDescription>
            A scheduled rotation follows a calendar you create instead of taking turns in a fixed
            order.
          </DialogDescription>
        </DialogHeader>
        <ol className="grid gap-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="flex gap-3">
              <div className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
                <step.icon className="size-4" aria-hidden="true" />
              </div>
              <div className="space-y-1">
                <p className="font-medium text-sm">
                  {index + 1}. {step.title}
                </p>
                <p className="text-muted-foreground text-sm">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          {onAddSchedule ? (
            <Button
              type="button"
              onClick={() => {
                onOpenChange(false);
                onAddSchedule();
              }}
            >
              <CalendarPlus aria-hidden="true" />
              Add schedule
            </Button>
          ) : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
