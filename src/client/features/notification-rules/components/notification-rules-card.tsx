import type { RuleReach } from '@shared/domain/notification-rules';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { NotificationRulesEditor, type RulesPerson } from './notification-rules-editor';

/**
 * NotificationRulesCard: the "Notification rules" card around the editor (decision 251), on the
 * profile for one's own (`own`) and on someone else's page for an administrator (decision 265).
 */
export function NotificationRulesCard({
  person,
  own,
  reach,
}: {
  person: RulesPerson;
  own: boolean;
  /** their devices for push (decision 253) */
  reach?: RuleReach;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Notification rules</h2>
        </CardTitle>
        <CardDescription>
          How a page reaches {own ? 'you' : person.name}, by the incident's urgency: each way after
          its own delay. Acknowledging the incident stops the rest.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <NotificationRulesEditor person={person} own={own} reach={reach} />
      </CardContent>
    </Card>
  );
}
