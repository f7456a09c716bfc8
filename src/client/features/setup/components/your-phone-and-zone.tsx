import { zodResolver } from '@hookform/resolvers/zod';
import { SetupYouFormSchema, type SetupYouFormValues } from '@shared/contracts/setup';
import { TIMEZONES, type User } from '@shared/contracts/users';
import { useForm } from 'react-hook-form';
import { InputField } from '@/components/form-fields';
import { TimeZonePicker } from '@/components/time-zone-picker';
import { Button } from '@/components/ui/button';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { browserTimeZone } from '@/lib/format-time';
import { currentZoneName } from '@/lib/time-zones';
import { useSaveYou } from '../api/save-you';

/** The zone to offer: the saved one once chosen, else the browser's (never UTC by default). */
function offeredZone(saved: string): string {
  if (saved && saved !== 'UTC') return saved;
  const browser = currentZoneName(browserTimeZone());
  return browser === 'Etc/UTC' ? 'UTC' : browser;
}

/**
 * YourPhoneAndZone asks the administrator for their own phone and time zone on the checklist
 * (issue 35, decision 258): the zone prefilled from the browser's, not left at UTC, saved with
 * the profile API. Shown while their phone is missing or their zone is still the default UTC.
 */
export function YourPhoneAndZone({ user }: { user: User }) {
  const save = useSaveYou(user.id);
  const form = useForm<SetupYouFormValues>({
    resolver: zodResolver(SetupYouFormSchema),
    defaultValues: { phone: user.phone ?? '', timezone: offeredZone(user.timezone) },
  });
  return (
    <Form {...form}>
      <form
        noValidate
        aria-label="Your phone and time zone"
        className="grid gap-3 rounded-lg border bg-muted/40 p-2.5 sm:grid-cols-2 sm:items-start sm:p-3"
        onSubmit={form.handleSubmit((values) => save.mutate(values))}
      >
        <p className="font-medium text-sm sm:col-span-2">Start with yourself</p>
        <InputField
          control={form.control}
          name="phone"
          label="Phone Number"
          type="tel"
          autoComplete="tel"
          placeholder="+1 555 010 0000"
          description="Pages and the test page reach it by SMS."
        />
        <FormField
          control={form.control}
          name="timezone"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Time zone</FormLabel>
              <FormControl>
                <TimeZonePicker
                  value={field.value}
                  onChange={field.onChange}
                  pinned={TIMEZONES}
                  disabled={save.isPending}
                />
              </FormControl>
              <FormDescription className="text-xs">
                {user.timezone === 'UTC'
                  ? 'Yours is still UTC, the default; this is the zone your browser is in.'
                  : 'Baton shows every time in this zone.'}
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="sm:col-span-2">
          <Button type="submit" size="sm" pending={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save phone and time zone'}
          </Button>
        </div>
      </form>
    </Form>
  );
}
