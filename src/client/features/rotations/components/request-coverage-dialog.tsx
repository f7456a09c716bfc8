import { zodResolver } from '@hookform/resolvers/zod';
import type { Rotation } from '@shared/contracts/rotations';
import { hasRole } from '@shared/domain/roles';
import { coverageCandidates } from '@shared/domain/rotation';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import {
  DialogFormFooter,
  FormError,
  TextareaField,
  TimeWindowFields,
} from '@/components/form-fields';
import { PersonField } from '@/components/person-field';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { toLocalInput } from '@/lib/format-time';
import { useAuth } from '@/lib/use-auth';
import { useViewerTimeZone } from '@/lib/use-time-format';
import { useEligibleUsers } from '../api/get-eligible-users';
import { useRequestCoverage } from '../api/request-coverage';
import { type CoverageFormValues, coverageFormSchema } from '../lib/coverage-form';

const EMPTY: CoverageFormValues = { coveringUserId: '', startTime: '', endTime: '', notes: '' };

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
  const pending = requestCoverage.isPending;
  const requesterIsHolder = user !== null && rotation.currentOnCallUserId === user.id;
  const schema = useMemo(
    () => coverageFormSchema({ timeZone, requesterIsHolder }),
    [timeZone, requesterIsHolder],
  );
  const form = useForm<CoverageFormValues, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: EMPTY,
  });
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

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      onClose={() => form.reset(EMPTY)}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Request coverage</DialogTitle>
          <DialogDescription>
            Ask a teammate to hold the baton for {rotation.name} while you are away. Times are in
            your time zone ({timeZone}).
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit((request) => {
              const covering = candidates.find((p) => p.id === request.coveringUserId);
              requestCoverage.mutate(
                {
                  rotationId: rotation.id,
                  coveringUserId: request.coveringUserId,
                  coveringUserName: covering?.name ?? 'Your teammate',
                  startTime: request.startTime,
                  endTime: request.endTime,
                  notes: request.notes ?? undefined,
                },
                {
                  onSuccess: () => {
                    form.reset(EMPTY);
                    onOpenChange(false);
                  },
                },
              );
            })}
          >
            <FormError />
            <PersonField
              control={form.control}
              name="coveringUserId"
              label="Covering team member"
              people={candidates}
              disabled={pending}
              emptyText="No other member with the on-call or manager role can cover this rotation."
              loading={eligible.isPending}
              error={eligible.isError ? 'Failed to fetch eligible users' : null}
            />
            <TimeWindowFields control={form.control} earliest={minimum} disabled={pending} />
            <TextareaField
              control={form.control}
              name="notes"
              label="Notes (optional)"
              disabled={pending}
              placeholder="Anything your teammate should know while covering..."
            />
            <DialogFormFooter
              pending={pending}
              submitLabel="Request coverage"
              pendingLabel="Requesting..."
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
