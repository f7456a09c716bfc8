import { API_TOKEN_SCOPE_LABELS, type ApiToken } from '@shared/contracts/api-tokens';
import { KeySquare, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { useTimeFormat } from '@/lib/use-time-format';
import { useApiTokens } from '../api/get-api-tokens';
import { useRevokeApiToken } from '../api/revoke-api-token';

/**
 * ApiTokenList lists tokens by name, scope, created, last used and expiry (never the token: only
 * its last four characters), each with Revoke behind a confirmation. `everyone` (administrators)
 * lists every person's, with whose each is.
 */
export function ApiTokenList({ everyone = false }: { everyone?: boolean }) {
  const format = useTimeFormat();
  const tokens = useApiTokens(everyone);
  const revoke = useRevokeApiToken();
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const now = Date.now();

  if (tokens.isPending) return <Skeleton className="h-10 w-full" />;
  if (tokens.isError) {
    return (
      <p role="alert" className="text-destructive text-sm">
        {getErrorMessage(tokens.error, 'Failed to fetch API tokens')}
      </p>
    );
  }
  const list = tokens.data.tokens;
  return (
    <>
      {list.length === 0 ? (
        <p className="flex items-center gap-2 text-muted-foreground text-sm">
          <KeySquare className="size-4" aria-hidden="true" />
          {everyone ? 'Nobody has an API token.' : 'You have no API tokens.'}
        </p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="API tokens">
          {list.map((token) => {
            const expired = Date.parse(token.expiresAt) <= now;
            return (
              <li key={token.id} className="flex items-start justify-between gap-3 p-3">
                <div className="min-w-0 text-sm">
                  <p className="flex flex-wrap items-center gap-2 font-medium">
                    <span className="break-words">{token.name}</span>
                    <Badge tone={token.scope === 'write' ? 'warning' : 'info'}>
                      {API_TOKEN_SCOPE_LABELS[token.scope]}
                    </Badge>
                    {expired ? <Badge tone="danger">Expired</Badge> : null}
                  </p>
                  <p className="mt-0.5 text-muted-foreground text-xs">
                    {everyone ? `${token.owner.name} · ` : ''}
                    <span className="font-mono">…{token.tokenHint}</span> · Created{' '}
                    {format.dateTime(token.createdAt)} · Last used{' '}
                    {token.lastUsedAt ? format.dateTime(token.lastUsedAt) : 'never'} ·{' '}
                    {expired ? 'Expired' : 'Expires'} {format.dateTime(token.expiresAt)}
                  </p>
                </div>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Revoke ${token.name}`}
                  onClick={() => setRevoking(token)}
                >
                  <Trash2 aria-hidden="true" />
                  Revoke
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => (open ? undefined : setRevoking(null))}
        title={`Revoke ${revoking?.name ?? 'this token'}?`}
        description="Scripts using it are refused from their next request, on every Baton instance. This cannot be undone."
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
        pending={revoke.isPending}
        onConfirm={() => {
          if (!revoking) return;
          revoke.mutate(revoking, { onSuccess: () => setRevoking(null) });
        }}
      />
    </>
  );
}
