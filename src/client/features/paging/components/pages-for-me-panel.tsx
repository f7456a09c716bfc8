import { BellRing } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useMyPages } from '../api/get-my-pages';
import { PageItem } from './page-item';

/**
 * PagesForMePanel lists the unresolved pages sent to the signed-in user, with Acknowledge,
 * Escalate and Resolve, on the Pages screen (the dashboard shows them as "Incidents for you").
 */
export function PagesForMePanel() {
  const pages = useMyPages();
  const list = pages.data ?? [];
  const waiting = list.filter((p) => p.actions.acknowledge).length;

  return (
    <Card className="gap-0 py-0">
      <CardHeader className="border-b py-5">
        <CardTitle asChild className="flex items-center gap-2">
          <h2>
            <BellRing aria-hidden className="size-4 text-muted-foreground" />
            Pages for me
          </h2>
        </CardTitle>
        <CardDescription>
          {waiting > 0
            ? `${waiting} page${waiting === 1 ? '' : 's'} waiting for your acknowledgement.`
            : 'Pages sent to you that are not resolved yet.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="px-0">
        {pages.isPending ? (
          <div className="grid gap-2 p-6">
            <Skeleton className="h-5 w-1/3" />
            <Skeleton className="h-12 w-full" />
          </div>
        ) : pages.isError ? (
          <div className="p-6">
            <Alert variant="destructive">
              <AlertTitle>Failed to fetch your pages</AlertTitle>
              <AlertDescription>Please try again.</AlertDescription>
            </Alert>
          </div>
        ) : list.length === 0 ? (
          <p className="px-6 py-10 text-center text-muted-foreground text-sm">
            No pages waiting for you
          </p>
        ) : (
          <ul className="divide-y" aria-label="Pages for me">
            {list.map((page) => (
              <PageItem key={page.id} page={page} showRotation />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
