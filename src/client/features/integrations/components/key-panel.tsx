import type { Integration } from '@shared/contracts/integrations';
import { KeyRound } from 'lucide-react';
import { CopyButton } from '@/components/copy-button';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

function Secretish({
  label,
  value,
  copyLabel,
}: {
  label: string;
  value: string;
  copyLabel: string;
}) {
  return (
    <div className="grid w-full min-w-0 gap-1">
      <span className="font-medium text-xs">{label}</span>
      <div className="flex min-w-0 items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded-md border border-warning-border bg-background px-2 py-1.5 font-mono text-foreground text-xs">
          {value}
        </code>
        <CopyButton text={value} label={copyLabel} />
      </div>
    </div>
  );
}

/**
 * KeyPanel shows an integration's key the one time the server answers it (made or regenerated),
 * with the Events API URL most senders need; it stays until the user says they have copied it.
 */
export function KeyPanel({
  integration,
  keyText,
  onDone,
}: {
  integration: Integration;
  keyText: string;
  onDone: () => void;
}) {
  return (
    <Alert tone="warning" role="region" aria-label={`Key of ${integration.name}`}>
      <KeyRound aria-hidden="true" />
      <AlertTitle>Copy this key now: it will not be shown again</AlertTitle>
      <AlertDescription className="grid w-full gap-3">
        <p>
          Baton keeps only a hash of it. The configurations below have it filled in until you hide
          it.
        </p>
        <Secretish label="Integration key" value={keyText} copyLabel="Copy key" />
        <Secretish
          label="URL (PagerDuty Events API v2)"
          value={integration.endpoints.pagerduty}
          copyLabel="Copy URL"
        />
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          I have copied the key
        </Button>
      </AlertDescription>
    </Alert>
  );
}
