import {
  type NotificationRule,
  RULE_URGENCIES,
  type RuleReach,
  type RuleUrgency,
  rulesPreview,
  unreachableReason,
} from '@shared/domain/notification-rules';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ApiRequestError } from '@/lib/api-client';
import { notifyError } from '@/lib/notify';
import { useNotificationRules, useSaveNotificationRules } from '../api/notification-rules';
import { asInput, type EditedRules, moved, nextRule, problemsOf } from '../lib/rule-editing';
import { RuleRow } from './rule-row';

const URGENCY_TITLES: Record<RuleUrgency, { title: string; note: string }> = {
  high: { title: 'High urgency', note: 'Medium-urgency incidents follow these too.' },
  low: { title: 'Low urgency', note: 'Incidents raised as low urgency.' },
};

/** Whom the rules are of: their id, how the editor names them, and their phone on file. */
export interface RulesPerson {
  id: number;
  name: string;
  phone: string | null;
}

/**
 * NotificationRulesEditor edits a person's notification rules (issue 33, decision 251): per
 * urgency a list of (method, delay) rows to add, remove and reorder, the rules in words, a
 * warning for each rule that cannot reach them, Save, and "Use my notification preference".
 */
export function NotificationRulesEditor({
  person,
  own,
  reach = {},
}: {
  person: RulesPerson;
  own: boolean;
  /** what else reaches the person: their devices for push (decision 253), read by the route */
  reach?: RuleReach;
}) {
  const read = useNotificationRules(person.id);
  if (!read.data) return <LoadingState />;
  // Keyed by what was read: a save's answer starts the editor again from what is stored.
  return (
    <RulesForm
      key={JSON.stringify(read.data)}
      person={person}
      own={own}
      initial={{ high: read.data.high, low: read.data.low }}
      isOwnRules={read.data.own}
      reach={{ ...reach, voice: read.data.voiceReady }}
    />
  );
}

function RulesForm({
  person,
  own,
  initial,
  isOwnRules,
  reach,
}: {
  person: RulesPerson;
  own: boolean;
  initial: EditedRules;
  isOwnRules: boolean;
  /** what reaches the person beyond email and SMS: calls once set up (decision 252), their devices for push (decision 253) */
  reach: RuleReach;
}) {
  const save = useSaveNotificationRules(person.id, own ? undefined : person.name);
  const [rules, setRules] = useState<EditedRules>(initial);
  const [serverProblems, setServerProblems] = useState<Record<string, string>>({});
  const [tried, setTried] = useState(false);
  const problems = { ...(tried ? problemsOf(rules) : {}), ...serverProblems };
  const edit = (urgency: RuleUrgency, list: NotificationRule[]) => {
    setRules((current) => ({ ...current, [urgency]: list }));
    setServerProblems({});
  };
  const valid = Object.keys(problemsOf(rules)).length === 0;
  const unreachable = RULE_URGENCIES.filter((urgency) =>
    rules[urgency].every((r) => unreachableReason(r.method, person.phone, reach) !== null),
  );

  const submit = (next: EditedRules | null) => {
    setTried(true);
    if (next && !valid) return;
    save.mutate(next && asInput(next), {
      onError: (error) => {
        const fields =
          error instanceof ApiRequestError && error.status === 400 ? error.body?.fields : null;
        if (fields) setServerProblems(fields);
        else notifyError('Rules not saved', error, 'The rules could not be saved.');
      },
    });
  };

  return (
    <form
      noValidate
      className="grid gap-6"
      onSubmit={(e) => {
        e.preventDefault();
        submit(rules);
      }}
    >
      {isOwnRules ? null : (
        <p className="text-muted-foreground text-sm">
          <Badge variant="secondary" className="mr-2">
            Notification Preference
          </Badge>
          {own ? 'You have no rules of your own' : `${person.name} has no rules of their own`}:
          these are what the Notification Preference means. Change them and save to make them{' '}
          {own ? 'yours' : 'theirs'}.
        </p>
      )}
      {RULE_URGENCIES.map((urgency) => (
        <fieldset key={urgency} className="grid gap-3">
          <legend className="mb-2 font-medium">
            {URGENCY_TITLES[urgency].title}
            <span className="block font-normal text-muted-foreground text-sm">
              {URGENCY_TITLES[urgency].note}
            </span>
          </legend>
          <ol className="grid gap-3">
            {rules[urgency].map((rule, i) => (
              <RuleRow
                // biome-ignore lint/suspicious/noArrayIndexKey: a rule is its place in the list
                key={i}
                field={`${urgency}.${i}`}
                rule={rule}
                index={i}
                count={rules[urgency].length}
                phone={person.phone}
                reach={reach}
                problems={problems}
                onChange={(changed) =>
                  edit(
                    urgency,
                    rules[urgency].map((r, j) => (j === i ? changed : r)),
                  )
                }
                onMove={(by) => edit(urgency, moved(rules[urgency], i, by))}
                onRemove={() =>
                  edit(
                    urgency,
                    rules[urgency].filter((_, j) => j !== i),
                  )
                }
              />
            ))}
          </ol>
          {problems[urgency] ? (
            <p className="text-destructive text-sm" role="alert">
              {problems[urgency]}
            </p>
          ) : null}
          <div>
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={rules[urgency].length >= 8}
              onClick={() => edit(urgency, [...rules[urgency], nextRule(rules[urgency])])}
            >
              <Plus aria-hidden="true" />
              Add a rule
            </Button>
          </div>
        </fieldset>
      ))}
      <div className="grid gap-1 rounded-md border bg-muted/40 px-4 py-3">
        <p className="font-medium text-sm">In words</p>
        <p className="text-sm" data-testid="rules-preview">
          {valid ? rulesPreview(rules) : 'Correct the rules above to see them in words.'}
        </p>
      </div>
      {unreachable.length > 0 ? (
        <Alert tone="warning">
          <AlertDescription>
            No rule for {unreachable.map((u) => `${u} urgency`).join(' or ')} can reach{' '}
            {own ? 'you' : person.name} now: pages then go by email at once.
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={save.isPending && save.variables !== null}>
          Save rules
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={!isOwnRules}
          pending={save.isPending && save.variables === null}
          onClick={() => submit(null)}
        >
          {own ? 'Use my notification preference' : 'Use their notification preference'}
        </Button>
      </div>
    </form>
  );
}
