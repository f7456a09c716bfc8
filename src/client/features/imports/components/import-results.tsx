import type { ImportEndpoint, ImportVerify } from '@shared/contracts/imports';
import { CheckCircle2 } from 'lucide-react';
import { CopyButton } from '@/components/copy-button';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useTimeFormat } from '@/lib/use-time-format';

/**
 * ImportEndpoints lists the alert endpoints an import made: for each of the source's integrations,
 * the Baton URL and key that replace it, so the cut-over is changing a URL in monitoring.
 */
export function ImportEndpoints({ endpoints }: { endpoints: readonly ImportEndpoint[] }) {
  if (endpoints.length === 0) return null;
  return (
    <section aria-labelledby="import-endpoints" className="grid gap-2">
      <h3 id="import-endpoints" className="font-medium text-sm">
        Point monitoring here
      </h3>
      <p className="text-muted-foreground text-xs">
        Each replaces one of the source's integrations: change its URL (and key) where alerts are
        sent, and they arrive in Baton.
      </p>
      <ul className="grid gap-2">
        {endpoints.map((e) => (
          <li key={e.integrationId} className="grid gap-1.5 rounded-md border p-2.5 text-sm">
            <div>
              <span className="font-medium">{e.name}</span>{' '}
              <span className="text-muted-foreground text-xs">replaces {e.replaces}</span>
            </div>
            <div className="flex items-center gap-2">
              <code className="min-w-0 flex-1 break-all rounded bg-muted px-1.5 py-1 text-xs">
                {e.url}
              </code>
              <CopyButton text={e.url} label={`Copy the URL of ${e.name}`} />
            </div>
            <div className="flex items-center gap-2">
              <code className="min-w-0 flex-1 break-all rounded bg-muted px-1.5 py-1 text-xs">
                {e.key}
              </code>
              <CopyButton text={e.key} label={`Copy the key of ${e.name}`} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * ImportVerifyResult says whether Baton's next 90 days match the source's to the minute, and if
 * not, every stretch where they differ with both names.
 */
export function ImportVerifyResult({ verify }: { verify: ImportVerify }) {
  const format = useTimeFormat();
  if (verify.complete) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm">
        <CheckCircle2 aria-hidden="true" className="size-4 text-success-foreground" />
        Complete: who is on call matches the source to the minute from{' '}
        {format.dateTime(verify.window.from)} to {format.dateTime(verify.window.to)}.
      </p>
    );
  }
  return (
    <section aria-labelledby="import-differences" className="grid gap-2">
      <div role="status">
        <h3 id="import-differences" className="font-medium text-destructive text-sm">
          {verify.differences.length}{' '}
          {verify.differences.length === 1 ? 'difference' : 'differences'} from the source
        </h3>
      </div>
      <div className="overflow-x-auto rounded-md border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Rotation</TableHead>
              <TableHead>From</TableHead>
              <TableHead>To</TableHead>
              <TableHead>Source</TableHead>
              <TableHead>Baton</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {verify.differences.map((d) => (
              <TableRow key={`${d.rotationId}-${d.start}`}>
                <TableCell className="font-medium">{d.rotationName}</TableCell>
                <TableCell>{format.dateTime(d.start)}</TableCell>
                <TableCell>{format.dateTime(d.end)}</TableCell>
                <TableCell>{d.source ?? 'Nobody'}</TableCell>
                <TableCell>{d.baton ?? 'Nobody'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </section>
  );
}
