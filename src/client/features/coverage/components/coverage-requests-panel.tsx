import type { CoverageRequestView } from '@shared/contracts/coverage';
import { type CoverageAction, coverageDisplayStatus } from '@shared/domain/coverage';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useTimeFormat } from '@/lib/use-time-format';
import { useCoverageRequests } from '../api/get-coverage-requests';
import { useRespondToCoverage } from '../api/respond-to-coverage';

const OPEN = new Set(['pending', 'accepted', 'active']);

function isOpen(request: CoverageRequestView, now: Date) {
  return OPEN.has(request.status) && Date.parse(request.endTime) > now.getTime();
}

function RequestRow({
  request,
  side,
  onAnswer,
  busy,
}: {
  request: CoverageRequestView;
  side: 'incoming' | 'outgoing';
  onAnswer: (action: CoverageAction) => void;
  busy: boolean;
}) {
  const fmt = useTimeFormat();
  const label = coverageDisplayStatus({ status: request.status, end: request.endTime }, new Date());
  const arranger = request.arrangedBy?.name;
  const who =
    side === 'incoming'
      ? arranger
        ? `${arranger} arranged for you to cover ${request.requester.name}`
        : `${request.requester.name} asks you to cover`
      : arranger
        ? `${arranger} arranged for ${request.coveringUser.name} to cover you`
        : `You asked ${request.coveringUser.name} to cover`;
  return (
    <li className="flex flex-col gap-2 rounded-md border p-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 space-y-0.5">
        <p className="font-medium text-sm">
          {request.rotation.name}{' '}
          <Badge
            variant={label === 'Pending' ? 'outline' : 'secondary'}
            className="ml-1 align-middle"
          >
            {label}
          </Badge>
        </p>
        <p className="text-muted-foreground text-sm">{who}</p>
        <p className="text-muted-foreground text-xs">
          {fmt.dateTime(request.startTime)} – {fmt.dateTime(request.endTime)}
        </p>
        {request.notes ? <p className="text-sm italic">“{request.notes}”</p> : null}
      </div>
      <div className="flex shrink-0 gap-2">
        {side === 'incoming' && request.status === 'pending' ? (
          <>
            <Button size="sm" onClick={() => onAnswer('accept')} disabled={busy}>
              Accept
            </Button>
            <Button size="sm" variant="outline" onClick={() => onAnswer('decline')} disabled={busy}>
              Decline
            </Button>
          </>
        ) : null}
        {side === 'incoming' && request.status === 'accepted' ? (
          <Button size="sm" variant="outline" onClick={() => onAnswer('decline')} disabled={busy}>
            Decline
          </Button>
        ) : null}
        {side === 'outgoing' || request.status === 'active' ? (
          <Button size="sm" variant="outline" onClick={() => onAnswer('cancel')} disabled={busy}>
            {request.status === 'active' ? 'End coverage now' : 'Cancel request'}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/**
 * CoverageRequestsPanel lists the open coverage requests asking the signed-in user to cover
 * (Accept / Decline) and those they made (Cancel), optionally for one rotation only. With nothing
 * open it shows nothing, unless `showWhenEmpty`.
 */
export function CoverageRequestsPanel({
  rotationId,
  showWhenEmpty = false,
}: {
  rotationId?: number;
  showWhenEmpty?: boolean;
}) {
  const requests = useCoverageRequests();
  const respond = useRespondToCoverage();
  const now = new Date();
  const pick = (list: CoverageRequestView[] = []) =>
    list.filter((r) => isOpen(r, now) && (rotationId === undefined || r.rotationId === rotationId));
  const incoming = pick(requests.data?.incoming);
  const outgoing = pick(requests.data?.outgoing);
  if (incoming.length === 0 && outgoing.length === 0 && !showWhenEmpty) return null;
  const busy = respond.isPending;
  const answer = (id: number) => (action: CoverageAction) => respond.mutate({ id, action });

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Coverage requests</h2>
        </CardTitle>
        <CardDescription>
          While an accepted window runs, the person covering holds the baton.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {incoming.length > 0 ? (
          <section className="grid gap-2" aria-label="Asked of you">
            <h3 className="font-medium text-muted-foreground text-xs uppercase tracking-wide">
              Asked of you
            </h3>
            <ul className="grid gap-2">
              {incoming.map((r) => (
                <RequestRow
                  key={r.id}
                  request={r}
                  side="incoming"
                  onAnswer={answer(r.id)}
                  busy={busy}
                />
              ))}
            </ul>
          </section>
        ) : null}
        {outgoing.length > 0 ? (
          <section className="grid gap-2" aria-label="Your requests">
            <h3 className="font-medium text-muted-foreground text-xs uppercase tracking-wide">
              Your requests
            </h3>
            <ul className="grid gap-2">
              {outgoing.map((r) => (
                <RequestRow
                  key={r.id}
                  request={r}
                  side="outgoing"
                  onAnswer={answer(r.id)}
                  busy={busy}
                />
              ))}
            </ul>
          </section>
        ) : null}
        {incoming.length === 0 && outgoing.length === 0 ? (
          <p className="text-muted-foreground text-sm">No open coverage requests.</p>
        ) : null}
      </CardContent>
    </Card>
  );
}
