import { TZDate } from '@date-fns/tz';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Rotation } from '@shared/contracts/rotations';
import { membersInOrder } from '@shared/domain/rotation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormDialog } from '@/components/form-dialog';
import { DialogFormFooter } from '@/components/form-fields';
import { PersonField } from '@/components/person-field';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { formatDuration } from '@/lib/format-time';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';
import { useCreateSchedule } from '../api/create-schedule';
import {
  NO_REPEAT,
  type RepeatValues,
  recurrenceOf,
  repeatProblem,
  repeatWords,
  weekdayIn,
} from '../lib/repeat-form';
import { ScheduleFormSchema, type ScheduleFormValues } from '../lib/schedule-form';
import {
  DURATION_PRESETS,
  dayIn,
  HOURS_12,
  isBeforeStartDay,
  isPastDay,
  type Meridiem,
  MINUTES,
  pickEndDay,
  pickStartDay,
  roundToMinuteStep,
  START_PRESETS,
  to12Hour,
  to24Hour,
  withClockTime,
} from '../lib/schedule-picker';
import { RepeatFields } from './repeat-fields';
import { DayPickerButton, PresetChips } from './schedule-picker-parts';

const EMPTY: ScheduleFormValues = { userId: '', startTime: '', endTime: '' };

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * AddScheduleDialog adds a schedule entry: a member and a window picked with the date and time
 * rules of specification section 5 (no past start days, 12:00 default start, end 24 hours later,
 * time presets, custom time in 5-minute steps, duration presets), in the signed-in user's zone.
 */
export function AddScheduleDialog({
  rotation,
  open,
  onOpenChange,
}: {
  rotation: Rotation;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const fmt = useTimeFormat();
  const createSchedule = useCreateSchedule();
  const form = useForm<ScheduleFormValues>({
    resolver: zodResolver(ScheduleFormSchema),
    defaultValues: EMPTY,
  });
  const [startOpen, setStartOpen] = useState(false);
  const [endOpen, setEndOpen] = useState(false);
  const [repeat, setRepeat] = useState<RepeatValues>(NO_REPEAT);
  const [repeatTried, setRepeatTried] = useState(false);
  const pending = createSchedule.isPending;
  const people = membersInOrder(rotation.members).map((m) => m.user);
  const errors = form.formState.errors;
  const [userId, startTime, endTime] = form.watch(['userId', 'startTime', 'endTime']);
  // The form keeps instants (ISO); the pickers work on days and clock times in the viewer's zone.
  const start = startTime ? new TZDate(Date.parse(startTime), fmt.timeZone) : null;
  const end = endTime ? new TZDate(Date.parse(endTime), fmt.timeZone) : null;

  // A TZDate writes its zone's offset; the form (and the API) get the instant in UTC.
  const instant = (at: Date) => new Date(at.getTime()).toISOString();
  const changeStart = (next: Date) => {
    form.setValue('startTime', instant(next));
    form.clearErrors(['startTime', 'endTime']);
  };
  const changeEnd = (next: Date) => {
    form.setValue('endTime', instant(next));
    form.clearErrors('endTime');
  };

  const clock = start ? to12Hour(start.getHours()) : null;
  const setClock = (hour12: number, minute: number, meridiem: Meridiem) => {
    if (start) changeStart(withClockTime(start, to24Hour(hour12, meridiem), minute));
  };

  const chosen = people.find((p) => String(p.id) === userId);

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      onClose={() => {
        form.reset(EMPTY);
        setRepeat(NO_REPEAT);
        setRepeatTried(false);
      }}
    >
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Add schedule</DialogTitle>
          <DialogDescription>
            Choose who holds the baton of {rotation.name}, and when. Times are in your time zone (
            {fmt.timeZone}).{fmt.unsupported ? ` ${fmt.timesIn}.` : null}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-5"
            onSubmit={form.handleSubmit((values) => {
              setRepeatTried(true);
              if (repeatProblem(repeat)) return;
              createSchedule.mutate(
                {
                  rotationId: rotation.id,
                  userId: Number(values.userId),
                  startTime: values.startTime,
                  endTime: values.endTime,
                  recurrence: recurrenceOf(repeat),
                },
                {
                  onSuccess: () => {
                    form.reset(EMPTY);
                    setRepeat(NO_REPEAT);
                    setRepeatTried(false);
                    onOpenChange(false);
                  },
                },
              );
            })}
          >
            <PersonField
              control={form.control}
              name="userId"
              label="Team member"
              people={people}
              disabled={pending}
              emptyText="Add members to the rotation before scheduling them."
            />

            <fieldset className="grid gap-3" disabled={pending}>
              <legend
                className={cn('mb-2 font-medium text-sm', errors.startTime && 'text-destructive')}
              >
                Start
              </legend>
              <DayPickerButton
                which="start"
                value={start}
                formatDay={fmt.date}
                timeZone={fmt.timeZone}
                open={startOpen}
                onOpenChange={setStartOpen}
                invalid={Boolean(errors.startTime)}
                defaultMonth={start ?? undefined}
                isDayDisabled={(day) =>
                  isPastDay(dayIn(day, fmt.timeZone), new TZDate(Date.now(), fmt.timeZone))
                }
                onPick={(day) => {
                  const picked = pickStartDay(dayIn(day, fmt.timeZone), end);
                  changeStart(picked.start);
                  form.setValue('endTime', instant(picked.end));
                  setStartOpen(false);
                }}
              />
              <div className="grid gap-2">
                <PresetChips
                  legend="Start time"
                  disabled={!start}
                  presets={START_PRESETS.map((preset) => ({
                    label: preset.label,
                    active:
                      start?.getHours() === preset.hour && start.getMinutes() === preset.minute,
                    onPick: () =>
                      start && changeStart(withClockTime(start, preset.hour, preset.minute)),
                  }))}
                />
                <div className="flex items-center gap-2">
                  <Select
                    value={clock ? String(clock.hour) : ''}
                    onValueChange={(v) =>
                      clock && start && setClock(Number(v), start.getMinutes(), clock.meridiem)
                    }
                    disabled={!start}
                  >
                    <SelectTrigger className="w-20" aria-label="Start hour" size="sm">
                      <SelectValue placeholder="Hour" />
                    </SelectTrigger>
                    <SelectContent>
                      {HOURS_12.map((h) => (
                        <SelectItem key={h} value={String(h)}>
                          {h}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <span aria-hidden="true" className="text-muted-foreground">
                    :
                  </span>
                  <Select
                    value={start ? String(roundToMinuteStep(start.getMinutes())) : ''}
                    onValueChange={(v) => clock && setClock(clock.hour, Number(v), clock.meridiem)}
                    disabled={!start}
                  >
                    <SelectTrigger className="w-20" aria-label="Start minute" size="sm">
                      <SelectValue placeholder="Min" />
                    </SelectTrigger>
                    <SelectContent>
                      {MINUTES.map((m) => (
                        <SelectItem key={m} value={String(m)}>
                          {pad(m)}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <Select
                    value={clock?.meridiem ?? ''}
                    onValueChange={(v) =>
                      clock && start && setClock(clock.hour, start.getMinutes(), v as Meridiem)
                    }
                    disabled={!start}
                  >
                    <SelectTrigger className="w-20" aria-label="AM or PM" size="sm">
                      <SelectValue placeholder="AM" />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value="AM">AM</SelectItem>
                      <SelectItem value="PM">PM</SelectItem>
                    </SelectContent>
                  </Select>
                </div>
              </div>
              {errors.startTime ? (
                <p className="text-destructive text-sm">{errors.startTime.message}</p>
              ) : null}
            </fieldset>

            <fieldset className="grid gap-3" disabled={pending}>
              <legend
                className={cn('mb-2 font-medium text-sm', errors.endTime && 'text-destructive')}
              >
                End
              </legend>
              <DayPickerButton
                which="end"
                value={end}
                formatDay={fmt.date}
                timeZone={fmt.timeZone}
                open={endOpen}
                onOpenChange={setEndOpen}
                invalid={Boolean(errors.endTime)}
                disabled={!start}
                defaultMonth={end ?? start ?? undefined}
                isDayDisabled={(day) => isBeforeStartDay(dayIn(day, fmt.timeZone), start)}
                onPick={(day) => {
                  if (!start) return;
                  changeEnd(pickEndDay(dayIn(day, fmt.timeZone), start));
                  setEndOpen(false);
                }}
              />
              <div className="grid gap-2">
                <PresetChips
                  legend="Duration"
                  disabled={!start}
                  presets={DURATION_PRESETS.map((preset) => {
                    const target = start ? preset.add(start) : null;
                    return {
                      label: preset.label,
                      active: Boolean(target && end && target.getTime() === end.getTime()),
                      onPick: () => target && changeEnd(target),
                    };
                  })}
                />
              </div>
              {errors.endTime ? (
                <p className="text-destructive text-sm">{errors.endTime.message}</p>
              ) : null}
            </fieldset>

            <RepeatFields
              value={repeat}
              onChange={(next) => {
                // Weekly starts on the start's own weekday, in the rotation's zone.
                const weekdays =
                  next.frequency === 'weekly' && next.weekdays.length === 0 && start
                    ? [weekdayIn(start, rotation.timeZone)]
                    : next.weekdays;
                setRepeat({ ...next, weekdays });
              }}
              words={repeatWords(repeat, start, end, rotation.timeZone)}
              timeZoneNote={rotation.timeZone === fmt.timeZone ? null : `${rotation.timeZone} time`}
              disabled={pending}
              showProblem={repeatTried}
            />

            {start && end && end > start ? (
              <p className="rounded-md bg-muted px-3 py-2 text-muted-foreground text-sm">
                {chosen ? (
                  <span className="font-medium text-foreground">{chosen.name}</span>
                ) : (
                  'On call'
                )}{' '}
                from {fmt.dateTime(start)} until {fmt.dateTime(end)} ({formatDuration(start, end)}).
              </p>
            ) : null}

            <DialogFormFooter
              pending={pending}
              submitLabel="Add schedule"
              pendingLabel="Adding..."
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
