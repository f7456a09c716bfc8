import type { ImportChange, ImportPlan } from '@shared/contracts/imports';
import { CircleAlert, Info } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { summaryWords } from '../lib/plan-words';

const KIND_TITLES: Record<ImportChange['kind'], string> = {
  rotation: 'Rotations',
  policy: 'Escalation policies',
  integration: 'Integrations',
  cover: 'Planned cover',
};

const ACTION_WORDS = {
  create: 'New',
  update: 'Changes',
  unchanged: 'Unchanged',
  match: 'Matched',
  invite: 'Invited',
  skip: 'Left out',
} as const;

const ACTION_TONES = {
  create: 'success',
  update: 'warning',
  unchanged: undefined,
  match: 'success',
  invite: 'warning',
  skip: 'danger',
} as const;

function ActionBadge({ action }: { action: keyof typeof ACTION_WORDS }) {
  const tone = ACTION_TONES[action];
  return tone ? (
    <Badge tone={tone}>{ACTION_WORDS[action]}</Badge>
  ) : (
    <Badge variant="outline">{ACTION_WORDS[action]}</Badge>
  );
}

/**
 * ImportPlanView shows what an import would do, or did: the warnings first (what Baton could not
 * keep as the source has it, and why), then each person's match, then every rotation, policy,
 * integration and cover it creates, changes or leaves, with what it becomes in words.
 */
export function ImportPlanView({ plan }: { plan: ImportPlan }) {
  const warnings = plan.notes.filter((n) => n.level === 'warning');
  const infos = plan.notes.filter((n) => n.level === 'info');
  const kinds = (Object.keys(KIND_TITLES) as ImportChange['kind'][]).filter((k) =>
    plan.changes.some((c) => c.kind === k),
  );
  return (
    <div className="grid gap-6">
      <p className="text-sm">{summaryWords(plan)}.</p>
      {warnings.length + infos.length > 0 ? (
        <section aria-labelledby="import-notes" className="grid gap-2">
          <h3 id="import-notes" className="font-medium text-sm">
            Notes
          </h3>
          <ul className="grid gap-1.5">
            {[...warnings, ...infos].map((note, i) => (
              <li
                // notes have no id and never reorder
                // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
                key={i}
                className="flex items-start gap-2 rounded-md border p-2 text-sm"
              >
                {note.level === 'warning' ? (
                  <CircleAlert
                    aria-label="Warning"
                    className="mt-0.5 size-4 shrink-0 text-warning-foreground"
                  />
                ) : (
                  <Info
                    aria-label="Note"
                    className="mt-0.5 size-4 shrink-0 text-muted-foreground"
                  />
                )}
                <span>
                  <span className="font-medium">{note.subject}:</span> {note.message}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="import-people" className="grid gap-2">
        <h3 id="import-people" className="font-medium text-sm">
          People ({plan.people.length})
        </h3>
        <div className="overflow-x-auto rounded-md border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Email</TableHead>
                <TableHead>In Baton</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {plan.people.map((p) => (
                <TableRow key={p.sourceId}>
                  <TableCell className="font-medium">{p.name}</TableCell>
                  <TableCell className="break-all">{p.email ?? '—'}</TableCell>
                  <TableCell>
                    <div className="flex flex-wrap items-center gap-2">
                      <ActionBadge action={p.action} />
                      {p.reason ? (
                        <span className="text-muted-foreground text-xs">{p.reason}</span>
                      ) : null}
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </section>
      {kinds.map((kind) => (
        <section key={kind} aria-labelledby={`import-${kind}`} className="grid gap-2">
          <h3 id={`import-${kind}`} className="font-medium text-sm">
            {KIND_TITLES[kind]} ({plan.changes.filter((c) => c.kind === kind).length})
          </h3>
          <ul className="grid gap-2">
            {plan.changes
              .filter((c) => c.kind === kind)
              .map((change) => (
                <li key={`${change.kind}-${change.sourceId}`} className="rounded-md border p-2.5">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium text-sm">{change.name}</span>
                    <ActionBadge action={change.action} />
                  </div>
                  {change.details.length > 0 ? (
                    <ul className="mt-1 list-disc pl-5 text-muted-foreground text-xs">
                      {change.details.map((d) => (
                        <li key={d}>{d}</li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
