import {
  METHOD_LABELS,
  NOTIFICATION_METHODS,
  type NotificationMethod,
  type NotificationRule,
  type RuleReach,
  unreachableReason,
} from '@shared/domain/notification-rules';
import { ArrowDown, ArrowUp, Phone, TriangleAlert, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';

/** What a call rule does, said under it once calls are set up (decision 252). */
export const CALL_IN_WORDS =
  'Baton calls the phone number on the profile and reads the page: press 1 to acknowledge, 2 to escalate to the next step, 3 to hear it again. A call nobody answers counts as not delivered.';

/** One rule of the editor: its method and delay, move and remove, and why it cannot reach. */
export function RuleRow({
  field,
  rule,
  index,
  count,
  phone,
  reach,
  problems,
  onChange,
  onMove,
  onRemove,
}: {
  /** the rule's field name, `high.1` */
  field: string;
  rule: NotificationRule;
  index: number;
  count: number;
  phone: string | null;
  /** what else reaches the person: calls once set up (decision 252), their devices for push (decision 253) */
  reach?: RuleReach;
  problems: Record<string, string>;
  onChange: (rule: NotificationRule) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const methodProblem = problems[`${field}.method`];
  const delayProblem = problems[`${field}.delayMinutes`];
  const warning = methodProblem ? null : unreachableReason(rule.method, phone, reach);
  const position = `rule ${index + 1}`;
  return (
    <li className="grid gap-1.5" data-testid={`rule-${field}`}>
      <div className="flex items-end gap-2">
        <div className="grid min-w-0 flex-1 gap-1">
          <label className="text-muted-foreground text-xs" htmlFor={`${field}-method`}>
            Method
          </label>
          <Select
            value={rule.method}
            onValueChange={(method) => onChange({ ...rule, method: method as NotificationMethod })}
          >
            <SelectTrigger
              id={`${field}-method`}
              aria-label={`Method of ${position}`}
              aria-invalid={methodProblem ? true : undefined}
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {NOTIFICATION_METHODS.map((method) => (
                <SelectItem key={method} value={method}>
                  {METHOD_LABELS[method]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid w-16 shrink-0 gap-1 sm:w-28">
          <label className="text-muted-foreground text-xs" htmlFor={`${field}-delay`}>
            Minutes
          </label>
          <Input
            id={`${field}-delay`}
            aria-label={`Minutes before ${position}`}
            type="number"
            inputMode="numeric"
            min={0}
            max={60}
            step={1}
            value={Number.isNaN(rule.delayMinutes) ? '' : rule.delayMinutes}
            aria-invalid={delayProblem ? true : undefined}
            onChange={(e) =>
              onChange({
                ...rule,
                delayMinutes: e.target.value === '' ? Number.NaN : Number(e.target.value),
              })
            }
          />
        </div>
        <div className="flex shrink-0">
          <Button
            type="button"
            size="icon"
            className="size-8 sm:size-9"
            variant="ghost"
            aria-label={`Move ${position} up`}
            disabled={index === 0}
            onClick={() => onMove(-1)}
          >
            <ArrowUp aria-hidden="true" />
          </Button>
          <Button
            type="button"
            size="icon"
            className="size-8 sm:size-9"
            variant="ghost"
            aria-label={`Move ${position} down`}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            <ArrowDown aria-hidden="true" />
          </Button>
          <Button
            type="button"
            size="icon"
            className="size-8 sm:size-9"
            variant="ghost"
            aria-label={`Remove ${position}`}
            disabled={count === 1}
            onClick={onRemove}
          >
            <X aria-hidden="true" />
          </Button>
        </div>
      </div>
      {methodProblem || delayProblem ? (
        <p className="text-destructive text-sm" role="alert">
          {methodProblem ?? delayProblem}
        </p>
      ) : null}
      {warning ? (
        <p className="flex items-center gap-1.5 text-sm text-warning-foreground">
          <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
          {warning}: this rule is skipped.
        </p>
      ) : null}
      {!warning && !methodProblem && rule.method === 'voice' ? (
        <p className="flex items-start gap-1.5 text-muted-foreground text-sm">
          <Phone className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {CALL_IN_WORDS}
        </p>
      ) : null}
    </li>
  );
}
