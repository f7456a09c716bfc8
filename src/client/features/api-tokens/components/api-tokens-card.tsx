import type { CreatedApiToken } from '@shared/contracts/api-tokens';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useTimeFormat } from '@/lib/use-time-format';
import { ApiTokenList } from './api-token-list';
import { CreateApiTokenDialog } from './create-api-token-dialog';
import { NewTokenPanel } from './new-token-panel';

/**
 * ApiTokensCard is the profile's "API tokens" card (decision 223): one's tokens, Create (the new
 * token shown once, kept in memory only until dismissed) and Revoke, with the API reference
 * (/api/docs/) a link away.
 */
export function ApiTokensCard() {
  const format = useTimeFormat();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle asChild>
            <h2>API tokens</h2>
          </CardTitle>
          <CardDescription>
            For scripts and tools that call Baton's API as you: send a token as{' '}
            <code>Authorization: Bearer</code> (
            <Link to="/help/api-tokens" className="underline underline-offset-4">
              how API tokens work
            </Link>
            ). Every call is in the{' '}
            {/* The server's page, not a screen of the app: a full load, in a tab of its own. */}
            <a
              href="/api/docs/"
              target="_blank"
              rel="noopener noreferrer"
              className="underline underline-offset-4"
            >
              API reference<span className="sr-only"> (opens in a new tab)</span>
            </a>
            . {format.timesIn}.
          </CardDescription>
        </div>
        <Button size="sm" variant="outline" onClick={() => setCreating(true)}>
          <Plus aria-hidden="true" />
          Create token
        </Button>
      </CardHeader>
      <CardContent className="grid gap-4">
        {created ? <NewTokenPanel token={created} onDone={() => setCreated(null)} /> : null}
        <ApiTokenList />
      </CardContent>
      <CreateApiTokenDialog open={creating} onOpenChange={setCreating} onCreated={setCreated} />
    </Card>
  );
}
