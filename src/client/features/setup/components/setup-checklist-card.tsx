import type { SetupStep } from '@shared/contracts/setup';
import type { User } from '@shared/contracts/users';
import { CheckCircle2, Circle, X } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { useAuth } from '@/lib/use-auth';
import { cn } from '@/lib/utils';
import { useDismissSetup } from '../api/dismiss-setup';
import { useSetupChecklist } from '../api/get-setup';
import { TestPageButton } from './test-page-button';
import { YourPhoneAndZone } from './your-phone-and-zone';

/** needsYou tells whether the administrator's own phone or zone is still missing. */
const needsYou = (user: User) => !user.phone || user.timezone === 'UTC';

/**
 * SetupChecklistCard leads an administrator's dashboard until they dismiss it (issue 35, decision
 * 258): invite the team, people add their phone and zone (starting with the administrator's own,
 * the zone offered from the browser), a rotation with its members, an escalation policy, an
 * integration, and a test page to oneself. Each step is ticked from what the server holds and
 * links to the screen that does it.
 */
export function SetupChecklistCard() {
  const { user, isAdmin } = useAuth();
  const checklist = useSetupChecklist(isAdmin);
  const dismiss = useDismissSetup();
  if (!isAdmin || !user || !checklist.data || checklist.data.dismissed) return null;
  const { steps, complete } = checklist.data;
  const done = steps.filter((s) => s.done).length;
  return (
    <section aria-labelledby="setup-checklist-title">
      <Card className="gap-4">
        <CardHeader>
          <CardTitle asChild>
            <h2 id="setup-checklist-title">{complete ? 'Baton is set up' : 'Set up Baton'}</h2>
          </CardTitle>
          <CardDescription>
            {complete
              ? 'Every step is done. Dismiss this checklist when you no longer need it.'
              : 'What a new team does first. Each step is ticked when Baton sees it done.'}
          </CardDescription>
          <CardAction className="flex items-center gap-2">
            <Badge tone={complete ? 'success' : 'info'}>
              {done} of {steps.length} done
            </Badge>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              pending={dismiss.isPending}
              onClick={() => dismiss.mutate()}
              aria-label="Dismiss the setup checklist"
            >
              {dismiss.isPending ? null : <X aria-hidden="true" />}
              <span className="max-sm:sr-only">Dismiss</span>
            </Button>
          </CardAction>
        </CardHeader>
        <CardContent className="grid gap-3">
          {complete ? null : (
            <p className="text-muted-foreground text-sm">
              Moving from PagerDuty, Opsgenie or Grafana OnCall?{' '}
              <Link
                to="/settings?tab=import"
                className="font-medium text-foreground underline underline-offset-2"
              >
                Import your team
              </Link>{' '}
              with its schedules, policies and integrations instead.
            </p>
          )}
          <ol className="grid gap-3" aria-label="Setup steps">
            {steps.map((step, index) => (
              <StepItem key={step.id} step={step} number={index + 1}>
                {step.id === 'people' && needsYou(user) ? <YourPhoneAndZone user={user} /> : null}
                {step.id === 'test-page' ? <TestPageButton user={user} step={step} /> : null}
              </StepItem>
            ))}
          </ol>
        </CardContent>
      </Card>
    </section>
  );
}

function StepItem({
  step,
  number,
  children,
}: {
  step: SetupStep;
  number: number;
  children?: React.ReactNode;
}) {
  const Icon = step.done ? CheckCircle2 : Circle;
  return (
    <li
      className={cn(
        'grid grid-cols-[auto_1fr] gap-x-3 gap-y-2 rounded-lg border p-3',
        step.done && 'bg-muted/40',
      )}
    >
      <Icon
        aria-hidden="true"
        className={cn(
          'mt-0.5 size-5',
          step.done ? 'text-success-foreground' : 'text-muted-foreground',
        )}
      />
      <div className="grid min-w-0 gap-1 sm:grid-cols-[1fr_auto] sm:items-start sm:gap-x-4">
        <div className="grid gap-0.5">
          <h3 className="font-medium text-sm">
            {number}. {step.title}
            <span className="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
          </h3>
          <p className="text-muted-foreground text-sm">{step.detail}</p>
        </div>
        {step.id === 'test-page' ? null : (
          <Button
            asChild
            variant={step.done ? 'ghost' : 'outline'}
            size="sm"
            className={cn('justify-self-start', step.done && 'max-sm:-ml-3')}
          >
            <Link to={step.href}>{step.action}</Link>
          </Button>
        )}
      </div>
      {children ? <div className="col-start-2 grid gap-2">{children}</div> : null}
    </li>
  );
}
