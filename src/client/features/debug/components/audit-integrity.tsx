import type { AuditIntegrity as AuditIntegrityResult } from '@shared/contracts/debug';
import { Play } from 'lucide-react';
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
import { useTimeFormat } from '@/lib/use-time-format';
import { useAuditIntegrity } from '../api/run-diagnostics';
import { ErrorPanel, FactList } from './json-view';

const KIND_LABELS: Record<NonNullable<AuditIntegrityResult['firstBroken']>['kind'], string> = {
  altered: 'Event changed',
  unlinked: 'Chain link broken',
  missing: 'Event deleted',
  sealed: 'Sealed name altered',
  head: 'Chain head mismatch',
};

function Results({ data }: { data: AuditIntegrityResult }) {
  const fmt = useTimeFormat();
  const broken = data.firstBroken;
  return (
    <div className="grid gap-4">
      {broken ? (
        <div role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-4">
          <p className="font-semibold text-destructive">
            First broken link: {KIND_LABELS[broken.kind]}
          </p>
          <p className="mt-1 text-sm">{broken.message}</p>
        </div>
      ) : (
        <p role="status" className="text-sm">
          Every event from the first to the chain head verified: nothing was changed or deleted.
        </p>
      )}
      <FactList
        facts={[
          [
            'Result',
            <Badge key="status" variant={broken ? 'destructive' : 'secondary'}>
              {broken ? 'Broken' : 'Intact'}
            </Badge>,
          ],
          ['Events verified', data.eventsChecked],
          ['Chain head', `position ${data.head.seq}`],
          [
            'Head hash',
            <code key="hash" className="font-mono text-xs">
              {data.head.hash}
            </code>,
          ],
          ...(broken
            ? ([
                ['Broken at position', broken.chainSeq],
                ['Event', broken.eventId ?? 'None (deleted)'],
              ] as [string, string | number][])
            : []),
          ['Took', `${data.durationMs} ms`],
          ['Checked at', fmt.dateTime(data.checkedAt)],
        ]}
      />
    </div>
  );
}

/** AuditIntegrity verifies the audit trail's hash chain and shows the first broken link. */
export function AuditIntegrity() {
  const check = useAuditIntegrity();
  const data = check.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Audit Integrity</h2>
        </CardTitle>
        <CardDescription>
          The database refuses changes to the audit trail, and each event carries the hash of the
          one before it. This check recomputes every hash, from the first event to the chain head,
          and names the first event that no longer matches.
        </CardDescription>
        {data ? (
          <CardAction>
            <Badge variant={data.firstBroken ? 'destructive' : 'secondary'}>
              {data.firstBroken ? 'Broken' : 'Intact'}
            </Badge>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        <div>
          <Button onClick={() => check.mutate()} pending={check.isPending}>
            {check.isPending ? null : <Play aria-hidden="true" />}
            {check.isPending ? 'Verifying...' : 'Verify Audit Trail'}
          </Button>
        </div>
        {check.isError ? <ErrorPanel error={check.error} /> : null}
        {data ? <Results data={data} /> : null}
      </CardContent>
    </Card>
  );
}
