import { TriangleAlert } from 'lucide-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '@/components/ui/button';

function errorText(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error && error.message) return error.message;
  return 'Unknown error';
}

/** RouteErrorPage is shown when a page throws while rendering or fails to load its code. */
export function RouteErrorPage() {
  const error = useRouteError();
  return (
    <div
      role="alert"
      className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-background p-6 text-center text-foreground"
    >
      <TriangleAlert className="size-12 text-destructive" aria-hidden="true" />
      <h1 className="font-semibold text-2xl tracking-tight">Something went wrong</h1>
      <p className="max-w-md break-words text-muted-foreground text-sm">{errorText(error)}</p>
      <Button onClick={() => window.location.reload()}>Reload page</Button>
    </div>
  );
}
