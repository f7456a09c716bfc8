import { KeyRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { CopyButton } from '@/components/copy-button';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/**
 * ShownOncePanel holds a secret the one time the server answers it (an API token, an integration
 * key): kept in the card's memory only, with what to do with it, until the person says they have
 * copied it (`onDone`). Baton keeps only a hash (`crypto/bearer-secrets.ts` makes them).
 */
export function ShownOncePanel({
  label,
  what,
  children,
  onDone,
}: {
  /** the region's accessible name */
  label: string;
  /** the word for the secret in the title and the button: "token", "key" */
  what: string;
  children: ReactNode;
  onDone: () => void;
}) {
  return (
    <Alert tone="warning" role="region" aria-label={label}>
      <KeyRound aria-hidden="true" />
      <AlertTitle>Copy this {what} now: it will not be shown again</AlertTitle>
      <AlertDescription className="grid w-full gap-3">
        {children}
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          I have copied the {what}
        </Button>
      </AlertDescription>
    </Alert>
  );
}

/** SecretValue is one value of a ShownOncePanel, with its copy button and an optional label. */
export function SecretValue({
  label,
  value,
  copyLabel,
}: {
  label?: string;
  value: string;
  copyLabel: string;
}) {
  const row = (
    <div className="flex min-w-0 items-center gap-2">
      <code className="min-w-0 flex-1 break-all rounded-md border border-warning-border bg-background px-2 py-1.5 font-mono text-foreground text-xs">
        {value}
      </code>
      <CopyButton text={value} label={copyLabel} />
    </div>
  );
  if (!label) return row;
  return (
    <div className="grid w-full min-w-0 gap-1">
      <span className="font-medium text-xs">{label}</span>
      {row}
    </div>
  );
}
