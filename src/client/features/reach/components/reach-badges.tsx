import type { PersonReach } from '@shared/contracts/reachability';
import { METHOD_LABELS, type NotificationMethod } from '@shared/domain/notification-rules';
import { Badge } from '@/components/ui/badge';
import { useReachability } from '../api/reachability';

/**
 * ReachBadges: the ways a person can be reached, one badge each (Email, SMS, Phone call, Push),
 * those that cannot reach them struck through with why (issue 33, decision 254). Administrators
 * see them for everyone on the users screen.
 */
export function ReachBadges({ userId }: { userId: number }) {
  const reach = useReachability();
  const person = reach.data?.people.find((p) => p.id === userId);
  if (!person) return null;
  return <MethodBadges person={person} />;
}

/** The badges' short names: Email, SMS, Call, Push. */
const BADGE_LABELS: Record<NotificationMethod, string> = {
  email: 'Email',
  sms: 'SMS',
  voice: 'Call',
  push: 'Push',
};

export function MethodBadges({ person }: { person: PersonReach }) {
  return (
    <ul className="grid w-max grid-cols-2 gap-1" aria-label={`How ${person.name} can be reached`}>
      {person.methods.map(({ method, whyNot }) => (
        <li key={method}>
          <Badge
            variant={whyNot ? 'outline' : 'secondary'}
            title={whyNot ?? `${METHOD_LABELS[method]} reaches them`}
            className={whyNot ? 'text-muted-foreground line-through decoration-1' : undefined}
          >
            {BADGE_LABELS[method]}
            <span className="sr-only">{whyNot ? `: no, ${whyNot}` : ': yes'}</span>
          </Badge>
        </li>
      ))}
    </ul>
  );
}
