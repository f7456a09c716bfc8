import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api-client';

/** The part of a query a connections card reads. */
export type ConnectionsQuery = { isPending: boolean; isError: boolean; error: unknown };

/**
 * ConnectionsCard is the card of a scope's connections to other tools, its integrations (alerts
 * in) or its destinations (messages out): the heading (`h2`, or `h4` inside another card's item)
 * with its description and an optional action (Add ...), then `notice` (a secret shown once)
 * over, while loading, a spinner saying `loadingLabel`; on failure an alert titled `errorTitle`
 * with the reason; with none `emptyText` under `emptyIcon`; else the connections (`children`,
 * each an `li`) in a list named `listLabel`.
 */
export function ConnectionsCard({
  title,
  headingLevel = 2,
  description,
  action,
  notice,
  query,
  count,
  loadingLabel,
  errorTitle,
  emptyIcon: EmptyIcon,
  emptyText,
  listLabel,
  children,
}: {
  title: string;
  headingLevel?: 2 | 4;
  description: ReactNode;
  action?: ReactNode;
  notice?: ReactNode;
  query: ConnectionsQuery;
  count: number;
  loadingLabel: string;
  errorTitle: string;
  emptyIcon: LucideIcon;
  emptyText: string;
  listLabel: string;
  children: ReactNode;
}) {
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>{headingLevel === 4 ? <h4>{title}</h4> : <h2>{title}</h2>}</CardTitle>
        <CardDescription>{description}</CardDescription>
        {action ? <CardAction>{action}</CardAction> : null}
      </CardHeader>
      <CardContent className="grid min-w-0 gap-3">
        {notice}
        {query.isPending ? (
          <LoadingState label={loadingLabel} className="py-8" />
        ) : query.isError ? (
          <Alert variant="destructive">
            <AlertTitle>{errorTitle}</AlertTitle>
            <AlertDescription>{getErrorMessage(query.error, 'Please try again.')}</AlertDescription>
          </Alert>
        ) : count === 0 ? (
          <div className="flex flex-col items-center gap-2 py-8 text-center">
            <EmptyIcon className="size-6 text-muted-foreground" aria-hidden="true" />
            <p className="max-w-md text-muted-foreground text-sm">{emptyText}</p>
          </div>
        ) : (
          <ul className="grid min-w-0 divide-y" aria-label={listLabel}>
            {children}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
