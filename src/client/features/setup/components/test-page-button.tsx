import type { NotificationTestResult } from '@shared/contracts/notification-test';
import type { SetupStep } from '@shared/contracts/setup';
import type { User } from '@shared/contracts/users';
import { METHOD_LABELS } from '@shared/domain/notification-rules';
import { CheckCircle2, CircleAlert, CircleSlash, Send } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useSendTestPage } from '../api/send-test-page';

const OUTCOME_ICON = {
  delivered: CheckCircle2,
  failed: CircleAlert,
  'not-set-up': CircleSlash,
} as const;

/** outcomeWords says what became of one way of the test page. */
function outcomeWords(result: NotificationTestResult): string {
  if (result.outcome === 'delivered') return `${result.message}: check that it arrived.`;
  if (result.outcome === 'failed') return `Not delivered: ${result.message}`;
  return `Not set up: ${result.message}`;
}

/**
 * TestPageButton is the checklist's last step: "Send a test page to me" sends the administrator
 * a test by email and by SMS at once (the profile's "Send a test", decision 254) and says, for
 * each, whether it went, so they look for it on their own phone and in their own inbox. Calls and
 * push are tested on the profile, which the step links to.
 */
export function TestPageButton({ user, step }: { user: User; step: SetupStep }) {
  const send = useSendTestPage();
  return (
    <div className="grid gap-2">
      <div>
        <Button
          type="button"
          size="sm"
          variant={step.done ? 'outline' : 'default'}
          pending={send.isPending}
          onClick={() => send.mutate()}
        >
          {send.isPending ? null : <Send aria-hidden="true" />}
          {send.isPending ? 'Sending…' : 'Send a test page to me'}
        </Button>
      </div>
      <p className="text-muted-foreground text-xs">
        To {user.email}
        {user.phone ? ` and ${user.phone}` : ', and by SMS once your phone number is saved'}. Calls
        and push:{' '}
        <Link to={step.href} className="underline underline-offset-2 hover:text-foreground">
          {step.action.toLowerCase()}
        </Link>
        .
      </p>
      {send.data ? (
        <ul className="grid gap-1" aria-label="Test page outcomes">
          {send.data.results.map((result) => {
            const Icon = OUTCOME_ICON[result.outcome];
            return (
              <li key={result.method} role="status" className="flex items-start gap-1.5 text-sm">
                <Icon
                  aria-hidden="true"
                  className={
                    result.outcome === 'delivered'
                      ? 'mt-0.5 size-4 shrink-0 text-success-foreground'
                      : result.outcome === 'failed'
                        ? 'mt-0.5 size-4 shrink-0 text-destructive'
                        : 'mt-0.5 size-4 shrink-0 text-muted-foreground'
                  }
                />
                <span>
                  {METHOD_LABELS[result.method]}: {outcomeWords(result)}
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
      {send.isError ? (
        <p role="alert" className="text-destructive text-sm">
          {getErrorMessage(send.error, 'The test page could not be sent.')}
        </p>
      ) : null}
    </div>
  );
}
