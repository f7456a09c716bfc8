import { type WorkingHoursInput, WorkingHoursSchema } from '@shared/contracts/working-hours';
import { WEEKDAY_SHORT, workingHoursWords } from '@shared/domain/working-hours';
import { useId, useState } from 'react';
import { LoadingState } from '@/components/loading-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ApiRequestError } from '@/lib/api-client';
import { notifyError } from '@/lib/notify';
import { useSaveWorkingHours, useWorkingHours } from '../api/working-hours';

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
type Field = keyof WorkingHoursInput;

/** How the card speaks: to the person on their profile, or of them (`name`) to an administrator. */
interface Voice {
  /** 'your' or 'Ada's' */
  whose: string;
  /** 'you' or 'Ada' */
  who: string;
  /** 'my' or 'their' */
  mine: string;
}

const voiceOf = (name?: string): Voice =>
  name
    ? { whose: `${name}'s`, who: name, mine: 'their' }
    : { whose: 'your', who: 'you', mine: 'my' };

/**
 * WorkingHoursCard: a person's working hours (issue 33, decision 254): the days and the hours in
 * their own zone, and whether low-urgency pages wait for them. High urgency never waits. On the
 * profile it speaks to the person; given `name` (an administrator on /people/{id}, decision 265)
 * it speaks of them.
 */
export function WorkingHoursCard({ userId, name }: { userId: number; name?: string }) {
  const read = useWorkingHours(userId);
  const voice = voiceOf(name);
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Working hours</h2>
        </CardTitle>
        <CardDescription>
          Low-urgency pages outside {voice.whose} working hours can wait until they begin. High
          urgency always reaches {voice.who} at once.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {read.data ? (
          <HoursForm
            key={JSON.stringify(read.data)}
            userId={userId}
            initial={read.data}
            timeZone={read.data.timeZone}
            voice={voice}
          />
        ) : (
          <LoadingState />
        )}
      </CardContent>
    </Card>
  );
}

function HoursForm({
  userId,
  initial,
  timeZone,
  voice,
}: {
  userId: number;
  initial: WorkingHoursInput;
  timeZone: string;
  voice: Voice;
}) {
  const id = useId();
  const save = useSaveWorkingHours(userId, voice.who);
  const [hours, setHours] = useState<WorkingHoursInput>({
    days: initial.days,
    start: initial.start,
    end: initial.end,
    holdLowUrgency: initial.holdLowUrgency,
  });
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const edit = (next: Partial<WorkingHoursInput>) => {
    setHours((current) => ({ ...current, ...next }));
    setProblems({});
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = WorkingHoursSchema.safeParse(hours);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??= issue.message;
      }
      setProblems(found);
      return;
    }
    save.mutate(parsed.data, {
      onError: (error) => {
        const fields = error instanceof ApiRequestError ? error.body?.fields : undefined;
        if (fields) {
          const found: Partial<Record<Field, string>> = {};
          for (const [key, message] of Object.entries(fields)) {
            found[key.split('.')[0] as Field] ??= message;
          }
          setProblems(found);
        } else notifyError('Working hours not saved', error, 'Could not save working hours.');
      },
    });
  };

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate>
      <fieldset className="grid gap-2">
        <legend className="mb-2 font-medium text-sm">Working days</legend>
        {/* biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons */}
        <div role="group" aria-label="Working days" className="flex flex-wrap gap-1">
          {DAY_NAMES.map((day, number) => {
            const on = hours.days.includes(number);
            return (
              <Button
                key={day}
                type="button"
                size="sm"
                variant={on ? 'default' : 'outline'}
                aria-pressed={on}
                aria-label={day}
                className="w-11 px-0"
                onClick={() =>
                  edit({
                    days: on
                      ? hours.days.filter((d) => d !== number)
                      : [...hours.days, number].sort((a, b) => a - b),
                  })
                }
              >
                {WEEKDAY_SHORT[number]}
              </Button>
            );
          })}
        </div>
        {problems.days ? <p className="text-destructive text-sm">{problems.days}</p> : null}
      </fieldset>
      <div className="grid grid-cols-2 gap-3">
        {(['start', 'end'] as const).map((edge) => (
          <div key={edge} className="grid gap-1.5">
            <Label htmlFor={`${id}-${edge}`}>{edge === 'start' ? 'From' : 'Until'}</Label>
            <Input
              id={`${id}-${edge}`}
              type="time"
              step={60}
              value={hours[edge]}
              aria-invalid={problems[edge] ? true : undefined}
              onChange={(e) => edit({ [edge]: e.target.value })}
            />
            {problems[edge] ? <p className="text-destructive text-sm">{problems[edge]}</p> : null}
          </div>
        ))}
      </div>
      <p className="text-muted-foreground text-xs">
        In {voice.mine === 'my' ? 'your' : 'their'} time zone, {timeZone}. An end at or before the
        start runs into the next day.
      </p>
      <div className="flex items-start gap-2">
        <Checkbox
          id={`${id}-hold`}
          checked={hours.holdLowUrgency}
          onCheckedChange={(checked) => edit({ holdLowUrgency: checked === true })}
        />
        <Label htmlFor={`${id}-hold`} className="font-normal leading-snug">
          Hold low-urgency pages until {voice.mine} working hours begin
        </Label>
      </div>
      <p className="text-sm" aria-live="polite">
        {hours.days.length === 0
          ? 'Choose at least one working day.'
          : hours.holdLowUrgency
            ? `Low urgency reaches ${voice.who} ${workingHoursWords(hours)}; outside them it waits.`
            : `Working hours ${workingHoursWords(hours)}; low urgency reaches ${voice.who} at any time.`}
      </p>
      <div>
        <Button type="submit" disabled={save.isPending}>
          Save working hours
        </Button>
      </div>
    </form>
  );
}
