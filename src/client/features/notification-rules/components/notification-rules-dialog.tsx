import type { RuleReach } from '@shared/domain/notification-rules';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { NotificationRulesEditor, type RulesPerson } from './notification-rules-editor';

/**
 * NotificationRulesDialog: an administrator edits someone's notification rules from User
 * Management (decision 251), with the profile's own editor.
 */
export function NotificationRulesDialog({
  person,
  onClose,
  reach,
}: {
  person: RulesPerson;
  onClose: () => void;
  /** their devices for push (decision 253) */
  reach?: RuleReach;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Notification rules of {person.name}</DialogTitle>
          <DialogDescription>
            How a page reaches {person.name}, by the incident's urgency: each way after its own
            delay.
          </DialogDescription>
        </DialogHeader>
        <NotificationRulesEditor person={person} own={false} reach={reach} />
      </DialogContent>
    </Dialog>
  );
}
