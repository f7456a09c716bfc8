import { type Incident, ResolveIncidentInputSchema } from '@shared/contracts/incidents';
import { IncidentTextDialog } from './incident-text-dialog';

const NOTE = ResolveIncidentInputSchema.unwrap().shape.note;

/**
 * ResolveIncidentDialog resolves an incident with a resolution note, optional: what fixed it,
 * shown on the incident and in its timeline (decision 261).
 */
export function ResolveIncidentDialog(props: {
  incident: Incident;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <IncidentTextDialog
      {...props}
      field={NOTE}
      action={(note) => ({ kind: 'resolve', input: note ? { note } : undefined })}
      title="Resolve incident"
      description="The escalation stops and the people it is with are told it needs nothing more. A resolved incident can be reopened."
      label="Resolution note (optional)"
      placeholder="What fixed it? Links can be clicked on the incident."
      submitLabel="Resolve"
      pendingLabel="Resolving..."
    />
  );
}
