import type { User } from '@shared/contracts/users';
import { effectiveRoles, ROLE_LABELS } from '@shared/domain/roles';
import { BellRing, ShieldCheck, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
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
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { initials } from '@/lib/utils';
import { useDeleteUser } from '../api/delete-user';
import { useUsers } from '../api/get-users';
import { EditRolesDialog } from './edit-roles-dialog';

/** UsersTable lists every user with their roles; administrators edit roles and delete others. */
export function UsersTable({
  currentUserId,
  rulesDialog,
  reachOf,
}: {
  currentUserId: number;
  /** the dialog that edits a person's notification rules (decision 251), from the route */
  rulesDialog?: (user: User, onClose: () => void) => ReactNode;
  /** how the person can be reached (decision 254), from the route: a column when given */
  reachOf?: (user: User) => ReactNode;
}) {
  const users = useUsers();
  const deleteUser = useDeleteUser();
  const [editing, setEditing] = useState<User | null>(null);
  const [toDelete, setToDelete] = useState<User | null>(null);
  const [rulesOf, setRulesOf] = useState<User | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Users</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {users.isPending ? (
          <div role="status" className="flex justify-center py-6 text-muted-foreground">
            <Spinner className="size-5" />
            <span className="sr-only">Loading users...</span>
          </div>
        ) : users.isError ? (
          <p role="alert" className="text-destructive text-sm">
            Error loading users: {users.error.message || 'Unknown error'}
          </p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>User</TableHead>
                <TableHead>Email</TableHead>
                <TableHead>Current Role</TableHead>
                {reachOf ? <TableHead>Reachable by</TableHead> : null}
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {users.data.map((user) => (
                <TableRow key={user.id}>
                  <TableCell>
                    <div className="flex items-center gap-3">
                      <Avatar className="size-8">
                        <AvatarFallback className="bg-primary/10 font-semibold text-primary">
                          {initials(user.name)}
                        </AvatarFallback>
                      </Avatar>
                      <span className="font-medium">{user.name}</span>
                      {user.id === currentUserId ? <Badge variant="outline">You</Badge> : null}
                    </div>
                  </TableCell>
                  <TableCell>{user.email}</TableCell>
                  <TableCell>
                    <div className="flex flex-wrap gap-1">
                      {effectiveRoles(user.roles, user.role).map((role) => (
                        <Badge key={role} variant={role === 'admin' ? 'default' : 'secondary'}>
                          {ROLE_LABELS[role]}
                        </Badge>
                      ))}
                    </div>
                  </TableCell>
                  {reachOf ? <TableCell>{reachOf(user)}</TableCell> : null}
                  <TableCell>
                    <div className="flex justify-end gap-1">
                      <Button
                        variant="outline"
                        size="sm"
                        aria-label={`Edit roles for ${user.name}`}
                        onClick={() => setEditing(user)}
                      >
                        <ShieldCheck aria-hidden="true" />
                        Edit Roles
                      </Button>
                      {rulesDialog ? (
                        <Button
                          variant="ghost"
                          size="icon"
                          aria-label={`Notification rules of ${user.name}`}
                          onClick={() => setRulesOf(user)}
                        >
                          <BellRing aria-hidden="true" />
                        </Button>
                      ) : null}
                      {user.id === currentUserId ? (
                        // No deleting oneself; the gap keeps the buttons aligned.
                        <span aria-hidden="true" className="size-9 shrink-0" />
                      ) : (
                        <Button
                          variant="ghost"
                          size="icon"
                          aria-label={`Delete ${user.name}`}
                          onClick={() => setToDelete(user)}
                        >
                          <Trash2 aria-hidden="true" className="text-destructive" />
                        </Button>
                      )}
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      {editing ? <EditRolesDialog user={editing} onClose={() => setEditing(null)} /> : null}
      {rulesOf && rulesDialog ? rulesDialog(rulesOf, () => setRulesOf(null)) : null}
      <AlertDialog open={toDelete !== null} onOpenChange={(open) => !open && setToDelete(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete user?</AlertDialogTitle>
            <AlertDialogDescription>
              {toDelete?.name} will be deleted and signed out everywhere. Their handoff history
              stays. This cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              onClick={() => toDelete && deleteUser.mutate(toDelete.id)}
            >
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
