import { type Incident, ReopenIncidentInputSchema } from '@shared/contracts/incidents';
import { IncidentTextDialog } from './incident-text-dialog';

const REASON = ReopenIncidentInputSchema.unwrap().shape.reason;

/**
 * ReopenIncidentDialog takes a resolved incident back to triggered: its escalation policy starts
 * again from step 1, whose people are paged now (decision 261). The reason, optional, goes into
 * the timeline.
 */
export function ReopenIncidentDialog(props: {
  incident: Incident;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <IncidentTextDialog
      {...props}
      field={REASON}
      action={(reason) => ({ kind: 'reopen', input: reason ? { reason } : undefined })}
      title="Reopen incident"
      description={`The incident is triggered again and ${props.incident.escalationPolicy.name} starts over from step 1: its people are paged now, and each step follows after its delay until someone acknowledges.`}
      label="Reason (optional)"
      placeholder="Why is it not fixed?"
      submitLabel="Reopen"
      pendingLabel="Reopening..."
    />
  );
}
