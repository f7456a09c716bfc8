import { URGENCY_LABELS } from '@shared/domain/paging';
import { CircleAlert, CircleCheck, Clock } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { ApiRequestError, getErrorMessage } from '@/lib/api-client';
import { useTimeFormat } from '@/lib/use-time-format';
import { useAckLink, useConfirmAckLink } from '../api/ack-link';

/**
 * AckLinkCard is the page an acknowledgement link opens, with no sign-in: it shows the page and
 * acknowledges it only when the recipient presses the button (a mail scanner's visit does not).
 */
export function AckLinkCard({ token }: { token: string }) {
  const fmt = useTimeFormat();
  const link = useAckLink(token);
  const confirm = useConfirmAckLink(token);

  if (link.isPending) {
    return (
      <Card>
        <CardContent className="flex items-center justify-center gap-3 py-10 text-muted-foreground">
          <Spinner className="size-5" />
          <span>Loading page...</span>
        </CardContent>
      </Card>
    );
  }
  if (link.isError) {
    const notFound = link.error instanceof ApiRequestError && link.error.status === 404;
    return (
      <Card>
        <CardHeader>
          <CardTitle asChild className="text-xl">
            <h1>{notFound ? 'Link not valid' : 'Something went wrong'}</h1>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <Alert variant="destructive">
            <CircleAlert aria-hidden />
            <AlertTitle>This link cannot acknowledge a page</AlertTitle>
            <AlertDescription>
              {getErrorMessage(link.error, 'Please try again, or sign in to Baton.')}
            </AlertDescription>
          </Alert>
        </CardContent>
        <CardFooter>
          <Button asChild variant="outline">
            <Link to="/pages">Open Baton</Link>
          </Button>
        </CardFooter>
      </Card>
    );
  }

  const { state, page, expiresAt } = link.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h1>
            {state === 'acknowledged'
              ? 'Page acknowledged'
              : state === 'resolved'
                ? 'Page resolved'
                : `Page for ${page.rotationName}`}
          </h1>
        </CardTitle>
        <CardDescription>
          {page.pagedByName ?? 'Someone'} paged {page.recipientName ?? 'the on-call person'} for{' '}
          {page.rotationName} on {fmt.dateTime(page.createdAt)}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Urgency</dt>
          <dd>{URGENCY_LABELS[page.urgency]}</dd>
          <dt className="text-muted-foreground">Message</dt>
          <dd className="whitespace-pre-wrap break-words">{page.message}</dd>
        </dl>
        {state === 'acknowledged' ? (
          <Alert>
            <CircleCheck aria-hidden />
            <AlertTitle>Acknowledged</AlertTitle>
            <AlertDescription>
              {page.acknowledgedAt ? `Acknowledged on ${fmt.dateTime(page.acknowledgedAt)}. ` : ''}
              {page.pagedByName ?? 'The person who paged'} has been told. This link cannot be used
              again.
            </AlertDescription>
          </Alert>
        ) : state === 'resolved' ? (
          <Alert>
            <CircleCheck aria-hidden />
            <AlertTitle>Nothing more to do</AlertTitle>
            <AlertDescription>
              This page was resolved and needs no acknowledgement.
            </AlertDescription>
          </Alert>
        ) : state === 'expired' ? (
          <Alert variant="destructive">
            <Clock aria-hidden />
            <AlertTitle>This link has expired</AlertTitle>
            <AlertDescription>
              It stopped working on {fmt.dateTime(expiresAt)}. Sign in to Baton to acknowledge the
              page.
            </AlertDescription>
          </Alert>
        ) : confirm.isError ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden />
            <AlertTitle>Not acknowledged</AlertTitle>
            <AlertDescription>
              {getErrorMessage(confirm.error, 'Please try again, or sign in to Baton.')}
            </AlertDescription>
          </Alert>
        ) : (
          <p className="text-muted-foreground text-sm">
            Acknowledge to tell {page.pagedByName ?? 'them'} you are on it. The link works once,
            until {fmt.dateTime(expiresAt)}.
          </p>
        )}
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        {state === 'open' ? (
          <Button onClick={() => confirm.mutate()} pending={confirm.isPending}>
            {confirm.isPending ? 'Acknowledging...' : 'Acknowledge page'}
          </Button>
        ) : null}
        <Button asChild variant="outline">
          <Link to="/pages">Open Baton</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
