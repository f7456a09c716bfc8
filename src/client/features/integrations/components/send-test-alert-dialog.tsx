import type { Integration } from '@shared/contracts/integrations';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { useTestAlertPreview } from '../api/get-test-alert-preview';
import { useSendTestAlert } from '../api/send-test-alert';
import { testAlertWarning } from '../lib/test-alert-text';

/**
 * SendTestAlertDialog warns whom a test alert pages before it is sent (decision 261): it reads
 * who the integration's policy reaches now, says so, and sends only on "Send test alert".
 */
export function SendTestAlertDialog({
  integration,
  open,
  onOpenChange,
}: {
  integration: Pick<Integration, 'id' | 'name'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const preview = useTestAlertPreview(integration.id, { enabled: open });
  const send = useSendTestAlert();
  const pending = send.isPending;
  const warning = preview.data
    ? testAlertWarning(preview.data)
    : preview.isError
      ? 'Whom it pages could not be read. It pages whoever the integration’s policy reaches now.'
      : 'Checking whom it pages...';
  return (
    <AlertDialog open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Send a test alert through {integration.name}?</AlertDialogTitle>
          <AlertDialogDescription>
            It raises a real incident, as the monitoring tool would, and pages whoever the
            integration’s escalation policy reaches. <strong>{warning}</strong>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <Button
            pending={pending}
            disabled={preview.isPending}
            onClick={() => send.mutate(integration, { onSuccess: () => onOpenChange(false) })}
          >
            {pending ? 'Sending...' : 'Send test alert'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
