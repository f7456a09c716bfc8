import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useTimeFormat } from '@/lib/use-time-format';
import { ApiTokenList } from './api-token-list';

/** AllApiTokensCard is the administrators' list of everyone's API tokens, each revocable. */
export function AllApiTokensCard() {
  const format = useTimeFormat();
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Everyone's API tokens</h2>
        </CardTitle>
        <CardDescription>
          Tokens people made in their profiles. Revoking one stops it at once. What they may call is
          in the{' '}
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
      </CardHeader>
      <CardContent>
        <ApiTokenList everyone />
      </CardContent>
    </Card>
  );
}
