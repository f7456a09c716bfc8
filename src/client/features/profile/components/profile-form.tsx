import { zodResolver } from '@hookform/resolvers/zod';
import {
  NOTIFICATION_PREFERENCE_LABELS,
  PROFILE_NOTIFICATION_PREFERENCES,
  ProfileFormSchema,
  type ProfileFormValues,
  TIMEZONES,
  type User,
} from '@shared/contracts/users';
import { useForm } from 'react-hook-form';
import { InputField, SelectField } from '@/components/form-fields';
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
import { useUpdateProfile } from '../api/update-profile';

/** profileDefaults returns the form's values for a user: timezone UTC and preference email by default. */
function profileDefaults(user: User): ProfileFormValues {
  const preference = (PROFILE_NOTIFICATION_PREFERENCES as readonly string[]).includes(
    user.notificationPreference,
  )
    ? (user.notificationPreference as ProfileFormValues['notificationPreference'])
    : 'email';
  return {
    name: user.name,
    phone: user.phone ?? '',
    timezone: user.timezone || 'UTC',
    notificationPreference: preference,
  };
}

/** ProfileForm edits the signed-in user's name, phone, timezone and notification preference. */
export function ProfileForm({ user }: { user: User }) {
  const updateProfile = useUpdateProfile();
  const form = useForm<ProfileFormValues>({
    resolver: zodResolver(ProfileFormSchema),
    defaultValues: profileDefaults(user),
  });

  return (
    <Form {...form}>
      <form
        noValidate
        className="grid gap-5"
        onSubmit={form.handleSubmit((values) =>
          updateProfile.mutate(values, {
            onSuccess: (saved) => form.reset(profileDefaults(saved)),
          }),
        )}
      >
        <InputField control={form.control} name="name" label="Name" autoComplete="name" />
        <InputField
          control={form.control}
          name="phone"
          label="Phone Number"
          type="tel"
          autoComplete="tel"
          placeholder="+1 555 010 0000"
        />
        <FormField
          control={form.control}
          name="timezone"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Timezone</FormLabel>
              <FormControl>
                <TimeZonePicker
                  value={field.value}
                  onChange={field.onChange}
                  pinned={TIMEZONES}
                  disabled={updateProfile.isPending}
                />
              </FormControl>
              <FormDescription>Baton shows every time in this zone.</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <SelectField
          control={form.control}
          name="notificationPreference"
          label="Notification Preference"
          options={PROFILE_NOTIFICATION_PREFERENCES}
          optionLabel={(preference) => NOTIFICATION_PREFERENCE_LABELS[preference]}
          placeholder="Select a preference"
        />
        <div>
          <Button type="submit" pending={updateProfile.isPending}>
            {updateProfile.isPending ? 'Saving...' : 'Save Changes'}
          </Button>
        </div>
      </form>
    </Form>
  );
}
