import { CircleAlert, CircleCheck } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import type { InvitationValidation } from '../api/validate-invitation';

/** InvitationStatus shows whether the invitation being signed up with is valid. */
export function InvitationStatus({ validation }: { validation: InvitationValidation }) {
  switch (validation.state) {
    case 'validating':
      return (
        <div
          role="status"
          className="flex items-center justify-center gap-2 rounded-lg border px-4 py-3 text-muted-foreground text-sm"
        >
          <Spinner />
          Validating invitation...
        </div>
      );
    case 'invalid':
      return (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertTitle>Invalid Invitation</AlertTitle>
          <AlertDescription>{validation.message}</AlertDescription>
        </Alert>
      );
    case 'valid':
      return (
        <Alert>
          <CircleCheck aria-hidden="true" className="text-primary" />
          <AlertTitle>Valid Invitation</AlertTitle>
          <AlertDescription>
            You've been invited to join as {validation.roleLabel}. Please complete sign-up below.
          </AlertDescription>
        </Alert>
      );
  }
}
