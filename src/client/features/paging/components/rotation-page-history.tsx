import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api-client';
import { useRotationPages } from '../api/get-rotation-pages';
import { PageItem } from './page-item';

/** RotationPageHistory lists a rotation's pages, newest first: who paged whom, when and how it went. */
export function RotationPageHistory({
  rotationId,
  title = 'Page history',
}: {
  rotationId: number;
  title?: string;
}) {
  const history = useRotationPages(rotationId);
  const pages = history.data?.pages.flat() ?? [];

  return (
    <Card className="gap-0 py-0">
      <CardHeader className="border-b py-5">
        <CardTitle asChild>
          <h2>{title}</h2>
        </CardTitle>
        <CardDescription>
          Every page sent to this rotation: who paged whom, the message, its urgency and what
          happened next.
        </CardDescription>
      </CardHeader>
      <CardContent className="px-0">
        {history.isPending ? (
          <LoadingState label="Loading page history..." className="py-12" />
        ) : history.isError ? (
          <div className="p-6">
            <Alert variant="destructive">
              <AlertTitle>Failed to fetch page history</AlertTitle>
              <AlertDescription>
                {getErrorMessage(history.error, 'Please try again.')}
              </AlertDescription>
            </Alert>
          </div>
        ) : pages.length === 0 ? (
          <p className="px-6 py-12 text-center text-muted-foreground text-sm">
            No pages sent for this rotation yet
          </p>
        ) : (
          <>
            <ul className="divide-y" aria-label={title}>
              {pages.map((page) => (
                <PageItem key={page.id} page={page} />
              ))}
            </ul>
            {history.hasNextPage ? (
              <div className="flex justify-center border-t p-4">
                <Button
                  variant="outline"
                  onClick={() => history.fetchNextPage()}
                  pending={history.isFetchingNextPage}
                >
                  {history.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
