import type { Rotation } from '@shared/contracts/rotations';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { CoverableShift } from '../lib/cover-plan-form';
import { CoverPlanDialog, type CoverPlanTarget } from './cover-plan-dialog';

/**
 * CoverPlanCard offers planned cover on a rotation's page: "Ask for cover" to a member who can
 * hold the baton (one of their upcoming shifts, or a custom window), "Arrange cover" to the
 * rotation's managers and administrators (for any member).
 */
export function CoverPlanCard({
  rotation,
  viewerId,
  mayAsk,
  mayArrange,
  shifts,
}: {
  rotation: Rotation;
  viewerId: number;
  mayAsk: boolean;
  mayArrange: boolean;
  /** the rotation's shifts ahead (the calendar's projection) */
  shifts: readonly CoverableShift[];
}) {
  const [target, setTarget] = useState<(CoverPlanTarget & { arrange: boolean }) | null>(null);
  if (!mayAsk && !mayArrange) return null;
  const ref = { id: rotation.id, name: rotation.name };
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Planned cover</h2>
        </CardTitle>
        <CardDescription>
          Going away? Ask a teammate to cover one of your upcoming shifts, whole or in part. The
          baton goes to them when the window starts and comes back when it ends.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        {mayAsk ? (
          <Button
            onClick={() =>
              setTarget({ rotation: ref, requesterId: viewerId, window: null, arrange: false })
            }
          >
            Ask for cover
          </Button>
        ) : null}
        {mayArrange ? (
          <Button
            variant="outline"
            onClick={() =>
              setTarget({ rotation: ref, requesterId: null, window: null, arrange: true })
            }
          >
            Arrange cover
          </Button>
        ) : null}
      </CardContent>
      <CoverPlanDialog
        target={target}
        viewerId={viewerId}
        arrange={target?.arrange ?? false}
        people={rotation.members.map((m) => m.user)}
        shifts={shifts}
        onOpenChange={(open) => {
          if (!open) setTarget(null);
        }}
      />
    </Card>
  );
}
