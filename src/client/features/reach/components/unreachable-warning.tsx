import { reachGapWords } from '@shared/domain/reachability';
import { PhoneOff } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useReachability } from '../api/reachability';

/**
 * UnreachableWarning warns managers and administrators, beside the gap warnings on the dashboard,
 * of each person they look after whom no notification rule of an urgency can reach: "Una Lee
 * cannot be reached: high urgency: SMS needs a phone number on the profile" (issue 33, decision
 * 254). Such a page goes by email instead; this says so before it matters.
 */
export function UnreachableWarning({ enabled }: { enabled: boolean }) {
  const reach = useReachability(enabled);
  const unreachable = (reach.data?.people ?? []).filter((p) => p.gaps.length > 0);
  if (!enabled || unreachable.length === 0) return null;
  return (
    <Alert tone="warning">
      <PhoneOff aria-hidden="true" />
      <AlertTitle className="line-clamp-none">
        Some people cannot be reached as they chose
      </AlertTitle>
      <AlertDescription>
        <ul className="grid gap-1">
          {unreachable.map((p) => (
            <li key={p.id}>
              {p.name} cannot be reached: {reachGapWords(p.gaps)}. Their pages go by email instead
              until they fix their profile.
            </li>
          ))}
        </ul>
      </AlertDescription>
    </Alert>
  );
}
