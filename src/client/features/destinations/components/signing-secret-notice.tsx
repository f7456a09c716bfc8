import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/**
 * SigningSecretNotice shows a webhook's signing secret once, right after it is added (decision
 * 221): the secret is kept only in the card's memory, and Hide secret forgets it.
 */
export function SigningSecretNotice({ secret, onHide }: { secret: string; onHide: () => void }) {
  return (
    <Alert>
      <AlertTitle>Signing secret</AlertTitle>
      <AlertDescription className="grid gap-2">
        <p>Copy it now into your receiver: Baton shows it only this once.</p>
        <code className="select-all break-all rounded bg-muted px-2 py-1 font-mono text-xs">
          {secret}
        </code>
        <Button size="sm" variant="outline" className="w-fit" onClick={onHide}>
          Hide secret
        </Button>
      </AlertDescription>
    </Alert>
  );
}
