import type { Rotation } from '@shared/contracts/rotations';
import { hasRole } from '@shared/domain/roles';
import { coverageCandidates } from '@shared/domain/rotation';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toLocalInput } from '@/lib/format-time';
import { useAuth } from '@/lib/use-auth';
import { useViewerTimeZone } from '@/lib/use-time-format';
import { useEligibleUsers } from '../api/get-eligible-users';
import { useRequestCoverage } from '../api/request-coverage';
import { type CoverageErrors, fromLocalInput, validateCoverage } from '../lib/coverage-form';
import { PersonSelect } from './person-select';

/**
 * RequestCoverageDialog lets the holder ask another member (with the on-call or manager role) to
 * hold the baton for a window that starts now or later.
 */
export function RequestCoverageDialog({
  rotation,
  open,
  onOpenChange,
}: {
  rotation: Rotation;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { user } = useAuth();
  const { timeZone } = useViewerTimeZone();
  const eligible = useEligibleUsers({ enabled: open });
  const requestCoverage = useRequestCoverage();
  const [coveringUserId, setCoveringUserId] = useState('');
  const [startTime, setStartTime] = useState('');
  const [endTime, setEndTime] = useState('');
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<CoverageErrors>({});
  const ids = useId();
  const pending = requestCoverage.isPending;
  // Recomputed each render, so the minimum follows the clock while the dialog stays open.
  const minimum = toLocalInput(new Date(), timeZone);

  const eligibleIds = new Set(
    (eligible.data ?? [])
      .filter((u) => hasRole(u.roles, 'on-call') || hasRole(u.roles, 'manager'))
      .map((u) => u.id),
  );
  const candidates = coverageCandidates(rotation.members, user?.id ?? -1)
    .filter((m) => eligibleIds.has(m.userId))
    .map((m) => m.user);

  const reset = () => {
    setCoveringUserId('');
    setStartTime('');
    setEndTime('');
    setNotes('');
    setErrors({});
  };
  const close = (next: boolean) => {
    if (pending) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const found = validateCoverage({
      coveringUserId,
      startTime,
      endTime,
      requesterIsHolder: user !== null && rotation.currentOnCallUserId === user.id,
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const covering = candidates.find((p) => String(p.id) === coveringUserId);
    requestCoverage.mutate(
      {
        rotationId: rotation.id,
        coveringUserId: Number(coveringUserId),
        coveringUserName: covering?.name ?? 'Your teammate',
        startTime: fromLocalInput(startTime, timeZone)!.toISOString(),
        endTime: fromLocalInput(endTime, timeZone)!.toISOString(),
        notes,
      },
      {
        onSuccess: () => {
          reset();
          onOpenChange(false);
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Request coverage</DialogTitle>
          <DialogDescription>
            Ask a teammate to hold the baton for {rotation.name} while you are away. Times are in
            your time zone ({timeZone}).
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4">
          {errors.form ? (
            <p
              role="alert"
              className="rounded-md bg-destructive/10 px-3 py-2 text-destructive text-sm"
            >
              {errors.form}
            </p>
          ) : null}
          {eligible.isPending ? (
            <div className="grid gap-2">
              <Skeleton className="h-4 w-24" />
              <Skeleton className="h-9 w-full" />
            </div>
          ) : eligible.isError ? (
            <p role="alert" className="text-destructive text-sm">
              Failed to fetch eligible users
            </p>
          ) : (
            <PersonSelect
              id={`${ids}-covering`}
              label="Covering team member"
              people={candidates}
              value={coveringUserId}
              onChange={(value) => {
                setCoveringUserId(value);
                setErrors((e) => ({ ...e, coveringUserId: undefined }));
              }}
              disabled={pending}
              error={errors.coveringUserId}
              emptyText="No other member with the on-call or manager role can cover this rotation."
            />
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label
                htmlFor={`${ids}-start`}
                className={errors.startTime ? 'text-destructive' : ''}
              >
                Start time
              </Label>
              <Input
                id={`${ids}-start`}
                type="datetime-local"
                min={minimum}
                value={startTime}
                onChange={(e) => {
                  setStartTime(e.target.value);
                  setErrors((x) => ({ ...x, startTime: undefined }));
                }}
                disabled={pending}
                aria-invalid={errors.startTime ? true : undefined}
                aria-describedby={errors.startTime ? `${ids}-start-error` : undefined}
              />
              {errors.startTime ? (
                <p id={`${ids}-start-error`} className="text-destructive text-sm">
                  {errors.startTime}
                </p>
              ) : null}
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`${ids}-end`} className={errors.endTime ? 'text-destructive' : ''}>
                End time
              </Label>
              <Input
                id={`${ids}-end`}
                type="datetime-local"
                min={startTime || minimum}
                value={endTime}
                onChange={(e) => {
                  setEndTime(e.target.value);
                  setErrors((x) => ({ ...x, endTime: undefined }));
                }}
                disabled={pending}
                aria-invalid={errors.endTime ? true : undefined}
                aria-describedby={errors.endTime ? `${ids}-end-error` : undefined}
              />
              {errors.endTime ? (
                <p id={`${ids}-end-error`} className="text-destructive text-sm">
                  {errors.endTime}
                </p>
              ) : null}
            </div>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-notes`}>Notes (optional)</Label>
            <Textarea
              id={`${ids}-notes`}
              rows={3}
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
              disabled={pending}
              placeholder="Anything your teammate should know while covering..."
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" pending={pending}>
              {pending ? 'Requesting...' : 'Request coverage'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
