import type { EscalationPreview } from '@shared/contracts/escalation-policies';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useTimeFormat } from '@/lib/use-time-format';
import { usePolicyPreview } from '../api/policies';
import { delayText, recipientText, targetText } from '../lib/policy-text';

/**
 * PolicyPreview shows, for the saved policy, whom each step would notify now and by which
 * channels, and what it would skip and why (GET /api/escalation-policies/{id}/preview).
 */
export function PolicyPreview({
  policyId,
  nameOf,
}: {
  policyId: number;
  /** the name of the rotation or person a skipped target names */
  nameOf: (target: EscalationPreview['steps'][number]['skipped'][number]['target']) => string;
}) {
  const preview = usePolicyPreview(policyId);
  const time = useTimeFormat();

  return (
    <Card className="gap-4" role="region" aria-labelledby="policy-preview-title">
      <CardHeader>
        <CardTitle asChild>
          <h2 id="policy-preview-title">Who would be paged now</h2>
        </CardTitle>
        <CardDescription>
          {preview.data
            ? `The saved policy, at ${time.dateTime(preview.data.at)}; step hours read in ${preview.data.timeZone}.`
            : 'The saved policy, as it stands now.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {preview.isPending ? (
          <p className="text-muted-foreground text-sm">Loading the preview…</p>
        ) : preview.isError ? (
          <p className="text-destructive text-sm">The preview could not be loaded.</p>
        ) : (
          <ol className="grid gap-4">
            {preview.data.steps.map((step) => (
              <li key={step.stepIndex} className="grid gap-1.5 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">Step {step.stepIndex + 1}</span>
                  {step.status === 'notify' ? (
                    <Badge tone="success">Notifies</Badge>
                  ) : (
                    <Badge tone="warning">Skipped</Badge>
                  )}
                  <span className="text-muted-foreground text-xs">
                    then {delayText(step.delayMinutes)}
                  </span>
                </div>
                {step.status === 'notify' ? (
                  <p>
                    At this step now:{' '}
                    {step.recipients.map((recipient) => recipientText(recipient)).join('; ')}
                    {step.assignment === 'round-robin' ? ' (round robin: one at a time)' : ''}
                  </p>
                ) : (
                  <p>Skipped now: {step.skipReason ?? 'nobody to notify'}</p>
                )}
                {step.skipped.length > 0 ? (
                  <ul className="grid gap-0.5 text-muted-foreground text-xs">
                    {step.skipped.map((skip) => (
                      <li key={`${skip.target.type}-${skip.target.id}-${skip.userId ?? ''}`}>
                        Skips {targetText(skip.target.type, nameOf(skip.target))}: {skip.reason}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
