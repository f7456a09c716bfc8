import type { NotificationTestResult } from '@shared/contracts/notification-test';
import {
  hasUsablePhone,
  METHOD_LABELS,
  type NotificationMethod,
} from '@shared/domain/notification-rules';
import { CheckCircle2, CircleAlert, CircleSlash } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiRequestError } from '@/lib/api-client';
import { useSendTest } from '../api/notification-test';

/** Where each method goes, in words, for the person's own list. */
function methodsOf(person: { email: string; phone: string | null }): {
  method: NotificationMethod;
  to: string;
}[] {
  return [
    { method: 'email', to: person.email },
    ...(hasUsablePhone(person.phone) ? [{ method: 'sms' as const, to: person.phone ?? '' }] : []),
  ];
}

const OUTCOME_ICON = {
  delivered: CheckCircle2,
  failed: CircleAlert,
  'not-set-up': CircleSlash,
} as const;

/**
 * SendTestCard: "Send a test" for each way the person can be reached (issue 33, decision 254),
 * each with its outcome beside the button: delivered, failed with the provider's reason, or not
 * set up. Calls and push appear here as their steps add them.
 */
export function SendTestCard({
  person,
}: {
  person: { id: number; email: string; phone: string | null };
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Test how Baton reaches you</h2>
        </CardTitle>
        <CardDescription>
          Send yourself a short test by each way you can be reached, and see that it arrives.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3">
          {methodsOf(person).map(({ method, to }) => (
            <TestRow key={method} userId={person.id} method={method} to={to} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function TestRow({
  userId,
  method,
  to,
}: {
  userId: number;
  method: NotificationMethod;
  to: string;
}) {
  const send = useSendTest(userId);
  const [result, setResult] = useState<NotificationTestResult | { refused: string } | null>(null);
  const label = METHOD_LABELS[method];
  return (
    <li className="grid gap-1 sm:grid-cols-[8rem_1fr_auto] sm:items-center sm:gap-3">
      <span className="font-medium text-sm">{label}</span>
      <span className="truncate text-muted-foreground text-sm">{to}</span>
      <Button
        type="button"
        variant="outline"
        size="sm"
        aria-label={`Send a test ${label.toLowerCase() === 'sms' ? 'SMS' : label.toLowerCase()}`}
        disabled={send.isPending}
        onClick={() =>
          send.mutate(
            { method },
            {
              onSuccess: setResult,
              onError: (error) =>
                setResult({
                  refused:
                    error instanceof ApiRequestError && error.body?.message
                      ? error.body.message
                      : error.message,
                }),
            },
          )
        }
      >
        {send.isPending ? 'Sending…' : 'Send a test'}
      </Button>
      {result ? (
        <p role="status" className="flex items-center gap-1.5 text-sm sm:col-span-3">
          {'refused' in result ? (
            <>
              <CircleAlert aria-hidden="true" className="size-4 text-amber-600" />
              {result.refused}
            </>
          ) : (
            <>
              <Outcome outcome={result.outcome} />
              {result.outcome === 'delivered'
                ? `${result.message}: check that it arrived.`
                : result.outcome === 'failed'
                  ? `Not delivered: ${result.message}`
                  : `Not set up: ${result.message}`}
            </>
          )}
        </p>
      ) : null}
    </li>
  );
}

function Outcome({ outcome }: { outcome: NotificationTestResult['outcome'] }) {
  const Icon = OUTCOME_ICON[outcome];
  const tone =
    outcome === 'delivered'
      ? 'text-emerald-600 dark:text-emerald-400'
      : outcome === 'failed'
        ? 'text-destructive'
        : 'text-muted-foreground';
  return <Icon aria-hidden="true" className={`size-4 shrink-0 ${tone}`} />;
}
