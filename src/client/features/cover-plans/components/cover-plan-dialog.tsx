import { zodResolver } from '@hookform/resolvers/zod';
import type { Person } from '@shared/contracts/rotations';
import { useEffect, useMemo, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { FormDialog } from '@/components/form-dialog';
import {
  DialogFormFooter,
  FormError,
  TextareaField,
  TimeWindowFields,
} from '@/components/form-fields';
import { PersonField } from '@/components/person-field';
import { Badge } from '@/components/ui/badge';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { toLocalInput } from '@/lib/format-time';
import { useTimeFormat } from '@/lib/use-time-format';
import { useCoverCandidates } from '../api/get-cover-candidates';
import { usePlanCover } from '../api/plan-cover';
import {
  type CoverableShift,
  type CoverPlanFormOutput,
  type CoverPlanFormValues,
  CUSTOM_WINDOW,
  coverPlanFormSchema,
  upcomingOf,
  windowOf,
} from '../lib/cover-plan-form';

/** What the dialog starts with: whose shifts, and which window (a shift of theirs). */
export interface CoverPlanTarget {
  rotation: { id: number; name: string };
  /** the person covered: fixed (asking for oneself, or a shift's owner) or chosen among `people` */
  requesterId: number | null;
  /** the window to start from (a shift), or none */
  window?: { start: Date; end: Date } | null;
}

/**
 * CoverPlanDialog asks a teammate to cover a window of the signed-in member's upcoming shifts, or
 * (`arrange`) arranges cover for someone else: choose one of their shifts or a custom window, and
 * the covering member from "who should cover" (their on-call hours over 90 days, anyone on time
 * off marked). The server checks the window against the rotation's projection and other cover.
 */
export function CoverPlanDialog({
  target,
  viewerId,
  arrange,
  people,
  shifts,
  onOpenChange,
}: {
  /** what to plan; null: closed */
  target: CoverPlanTarget | null;
  viewerId: number;
  /** arranging cover for someone else (managers of the rotation, administrators) */
  arrange: boolean;
  /** the rotation's members who may be covered (arranging with no fixed person) */
  people: readonly Person[];
  /** the rotation's shifts ahead, to choose from */
  shifts: readonly CoverableShift[];
  onOpenChange: (open: boolean) => void;
}) {
  const open = target !== null;
  const fmt = useTimeFormat();
  const { timeZone } = fmt;
  const plan = usePlanCover();
  const pending = plan.isPending;
  const schema = useMemo(() => coverPlanFormSchema(timeZone), [timeZone]);
  // Read when the dialog opens only: the shifts refresh in the background while it is open, and
  // a new list must not reset what the person is typing.
  const shiftsAtOpening = useRef(shifts);
  shiftsAtOpening.current = shifts;
  const initial = useMemo((): CoverPlanFormValues => {
    const requesterId = arrange ? target?.requesterId : viewerId;
    const w = target?.window;
    const start = w ? new Date(Math.max(w.start.getTime(), Date.now())) : null;
    // A window that is one of the person's listed shifts shows as that shift.
    const listed =
      w && requesterId
        ? upcomingOf(shiftsAtOpening.current, requesterId, new Date()).findIndex(
            (s) => s.end.getTime() === w.end.getTime(),
          )
        : -1;
    return {
      requesterId: requesterId ? String(requesterId) : '',
      window: listed >= 0 && listed < 12 ? String(listed) : CUSTOM_WINDOW,
      coveringUserId: '',
      startTime: start ? toLocalInput(start, timeZone) : '',
      endTime: w ? toLocalInput(w.end, timeZone) : '',
      notes: '',
    };
  }, [target, arrange, viewerId, timeZone]);
  const form = useForm<CoverPlanFormValues, unknown, CoverPlanFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: initial,
  });
  useEffect(() => {
    if (open) form.reset(initial);
  }, [open, initial, form]);

  const requesterId = Number(form.watch('requesterId')) || null;
  const startTime = form.watch('startTime');
  const endTime = form.watch('endTime');
  const now = new Date();
  const theirs = requesterId ? upcomingOf(shifts, requesterId, now) : [];
  const window = windowOf(startTime, endTime, timeZone);
  const candidates = useCoverCandidates(
    target?.rotation.id ?? 0,
    open && window && requesterId ? { ...window, requesterId } : null,
  );
  const requesterName = people.find((p) => p.id === requesterId)?.name;

  const chooseWindow = (value: string) => {
    form.setValue('window', value);
    const shift = theirs[Number(value)];
    if (value === CUSTOM_WINDOW || !shift) return;
    form.setValue('startTime', toLocalInput(shift.start, timeZone), { shouldValidate: true });
    form.setValue('endTime', toLocalInput(shift.end, timeZone), { shouldValidate: true });
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      onClose={() => plan.reset()}
    >
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{arrange ? 'Arrange cover' : 'Ask for cover'}</DialogTitle>
          <DialogDescription>
            {arrange
              ? `Arrange for a teammate to hold the baton for ${target?.rotation.name ?? 'this rotation'} in someone’s place. It is in force at once; both are told.`
              : `Ask a teammate to hold the baton for ${target?.rotation.name ?? 'this rotation'} for all or part of one of your upcoming shifts.`}{' '}
            Times are in your time zone ({timeZone}).
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit((values) => {
              if (!target) return;
              plan.mutate(
                {
                  rotationId: target.rotation.id,
                  coveringUserId: values.coveringUserId,
                  startTime: values.startTime,
                  endTime: values.endTime,
                  notes: values.notes?.trim() ? values.notes.trim() : null,
                  ...(values.requesterId !== viewerId ? { requesterId: values.requesterId } : {}),
                },
                {
                  onSuccess: () => onOpenChange(false),
                  onError: (error) =>
                    form.setError('root', {
                      message: getErrorMessage(
                        error,
                        'Could not plan the cover. Please try again.',
                      ),
                    }),
                },
              );
            })}
          >
            <FormError />
            {arrange && !target?.requesterId ? (
              <PersonField
                control={form.control}
                name="requesterId"
                label="Person to cover"
                people={people}
                disabled={pending}
              />
            ) : arrange && requesterName ? (
              <p className="text-sm">
                Covering <span className="font-medium">{requesterName}</span>
              </p>
            ) : null}
            <FormField
              control={form.control}
              name="window"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Shift</FormLabel>
                  <Select value={field.value} onValueChange={chooseWindow} disabled={pending}>
                    <FormControl>
                      <SelectTrigger>
                        <SelectValue placeholder="Choose a shift" />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      <SelectItem value={CUSTOM_WINDOW}>Custom window</SelectItem>
                      {theirs.slice(0, 12).map((s, i) => (
                        <SelectItem key={s.start.toISOString()} value={String(i)}>
                          {fmt.dateTime(s.start)} – {fmt.dateTime(s.end)}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <FormDescription className="text-xs">
                    {theirs.length === 0
                      ? 'No upcoming shifts in the next two months.'
                      : 'Pick a shift to cover it whole, then shorten the window if you need only part of it.'}
                  </FormDescription>
                </FormItem>
              )}
            />
            <TimeWindowFields
              control={form.control}
              earliest={toLocalInput(now, timeZone)}
              disabled={pending}
            />
            <FormField
              control={form.control}
              name="coveringUserId"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Covering team member</FormLabel>
                  {!window ? (
                    <p className="text-muted-foreground text-sm">
                      Choose the window first to see who could cover it.
                    </p>
                  ) : candidates.isPending ? (
                    <Skeleton className="h-9 w-full" />
                  ) : candidates.isError ? (
                    <p role="alert" className="text-destructive text-sm">
                      {getErrorMessage(candidates.error, 'Failed to fetch who could cover.')}
                    </p>
                  ) : (
                    <Select value={field.value} onValueChange={field.onChange} disabled={pending}>
                      <FormControl>
                        <SelectTrigger>
                          <SelectValue placeholder="Select team member" />
                        </SelectTrigger>
                      </FormControl>
                      <SelectContent>
                        {candidates.data.candidates.map((c) => (
                          <SelectItem key={c.user.id} value={String(c.user.id)}>
                            <span>{c.user.name}</span>
                            <span className="text-muted-foreground text-xs">
                              {formatHours(c.onCallHours)} on call in 90 days
                            </span>
                            {c.onTimeOff ? (
                              <Badge variant="outline" className="text-xs">
                                Time off
                              </Badge>
                            ) : null}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  )}
                  <FormDescription className="text-xs">
                    Listed with the fewest on-call hours first; anyone away in the window is marked
                    Time off.
                  </FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <TextareaField
              control={form.control}
              name="notes"
              label="Notes (optional)"
              disabled={pending}
              placeholder="Anything your teammate should know while covering..."
            />
            <DialogFormFooter
              pending={pending}
              submitLabel={arrange ? 'Arrange cover' : 'Ask for cover'}
              pendingLabel={arrange ? 'Arranging...' : 'Asking...'}
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}

/** formatHours writes on-call hours shortly, in whole hours: '0 h', '12 h'. */
function formatHours(hours: number): string {
  return `${Math.round(hours)} h`;
}
