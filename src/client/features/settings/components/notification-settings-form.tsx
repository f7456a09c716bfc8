import {
  DEFAULT_NOTIFICATION_TYPE_CHOICE,
  NOTIFICATION_TYPE_CHOICES,
  type NotificationTypeChoice,
} from '@shared/contracts/settings';
import type { User } from '@shared/contracts/users';
import type { NotificationPreference } from '@shared/domain/notification-routing';
import { Info } from 'lucide-react';
import { useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
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
import { useUpdateNotificationPreference } from '../api/update-notification-preference';
import { NOT_AVAILABLE_YET } from '../lib/not-available';

const PREFERENCE_OPTIONS: { value: NotificationPreference; label: string }[] = [
  { value: 'email', label: 'Email only' },
  { value: 'sms', label: 'SMS only' },
  { value: 'both', label: 'Both Email and SMS' },
];

const CHOICE_LABELS: Record<NotificationTypeChoice, string> = {
  email: 'Email',
  sms: 'SMS',
  both: 'Both',
  none: 'None',
};

const NOTIFICATION_TYPES = [
  { id: 'handoffs', label: 'Baton handoffs', description: 'When the baton is passed to you.' },
  {
    id: 'reminders',
    label: 'Handoff reminders and escalations',
    description: 'Before your shift ends, and when a handoff is late.',
  },
  { id: 'pages', label: 'Page alerts', description: 'When someone pages you while on call.' },
  {
    id: 'coverage',
    label: 'Coverage requests',
    description: 'When a teammate asks you to cover their shift.',
  },
] as const;

const PER_TYPE_NOTE_ID = 'notify-types-unavailable';

/**
 * NotificationSettingsForm saves the notification preference (through PATCH /api/users/{id}) and
 * shows the per-type choices, which specification section 9 says are not saved: they are
 * disabled at their default and say 'Not available yet', the note tied to each by
 * aria-describedby (decision 188).
 */
export function NotificationSettingsForm({ user }: { user: User }) {
  const [preference, setPreference] = useState<NotificationPreference>(user.notificationPreference);
  const save = useUpdateNotificationPreference();
  const options = PREFERENCE_OPTIONS.some((o) => o.value === user.notificationPreference)
    ? PREFERENCE_OPTIONS
    : [...PREFERENCE_OPTIONS, { value: user.notificationPreference, label: 'All channels' }];

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ userId: user.id, notificationPreference: preference });
      }}
    >
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Notifications</h2>
          </CardTitle>
          <CardDescription>
            How Baton reaches you about handoffs, pages and coverage.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <div className="grid max-w-sm gap-2">
            <Label htmlFor="settings-preference">Notification preference</Label>
            <Select
              value={preference}
              onValueChange={(value) => setPreference(value as NotificationPreference)}
            >
              <SelectTrigger id="settings-preference">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {options.map((option) => (
                  <SelectItem key={option.value} value={option.value}>
                    {option.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>

          <fieldset className="grid gap-4" disabled>
            <legend className="mb-2 flex flex-wrap items-center gap-2 font-medium text-sm">
              By notification type
              <Badge variant="outline">{NOT_AVAILABLE_YET}</Badge>
            </legend>
            <Alert id={PER_TYPE_NOTE_ID}>
              <Info aria-hidden="true" />
              <AlertDescription>
                {NOT_AVAILABLE_YET}. These per-type choices are not saved yet: your notification
                preference above applies to every notification.
              </AlertDescription>
            </Alert>
            {NOTIFICATION_TYPES.map((type) => (
              <div
                key={type.id}
                className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="opacity-70">
                  <Label htmlFor={`notify-${type.id}`}>{type.label}</Label>
                  <p className="text-muted-foreground text-sm">{type.description}</p>
                </div>
                <Select value={DEFAULT_NOTIFICATION_TYPE_CHOICE} disabled>
                  <SelectTrigger
                    id={`notify-${type.id}`}
                    className="sm:w-36"
                    aria-describedby={PER_TYPE_NOTE_ID}
                  >
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {NOTIFICATION_TYPE_CHOICES.map((choice) => (
                      <SelectItem key={choice} value={choice}>
                        {CHOICE_LABELS[choice]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </div>
            ))}
          </fieldset>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" pending={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save Preferences'}
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
}
