import type { PersonReach } from '@shared/contracts/reachability';
import { METHOD_LABELS } from '@shared/domain/notification-rules';
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

export function MethodBadges({ person }: { person: PersonReach }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label={`How ${person.name} can be reached`}>
      {person.methods.map(({ method, whyNot }) => (
        <li key={method}>
          <Badge
            variant={whyNot ? 'outline' : 'secondary'}
            title={whyNot ?? `${METHOD_LABELS[method]} reaches them`}
            className={whyNot ? 'text-muted-foreground line-through decoration-1' : undefined}
          >
            {METHOD_LABELS[method]}
            <span className="sr-only">{whyNot ? `: no, ${whyNot}` : ': yes'}</span>
          </Badge>
        </li>
      ))}
    </ul>
  );
}
