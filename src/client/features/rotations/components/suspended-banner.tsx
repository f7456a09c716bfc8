import type { Rotation } from '@shared/contracts/rotations';
import { CircleHelp, PauseCircle } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { suspendedBannerText } from '../lib/rotation-view';

/** SuspendedBanner appears when any rotation is suspended, with a 'What does this mean?' help. */
export function SuspendedBanner({
  rotations,
}: {
  rotations: readonly Pick<Rotation, 'suspended'>[];
}) {
  const text = suspendedBannerText(rotations);
  if (!text) return null;
  return (
    <Alert tone="warning">
      <PauseCircle aria-hidden="true" />
      <AlertTitle className="line-clamp-none">{text}</AlertTitle>
      <AlertDescription>
        <Popover>
          <PopoverTrigger asChild>
            <Button
              variant="link"
              size="sm"
              className="h-auto p-0 text-warning-foreground underline"
            >
              <CircleHelp aria-hidden="true" />
              What does this mean?
            </Button>
          </PopoverTrigger>
          <PopoverContent align="start" className="w-80 text-sm" aria-label="Suspended rotations">
            <p className="font-medium">Suspended rotations</p>
            <p className="mt-1 text-muted-foreground">
              Suspended rotations do not take part in alerting or automated handoffs. An
              administrator reactivates a rotation from its details page with the 'Activate
              Rotation' button.
            </p>
          </PopoverContent>
        </Popover>
      </AlertDescription>
    </Alert>
  );
}
