import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api-client';

/**
 * The part of a query (useQuery or useInfiniteQuery) a history card reads; an infinite query
 * also gives the next page, shown as 'Load more' under the list.
 */
export type HistoryQuery = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  hasNextPage?: boolean;
  isFetchingNextPage?: boolean;
  fetchNextPage?: () => unknown;
};

/**
 * HistoryCard is a card of a history, newest first (a rotation's handoffs, its pages): the
 * heading (an h2) with its description and an optional action, then while loading a spinner
 * saying `loadingLabel`, on failure an alert titled `errorTitle` with the reason, with no entries
 * `emptyText` (under `emptyIcon` when given), else the entries (`children`, each an `li`) in a
 * list named `listLabel`.
 */
export function HistoryCard({
  title,
  description,
  action,
  query,
  count,
  loadingLabel,
  errorTitle,
  emptyText,
  emptyIcon: EmptyIcon,
  listLabel,
  children,
}: {
  title: string;
  description: ReactNode;
  action?: ReactNode;
  query: HistoryQuery;
  /** how many entries there are (0 shows emptyText) */
  count: number;
  loadingLabel: string;
  errorTitle: string;
  emptyText: string;
  emptyIcon?: LucideIcon;
  listLabel: string;
  children: ReactNode;
}) {
  return (
    <Card className="gap-0 py-0">
      <CardHeader className="border-b py-5">
        <CardTitle asChild>
          <h2>{title}</h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
        {action ? <CardAction>{action}</CardAction> : null}
      </CardHeader>
      <CardContent className="px-0">
        {query.isPending ? (
          <LoadingState label={loadingLabel} className="py-12" />
        ) : query.isError ? (
          <div className="p-6">
            <Alert variant="destructive">
              <AlertTitle>{errorTitle}</AlertTitle>
              <AlertDescription>
                {getErrorMessage(query.error, 'Please try again.')}
              </AlertDescription>
            </Alert>
          </div>
        ) : count === 0 ? (
          EmptyIcon ? (
            <div className="flex flex-col items-center gap-2 px-6 py-12 text-center">
              <EmptyIcon className="size-6 text-muted-foreground" aria-hidden="true" />
              <p className="text-muted-foreground text-sm">{emptyText}</p>
            </div>
          ) : (
            <p className="px-6 py-12 text-center text-muted-foreground text-sm">{emptyText}</p>
          )
        ) : (
          <>
            <ul className="divide-y" aria-label={listLabel}>
              {children}
            </ul>
            {query.hasNextPage && query.fetchNextPage ? (
              <div className="flex justify-center border-t p-4">
                <Button
                  variant="outline"
                  onClick={() => query.fetchNextPage?.()}
                  pending={query.isFetchingNextPage}
                >
                  {query.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
