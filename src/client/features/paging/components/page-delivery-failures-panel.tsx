import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useTimeFormat } from '@/lib/use-time-format';
import { usePageDeliveryFailures } from '../api/get-page-delivery-failures';
import { notDeliveredText } from '../lib/delivery-failure-text';

/**
 * PageDeliveryFailuresPanel tells the signed-in user that a page they sent, still open, could not
 * be delivered to someone (decision 163): to whom, by which channel, why, and what was sent
 * instead, with a link to the page's history. It shows nothing while all is well.
 */
export function PageDeliveryFailuresPanel() {
  const fmt = useTimeFormat();
  const failures = usePageDeliveryFailures();
  const list = failures.data ?? [];
  if (list.length === 0) return null;
  return (
    <Alert variant="destructive" aria-labelledby="page-delivery-failures-title">
      <TriangleAlert aria-hidden />
      <AlertTitle id="page-delivery-failures-title">
        {list.length === 1
          ? 'A page you sent was not delivered'
          : `${list.length} notifications of pages you sent were not delivered`}
      </AlertTitle>
      <AlertDescription>
        <ul className="grid gap-1.5">
          {list.map((failure) => (
            <li key={failure.id}>
              <Link
                to={`/pages?rotation=${failure.rotation.id}`}
                className="font-medium underline underline-offset-4"
              >
                {failure.rotation.name}
              </Link>{' '}
              (<time dateTime={failure.at}>{fmt.dateTime(failure.at)}</time>):{' '}
              {notDeliveredText(failure)}
            </li>
          ))}
        </ul>
        <p className="mt-1.5">
          The page is still open. Reach them another way, or escalate it to the next person.
        </p>
      </AlertDescription>
    </Alert>
  );
}
