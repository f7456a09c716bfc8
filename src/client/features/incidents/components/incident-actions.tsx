import type { Incident } from '@shared/contracts/incidents';
import { Check, CircleCheck, Forward, RotateCcw, UserRoundPen } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useIncidentAction } from '../api/act-on-incident';
import { EscalateIncidentDialog } from './escalate-incident-dialog';
import { ReassignIncidentDialog } from './reassign-incident-dialog';
import { ReopenIncidentDialog } from './reopen-incident-dialog';
import { ResolveIncidentDialog } from './resolve-incident-dialog';

/**
 * IncidentQuickActions are Acknowledge and Resolve, each shown when the incident's `actions`
 * allow it; `label` names the incident for a screen reader where several are listed. With
 * `onResolve`, Resolve opens what asks for a resolution note instead of resolving at once.
 */
export function IncidentQuickActions({
  incident,
  label,
  onResolve,
}: {
  incident: Incident;
  label?: string;
  onResolve?: () => void;
}) {
  const act = useIncidentAction(incident.id);
  const running = act.isPending ? act.variables?.kind : null;
  const suffix = label ? <span className="sr-only">: {label}</span> : null;
  return (
    <>
      {incident.actions.acknowledge ? (
        <Button
          size="sm"
          onClick={() => act.mutate({ kind: 'acknowledge' })}
          pending={running === 'acknowledge'}
          disabled={act.isPending}
        >
          {running === 'acknowledge' ? null : <Check aria-hidden />}
          {running === 'acknowledge' ? 'Acknowledging...' : 'Acknowledge'}
          {suffix}
        </Button>
      ) : null}
      {incident.actions.resolve ? (
        <Button
          size="sm"
          variant="outline"
          onClick={() => (onResolve ? onResolve() : act.mutate({ kind: 'resolve' }))}
          pending={running === 'resolve'}
          disabled={act.isPending}
        >
          {running === 'resolve' ? null : <CircleCheck aria-hidden />}
          {running === 'resolve' ? 'Resolving...' : 'Resolve'}
          {suffix}
        </Button>
      ) : null}
    </>
  );
}

/** IncidentActions are every action the viewer may take on the incident now, with their dialogs. */
export function IncidentActions({ incident }: { incident: Incident }) {
  const [escalating, setEscalating] = useState(false);
  const [reassigning, setReassigning] = useState(false);
  const [resolving, setResolving] = useState(false);
  const [reopening, setReopening] = useState(false);
  const { actions } = incident;
  if (
    !actions.acknowledge &&
    !actions.resolve &&
    !actions.escalate &&
    !actions.reassign &&
    !actions.reopen
  ) {
    return null;
  }
  return (
    <div className="flex flex-wrap gap-2">
      <IncidentQuickActions incident={incident} onResolve={() => setResolving(true)} />
      {actions.escalate ? (
        <Button size="sm" variant="outline" onClick={() => setEscalating(true)}>
          <Forward aria-hidden />
          Escalate
        </Button>
      ) : null}
      {actions.reassign ? (
        <Button size="sm" variant="outline" onClick={() => setReassigning(true)}>
          <UserRoundPen aria-hidden />
          Reassign
        </Button>
      ) : null}
      {actions.reopen ? (
        <Button size="sm" variant="outline" onClick={() => setReopening(true)}>
          <RotateCcw aria-hidden />
          Reopen
        </Button>
      ) : null}
      {actions.resolve ? (
        <ResolveIncidentDialog incident={incident} open={resolving} onOpenChange={setResolving} />
      ) : null}
      {actions.reopen ? (
        <ReopenIncidentDialog incident={incident} open={reopening} onOpenChange={setReopening} />
      ) : null}
      {actions.escalate ? (
        <EscalateIncidentDialog
          incident={incident}
          open={escalating}
          onOpenChange={setEscalating}
        />
      ) : null}
      {actions.reassign ? (
        <ReassignIncidentDialog
          incident={incident}
          open={reassigning}
          onOpenChange={setReassigning}
        />
      ) : null}
    </div>
  );
}
