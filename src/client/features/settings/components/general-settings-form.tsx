import {
  HANDOFF_REMINDER_MINUTES,
  type HandoffReminderMinutes,
  handoffReminderLabel,
  SETTINGS_TIMEZONES,
  type UserSettings,
} from '@shared/contracts/settings';
import type { TIMEZONES } from '@shared/contracts/users';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { useUpdateUserSettings } from '../api/update-user-settings';

type TimeZone = (typeof TIMEZONES)[number];

/** GeneralSettingsForm edits the time zone and the handoff reminder, saved for the user. */
export function GeneralSettingsForm({ settings }: { settings: UserSettings }) {
  const [timezone, setTimezone] = useState(settings.timezone);
  const [reminder, setReminder] = useState(String(settings.handoffReminderMinutes));
  const save = useUpdateUserSettings();
  // A zone chosen on the profile that this shorter list lacks stays selectable, as it is.
  const zones = SETTINGS_TIMEZONES.some((z) => z.value === settings.timezone)
    ? SETTINGS_TIMEZONES
    : [
        ...SETTINGS_TIMEZONES,
        { value: settings.timezone, label: `${settings.timezone} (current)` },
      ];

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({
          timezone: timezone as TimeZone,
          handoffReminderMinutes: Number(reminder) as HandoffReminderMinutes,
        });
      }}
    >
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>General</h2>
          </CardTitle>
          <CardDescription>Your time zone and when Baton reminds you to hand off.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor="settings-timezone">Time zone</Label>
            <Select value={timezone} onValueChange={setTimezone}>
              <SelectTrigger id="settings-timezone" aria-describedby="settings-timezone-help">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {zones.map((zone) => (
                  <SelectItem key={zone.value} value={zone.value}>
                    {zone.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <p id="settings-timezone-help" className="text-muted-foreground text-sm">
              Rotations you create start in this zone. Your profile shows the same setting.
            </p>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="settings-reminder">Handoff reminder</Label>
            <Select value={reminder} onValueChange={setReminder}>
              <SelectTrigger id="settings-reminder" aria-describedby="settings-reminder-help">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {HANDOFF_REMINDER_MINUTES.map((minutes) => (
                  <SelectItem key={minutes} value={String(minutes)}>
                    {handoffReminderLabel(minutes)} before
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <p id="settings-reminder-help" className="text-muted-foreground text-sm">
              How long before your shift ends Baton sends you the handoff notice (default 30
              minutes).
            </p>
          </div>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" pending={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save Changes'}
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
}
