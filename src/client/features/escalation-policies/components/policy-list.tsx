import type { EscalationPolicy } from '@shared/contracts/escalation-policies';
import { can } from '@shared/domain/permissions';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useEscalationPolicies } from '@/lib/escalation-policy-reads';
import { useAuth } from '@/lib/use-auth';
import { useDeletePolicy } from '../api/policies';
import { delayText } from '../lib/policy-text';

function stepsText(policy: EscalationPolicy): string {
  const count = policy.steps.length;
  const total = policy.steps.reduce((sum, step) => sum + step.delayMinutes, 0);
  const repeat = policy.repeat === 0 ? '' : `, repeats ${policy.repeat}×`;
  return `${count} ${count === 1 ? 'step' : 'steps'} over ${delayText(total)}${repeat}`;
}

/** PolicyList lists the policies the viewer may read, with the rotations following each. */
export function PolicyList() {
  const { roles } = useAuth();
  const policies = useEscalationPolicies();
  const remove = useDeletePolicy();
  const [deleting, setDeleting] = useState<EscalationPolicy | null>(null);
  const mayEdit = can(roles, 'escalationPolicy.edit');

  if (policies.isPending) return <p className="text-muted-foreground text-sm">Loading policies…</p>;
  if (policies.isError) {
    return <p className="text-destructive text-sm">The policies could not be loaded.</p>;
  }
  if (policies.data.length === 0) {
    return <p className="text-muted-foreground text-sm">No escalation policies you may read.</p>;
  }

  return (
    <>
      <div className="rounded-md border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Policy</TableHead>
              <TableHead className="hidden sm:table-cell">Steps</TableHead>
              <TableHead>Used by</TableHead>
              {mayEdit ? (
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              ) : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {policies.data.map((policy) => (
              <TableRow key={policy.id}>
                <TableCell className="font-medium">
                  <Link
                    className="underline-offset-4 hover:underline"
                    to={`/escalation-policies/${policy.id}`}
                  >
                    {policy.name}
                  </Link>
                </TableCell>
                <TableCell className="hidden text-muted-foreground sm:table-cell">
                  {stepsText(policy)}
                </TableCell>
                <TableCell>
                  {policy.rotations.length === 0 ? (
                    <span className="text-muted-foreground">No rotation</span>
                  ) : (
                    <ul className="flex flex-wrap gap-x-3 gap-y-1">
                      {policy.rotations.map((rotation) => (
                        <li key={rotation.id}>
                          <Link
                            className="underline-offset-4 hover:underline"
                            to={`/rotations/${rotation.id}`}
                          >
                            {rotation.name}
                          </Link>
                        </li>
                      ))}
                    </ul>
                  )}
                </TableCell>
                {mayEdit ? (
                  <TableCell className="text-right">
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-8"
                      aria-label={`Delete ${policy.name}`}
                      onClick={() => setDeleting(policy)}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <AlertDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete {deleting?.name}?</AlertDialogTitle>
            <AlertDialogDescription>
              A policy a rotation follows cannot be deleted: give those rotations another policy
              first.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              onClick={() => {
                if (deleting) remove.mutate(deleting);
                setDeleting(null);
              }}
            >
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
