import { createContext, type ReactNode, useContext } from 'react';
import { Dialog } from '@/components/ui/dialog';

const FormDialogClose = createContext<((open: boolean) => void) | null>(null);

/**
 * FormDialog is the Dialog around a form: it cannot be opened or closed while the form is
 * submitting (`pending`), and closing it (Escape, the close button, outside, Cancel) runs
 * `onClose` first, so the form opens empty next time. Cancel in `DialogFormFooter` closes it the
 * same way (`useCloseFormDialog`).
 */
export function FormDialog({
  open,
  onOpenChange,
  pending,
  onClose,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  /** what closing undoes, as a rule the form's reset to its empty values */
  onClose?: () => void;
  children: ReactNode;
}) {
  const change = (next: boolean) => {
    if (pending) return;
    if (!next) onClose?.();
    onOpenChange(next);
  };
  return (
    <FormDialogClose.Provider value={change}>
      <Dialog open={open} onOpenChange={change}>
        {children}
      </Dialog>
    </FormDialogClose.Provider>
  );
}

/** useCloseFormDialog returns what closes the FormDialog around the caller, or undefined outside one. */
export function useCloseFormDialog(): (() => void) | undefined {
  const change = useContext(FormDialogClose);
  return change ? () => change(false) : undefined;
}
