import type { InvitationListItem } from '@shared/contracts/invitations';
import { Copy, RefreshCw, Trash2 } from 'lucide-react';
import { useState } from 'react';
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
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { notifySuccess } from '@/lib/notify';
import { useTimeFormat } from '@/lib/use-time-format';
import { useDeleteInvitation } from '../api/delete-invitation';
import { useInvitations } from '../api/get-invitations';
import { invitationRoleLabel } from '../api/validate-invitation';

function StatusBadge({ status }: { status: string }) {
  const label = status.charAt(0).toUpperCase() + status.slice(1);
  if (status === 'pending') return <Badge variant="outline">{label}</Badge>;
  if (status === 'accepted') return <Badge variant="secondary">{label}</Badge>;
  return <Badge variant="destructive">{label}</Badge>;
}

async function copyLink(invitation: InvitationListItem) {
  if (!invitation.inviteUrl) return;
  try {
    await navigator.clipboard.writeText(invitation.inviteUrl);
    notifySuccess('Link copied', invitation.inviteUrl);
  } catch {
    // No clipboard (an insecure origin, a refused permission): show the link to copy by hand.
    notifySuccess('Invitation link', invitation.inviteUrl);
  }
}

/** InvitationsTable lists the invitations (polled every 3 s) with their links and a delete action. */
export function InvitationsTable() {
  const fmt = useTimeFormat();
  const invitations = useInvitations();
  const deleteInvitation = useDeleteInvitation();
  const [toDelete, setToDelete] = useState<InvitationListItem | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Pending Invitations</h2>
        </CardTitle>
        <CardAction>
          <Button
            variant="outline"
            size="sm"
            onClick={() => void invitations.refetch()}
            disabled={invitations.isFetching}
          >
            <RefreshCw
              aria-hidden="true"
              className={invitations.isFetching ? 'animate-spin' : ''}
            />
            Refresh
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        {invitations.isPending ? (
          <div role="status" className="flex justify-center py-6 text-muted-foreground">
            <Spinner className="size-5" />
            <span className="sr-only">Loading invitations...</span>
          </div>
        ) : invitations.isError ? (
          <p role="alert" className="text-destructive text-sm">
            Error loading invitations: {invitations.error.message || 'Unknown error'}
          </p>
        ) : invitations.data.length === 0 ? (
          <p className="py-6 text-center text-muted-foreground text-sm">No pending invitations</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Email</TableHead>
                <TableHead>Role</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Expires</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {invitations.data.map((invitation) => (
                <TableRow key={invitation.id}>
                  <TableCell className="font-medium">{invitation.name}</TableCell>
                  <TableCell>{invitation.email}</TableCell>
                  <TableCell>{invitationRoleLabel(invitation.role)}</TableCell>
                  <TableCell>
                    <StatusBadge status={invitation.status} />
                  </TableCell>
                  <TableCell>{fmt.shortDate(invitation.expiresAt)}</TableCell>
                  <TableCell>
                    <div className="flex justify-end gap-1">
                      {invitation.inviteUrl ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          aria-label={`Copy link of the invitation for ${invitation.email}`}
                          onClick={() => void copyLink(invitation)}
                        >
                          <Copy aria-hidden="true" />
                          Copy link
                        </Button>
                      ) : null}
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Delete invitation for ${invitation.email}`}
                        onClick={() => setToDelete(invitation)}
                      >
                        <Trash2 aria-hidden="true" className="text-destructive" />
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <AlertDialog open={toDelete !== null} onOpenChange={(open) => !open && setToDelete(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete invitation?</AlertDialogTitle>
            <AlertDialogDescription>
              The invitation for {toDelete?.email} will be deleted and its link will stop working.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              onClick={() => toDelete && deleteInvitation.mutate(toDelete.id)}
            >
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
