import type { ImportPlan } from '@shared/contracts/imports';
import { IMPORT_SOURCE_LABELS } from '@shared/contracts/imports';
import { ListChecks, RotateCcw, Upload } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api-client';
import { useApplyImport, useMakeImportPlan, useVerifyImport } from '../api/imports';
import { summaryWords } from '../lib/plan-words';
import { ImportPlanView } from './import-plan-view';
import { ImportEndpoints, ImportVerifyResult } from './import-results';
import { ImportSourceForm } from './import-source-form';

/**
 * ImportPanel is Settings → Import (issue 34): an administrator names a source, reads the plan
 * (nothing written yet), applies it once, then verifies that Baton's next 90 days match the
 * source's own rendering to the minute. The same three API calls serve `npm run import`.
 */
export function ImportPanel() {
  const makePlan = useMakeImportPlan();
  const apply = useApplyImport();
  const verify = useVerifyImport();
  const [confirming, setConfirming] = useState(false);
  const plan: ImportPlan | undefined = apply.data ?? makePlan.data;

  const startOver = () => {
    makePlan.reset();
    apply.reset();
    verify.reset();
  };

  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Import</h2>
          </CardTitle>
          <CardDescription>
            Bring people, schedules, escalation policies and alert sources over from PagerDuty,
            Opsgenie, Grafana OnCall, a calendar file or a spreadsheet. You see the plan first;
            nothing changes until you apply it, and applying again later brings over only what
            changed.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {plan ? (
            <div className="flex flex-wrap items-center gap-3 text-sm">
              <span>
                {IMPORT_SOURCE_LABELS[plan.source]}:{' '}
                <span className="break-all">{plan.account}</span>
              </span>
              <Button type="button" variant="outline" size="sm" onClick={startOver}>
                <RotateCcw aria-hidden="true" />
                Start over
              </Button>
            </div>
          ) : (
            <ImportSourceForm
              pending={makePlan.isPending}
              error={makePlan.error}
              onSubmit={(request) => makePlan.mutate(request)}
            />
          )}
        </CardContent>
      </Card>
      {plan ? (
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2>{plan.status === 'applied' ? 'Applied' : 'Plan'}</h2>
            </CardTitle>
            <CardDescription>
              {plan.status === 'applied'
                ? 'Everything below is now in Baton. Verify it against the source next.'
                : 'What applying would do. Read the notes: they say what Baton could not keep as the source has it, and why.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <div className="flex flex-wrap gap-2">
              {plan.status === 'planned' ? (
                <Button type="button" onClick={() => setConfirming(true)}>
                  <Upload aria-hidden="true" />
                  Apply plan
                </Button>
              ) : (
                <Button
                  type="button"
                  pending={verify.isPending}
                  onClick={() => verify.mutate(plan.id)}
                >
                  {verify.isPending ? null : <ListChecks aria-hidden="true" />}
                  {verify.isPending ? 'Comparing…' : 'Verify against the source'}
                </Button>
              )}
            </div>
            {apply.isError ? (
              <p role="alert" className="text-destructive text-sm">
                {getErrorMessage(
                  apply.error,
                  'The plan could not be applied: nothing was changed.',
                )}
              </p>
            ) : null}
            {verify.isError ? (
              <p role="alert" className="text-destructive text-sm">
                {getErrorMessage(verify.error, 'Baton could not compare the import.')}
              </p>
            ) : null}
            {verify.data ? <ImportVerifyResult verify={verify.data} /> : null}
            <ImportEndpoints endpoints={plan.endpoints} />
            <ImportPlanView plan={plan} />
          </CardContent>
        </Card>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Apply this plan?"
        description={
          plan ? `${summaryWords(plan)}. Everything is applied at once, or nothing.` : ''
        }
        confirmLabel="Apply"
        pendingLabel="Applying…"
        pending={apply.isPending}
        onConfirm={() =>
          plan &&
          apply.mutate(plan.id, {
            onSettled: () => setConfirming(false),
          })
        }
      />
    </div>
  );
}
