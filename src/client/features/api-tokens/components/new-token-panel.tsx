import type { CreatedApiToken } from '@shared/contracts/api-tokens';
import { KeyRound } from 'lucide-react';
import { CopyButton } from '@/components/copy-button';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/**
 * NewTokenPanel shows a token the one time the server answers it, with a copy button and how to
 * send it; it stays (in memory only) until the person says they have copied it.
 */
export function NewTokenPanel({ token, onDone }: { token: CreatedApiToken; onDone: () => void }) {
  return (
    <Alert tone="warning" role="region" aria-label={`New API token ${token.name}`}>
      <KeyRound aria-hidden="true" />
      <AlertTitle>Copy this token now: it will not be shown again</AlertTitle>
      <AlertDescription className="grid w-full gap-3">
        <p>
          Baton keeps only a hash of it. Send it as <code>Authorization: Bearer &lt;token&gt;</code>
          ; it acts as you, {token.scope === 'read' ? 'for reading only' : 'reading and writing'}.
        </p>
        <div className="flex min-w-0 items-center gap-2">
          <code className="min-w-0 flex-1 break-all rounded-md border border-warning-border bg-background px-2 py-1.5 font-mono text-foreground text-xs">
            {token.token}
          </code>
          <CopyButton text={token.token} label="Copy token" />
        </div>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          I have copied the token
        </Button>
      </AlertDescription>
    </Alert>
  );
}
