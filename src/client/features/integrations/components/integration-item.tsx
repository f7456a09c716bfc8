import { INTEGRATION_SOURCE_LABELS, type Integration } from '@shared/contracts/integrations';
import { ChevronRight, FlaskConical, KeyRound, Pencil, Trash2 } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';
import { GROUPING_LABELS, URGENCY_LABELS } from '../lib/labels';
import { ConfigSnippets } from './config-snippets';
import { KeyPanel } from './key-panel';
import { RecentAlerts } from './recent-alerts';
import { SendTestAlertDialog } from './send-test-alert-dialog';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Disclosure is a button that opens and closes the section under it. */
function Disclosure({
  label,
  open,
  onToggle,
  children,
}: {
  label: string;
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="grid min-w-0 gap-3">
      <Button
        type="button"
        variant="ghost"
        size="sm"
        className="w-fit px-1"
        aria-expanded={open}
        aria-controls={id}
        onClick={onToggle}
      >
        <ChevronRight
          aria-hidden="true"
          className={cn('transition-transform', open && 'rotate-90')}
        />
        {label}
      </Button>
      {open ? (
        <div id={id} className="min-w-0 border-l-2 pl-3 sm:pl-4">
          {children}
        </div>
      ) : null}
    </div>
  );
}

/** TargetLink names where an integration's incidents go, linked to that rotation or policy. */
function TargetLink({ integration }: { integration: Integration }) {
  const [kind, to, name] =
    integration.rotationId !== null
      ? ['Rotation', `/rotations/${integration.rotationId}`, integration.rotationName]
      : [
          'Escalation policy',
          `/escalation-policies/${integration.escalationPolicyId}`,
          integration.escalationPolicyName,
        ];
  return (
    <div className="flex gap-1">
      <dt className="text-muted-foreground">{kind}</dt>
      <dd>
        <Link to={to} className="font-medium underline-offset-4 hover:underline">
          {name}
        </Link>
      </dd>
    </div>
  );
}

/**
 * IntegrationItem is one integration: its name, source, key hint, state, last use and counts
 * (where its incidents go too, on the Integrations screen: `showTarget`); for those who
 * may manage it, Send test alert, Edit, Regenerate key and Delete; for everyone, its
 * configurations and its recent alerts. Right after its key is made, the key panel leads and the
 * configurations open with the key filled in.
 */
export function IntegrationItem({
  integration,
  revealedKey,
  onHideKey,
  onEdit,
  onRegenerate,
  onDelete,
  extra,
  showTarget = false,
}: {
  integration: Integration;
  revealedKey: string | null;
  onHideKey: () => void;
  onEdit: () => void;
  onRegenerate: () => void;
  onDelete: () => void;
  /** a section the page adds under the integration (its chat and webhooks, decision 221) */
  extra?: { label: string; content: ReactNode };
  /** name the rotation or policy it goes to (the Integrations screen lists them all) */
  showTarget?: boolean;
}) {
  const fmt = useTimeFormat();
  const [testing, setTesting] = useState(false);
  const [showConfig, setShowConfig] = useState(false);
  const [showAlerts, setShowAlerts] = useState(false);
  const [showExtra, setShowExtra] = useState(false);
  const { counts } = integration;
  const headingId = useId();
  // A key just made opens the configurations, which have it filled in while it shows.
  useEffect(() => {
    if (revealedKey !== null) setShowConfig(true);
  }, [revealedKey]);

  return (
    <li aria-labelledby={headingId} className="grid min-w-0 gap-3 py-4 first:pt-0 last:pb-0">
      {revealedKey ? (
        <KeyPanel integration={integration} keyText={revealedKey} onDone={onHideKey} />
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="min-w-0 break-words font-semibold text-base">
          {integration.name}
        </h3>
        <Badge variant="secondary">
          <span className="sr-only">Source: </span>
          <span>{INTEGRATION_SOURCE_LABELS[integration.source]}</span>
        </Badge>
        <Badge variant="outline" className="font-mono" title="The key’s last four characters">
          <KeyRound aria-hidden="true" />
          <span className="sr-only">Key ending in</span>…{integration.keyHint}
        </Badge>
        {counts.openIncidents > 0 ? (
          <Badge tone="danger">
            {plural(counts.openIncidents, 'open incident', 'open incidents')}
          </Badge>
        ) : null}
        {integration.lastUsedAt === null ? <Badge variant="outline">Not used yet</Badge> : null}
        {integration.hasSigningSecret ? <Badge variant="secondary">Signed</Badge> : null}
      </div>
      <dl className="flex flex-col gap-x-6 gap-y-1 text-sm sm:flex-row sm:flex-wrap">
        {showTarget ? <TargetLink integration={integration} /> : null}
        <div className="flex gap-1">
          <dt className="text-muted-foreground">Last used</dt>
          <dd>
            {integration.lastUsedAt ? (
              <time dateTime={integration.lastUsedAt}>{fmt.dateTime(integration.lastUsedAt)}</time>
            ) : (
              'never'
            )}
          </dd>
        </div>
        <div className="flex gap-1">
          <dt className="sr-only">Received</dt>
          <dd>
            {plural(counts.alerts, 'alert', 'alerts')} ·{' '}
            {plural(counts.incidents, 'incident', 'incidents')}
          </dd>
        </div>
        <div className="flex gap-1">
          <dt className="sr-only">Settings</dt>
          <dd className="text-muted-foreground">
            {GROUPING_LABELS[integration.grouping]} · urgency{' '}
            {URGENCY_LABELS[integration.urgency].toLowerCase()}
          </dd>
        </div>
      </dl>
      {integration.canManage ? (
        <div className="flex flex-wrap gap-2">
          <Button type="button" size="sm" onClick={() => setTesting(true)}>
            <FlaskConical aria-hidden="true" /> Send test alert
          </Button>
          <SendTestAlertDialog integration={integration} open={testing} onOpenChange={setTesting} />
          <Button type="button" size="sm" variant="outline" onClick={onEdit}>
            <Pencil aria-hidden="true" /> Edit
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={onRegenerate}>
            <KeyRound aria-hidden="true" /> Regenerate key
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={onDelete}>
            <Trash2 aria-hidden="true" /> Delete
          </Button>
        </div>
      ) : null}
      <Disclosure
        label="Configuration"
        open={showConfig}
        onToggle={() => setShowConfig(!showConfig)}
      >
        <ConfigSnippets integration={integration} revealedKey={revealedKey} />
      </Disclosure>
      <Disclosure
        label="Recent alerts"
        open={showAlerts}
        onToggle={() => setShowAlerts(!showAlerts)}
      >
        <RecentAlerts integration={integration} />
      </Disclosure>
      {extra ? (
        <Disclosure label={extra.label} open={showExtra} onToggle={() => setShowExtra(!showExtra)}>
          {extra.content}
        </Disclosure>
      ) : null}
    </li>
  );
}
