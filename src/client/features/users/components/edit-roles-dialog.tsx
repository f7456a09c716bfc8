import { zodResolver } from '@hookform/resolvers/zod';
import {
  ROLE_UPDATE_MESSAGES,
  RolesFormSchema,
  type RolesFormValues,
  roleUpdateFailureTitle,
  type User,
} from '@shared/contracts/users';
import { effectiveRoles, ROLE_LABELS, ROLES, type Role } from '@shared/domain/roles';
import { CircleAlert } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form, FormField, FormItem, FormMessage } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { getErrorMessage } from '@/lib/api-client';
import { notifyFailure } from '@/lib/notify';
import { useUpdateUserRoles } from '../api/update-user-roles';

/**
 * EditRolesDialog changes a user's roles: it opens with their current roles (legacy member as
 * on-call, on-call by default), cannot be closed while saving, and keeps at least one role:
 * unchecking the last one says 'Role Required' and leaves it checked.
 */
export function EditRolesDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const form = useForm<RolesFormValues>({
    resolver: zodResolver(RolesFormSchema),
    defaultValues: { roles: effectiveRoles(user.roles, user.role) },
    mode: 'onChange',
  });
  const roles = form.watch('roles');
  const updateRoles = useUpdateUserRoles();
  const saving = updateRoles.isPending;
  const baseId = useId();

  const toggle = (role: Role, on: boolean) => {
    if (!on && roles.length === 1 && roles[0] === role) {
      // The last role stays checked: a user must have at least one (specification section 5).
      notifyFailure(roleUpdateFailureTitle(ROLE_UPDATE_MESSAGES.none), ROLE_UPDATE_MESSAGES.none);
      return;
    }
    form.setValue(
      'roles',
      ROLES.filter((r) => (r === role ? on : roles.includes(r))),
      { shouldValidate: true, shouldDirty: true },
    );
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !saving) onClose();
      }}
    >
      <DialogContent
        showCloseButton={!saving}
        onEscapeKeyDown={(event) => saving && event.preventDefault()}
        onPointerDownOutside={(event) => saving && event.preventDefault()}
        onInteractOutside={(event) => saving && event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>Edit User Roles</DialogTitle>
          <DialogDescription>
            Choose the roles of {user.name}. An administrator also counts as a manager and an
            incident manager.
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit((values) =>
              updateRoles.mutate(
                { userId: user.id, roles: values.roles },
                { onSuccess: () => onClose() },
              ),
            )}
          >
            <FormField
              control={form.control}
              name="roles"
              render={() => (
                <FormItem>
                  <fieldset className="grid gap-3" disabled={saving}>
                    <legend className="sr-only">Roles</legend>
                    {ROLES.map((role) => {
                      const id = `${baseId}-${role}`;
                      return (
                        <div key={role} className="flex items-center gap-3">
                          <Checkbox
                            id={id}
                            checked={roles.includes(role)}
                            onCheckedChange={(value) => toggle(role, value === true)}
                            disabled={saving}
                          />
                          <Label htmlFor={id}>{ROLE_LABELS[role]}</Label>
                        </div>
                      );
                    })}
                  </fieldset>
                  <FormMessage />
                </FormItem>
              )}
            />
            {updateRoles.isError ? (
              <Alert variant="destructive">
                <CircleAlert aria-hidden="true" />
                <AlertDescription>
                  {`Error: ${getErrorMessage(updateRoles.error, 'Failed to update roles')}`}
                </AlertDescription>
              </Alert>
            ) : null}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={onClose} disabled={saving}>
                Cancel
              </Button>
              <Button type="submit" disabled={roles.length === 0} pending={saving}>
                {saving ? 'Saving...' : 'Save Roles'}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
