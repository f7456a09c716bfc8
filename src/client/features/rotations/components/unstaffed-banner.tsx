import type { Rotation } from '@shared/contracts/rotations';
import { UserRoundX } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useAuth } from '@/lib/use-auth';
import { unstaffedRotations, unstaffedText } from '../lib/rotation-view';

/**
 * UnstaffedBanner flags to their managers the rotations with members and nobody on call
 * (decision 263), each linked to its page, where a member takes the baton or a manager reassigns.
 */
export function UnstaffedBanner({ rotations }: { rotations: readonly Rotation[] }) {
  const { user, roles } = useAuth();
  const flagged = unstaffedRotations(rotations, user?.id ?? null, roles);
  const text = unstaffedText(flagged);
  if (!text) return null;
  return (
    <Alert tone="warning">
      <UserRoundX aria-hidden="true" />
      <AlertTitle className="line-clamp-none">{text}</AlertTitle>
      <AlertDescription>
        <p>
          Pages to {flagged.length === 1 ? 'it' : 'them'} go on to the next step of the escalation
          policy. Reassign the baton, or ask a member to take it.
        </p>
        <ul className="flex flex-wrap gap-x-4 gap-y-1">
          {flagged.map((r) => (
            <li key={r.id}>
              <Link to={`/rotations/${r.id}`} className="font-medium underline underline-offset-4">
                {r.name}
              </Link>
            </li>
          ))}
        </ul>
      </AlertDescription>
    </Alert>
  );
}
