import { Skeleton } from '@/components/ui/skeleton';

/**
 * PageSkeleton stands where a screen's content is about to paint while its code is on the way:
 * the shape of a page header and a row of cards, not a second "Loading…" screen after the
 * session's (issue 35). Screen readers hear that the page is loading.
 */
export function PageSkeleton() {
  return (
    <div role="status" aria-busy="true" className="grid gap-6">
      <span className="sr-only">Loading the page</span>
      <div className="grid gap-2">
        <Skeleton className="h-8 w-48" />
        <Skeleton className="h-4 w-72 max-w-full" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-32 rounded-xl" />
        ))}
      </div>
    </div>
  );
}
