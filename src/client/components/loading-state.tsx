import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';

/** LoadingState is a centred spinner with a label, filling the screen or its container. */
export function LoadingState({
  label = 'Loading...',
  fullScreen = false,
  className,
}: {
  label?: string;
  fullScreen?: boolean;
  className?: string;
}) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={cn(
        'flex flex-col items-center justify-center gap-3 text-muted-foreground',
        fullScreen ? 'min-h-dvh bg-background' : 'py-24',
        className,
      )}
    >
      <Spinner className="size-8" />
      <p className="text-sm">{label}</p>
    </div>
  );
}
