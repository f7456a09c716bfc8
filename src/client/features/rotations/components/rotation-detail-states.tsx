import { ArrowLeft, CircleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';

/** RotationBackButton is the rotation page's 'Back to Rotations' link. */
export function RotationBackButton() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit text-muted-foreground">
      <Link to="/rotations">
        <ArrowLeft aria-hidden="true" />
        Back to Rotations
      </Link>
    </Button>
  );
}

/** RotationNotFound is the rotation page for an id that names no rotation (or no valid id). */
export function RotationNotFound() {
  return (
    <div className="flex flex-col items-center justify-center gap-4 py-20 text-center">
      <CircleAlert className="size-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="font-semibold text-2xl tracking-tight">Rotation Not Found</h1>
      <p className="max-w-md text-muted-foreground">
        The requested rotation could not be found. It may have been deleted.
      </p>
      <Button asChild>
        <Link to="/rotations">
          <ArrowLeft aria-hidden="true" />
          Return to Rotations
        </Link>
      </Button>
    </div>
  );
}

/** RotationDetailSkeleton holds the rotation page's shape while it loads. */
export function RotationDetailSkeleton() {
  return (
    <div className="grid grid-cols-1 gap-6" role="status" aria-label="Loading rotation">
      <Skeleton className="h-8 w-32" />
      <div className="grid gap-2">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-4 w-96 max-w-full" />
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-40 rounded-xl" />
        ))}
      </div>
      <Skeleton className="h-48 rounded-xl" />
      <Skeleton className="h-64 rounded-xl" />
    </div>
  );
}

/** RotationLoadFailed is the rotation page when the read failed for another reason than 404. */
export function RotationLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <RotationBackButton />
      <Alert variant="destructive">
        <CircleAlert aria-hidden="true" />
        <AlertTitle>Failed to fetch rotation details</AlertTitle>
        <AlertDescription>
          <Button variant="outline" size="sm" onClick={onRetry}>
            Try again
          </Button>
        </AlertDescription>
      </Alert>
    </div>
  );
}
