import type { User } from '@shared/contracts/users';
import { notificationRoute } from '@shared/domain/notification-routing';
import { Info } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

/**
 * NotificationStatusNote says why a user's notifications do not go where they chose (SMS without
 * a usable phone number goes by email); it shows nothing when all is as chosen. It reads the same
 * shared rule the server delivers by, from the user as cached, so it follows every save at once.
 */
export function NotificationStatusNote({
  user,
}: {
  user: Pick<User, 'notificationPreference' | 'phone'>;
}) {
  const { note } = notificationRoute(user.notificationPreference, user.phone);
  if (!note) return null;
  return (
    <Alert className="mt-4">
      <Info aria-hidden />
      <AlertTitle>Notifications go by email</AlertTitle>
      <AlertDescription>{note}</AlertDescription>
    </Alert>
  );
}
