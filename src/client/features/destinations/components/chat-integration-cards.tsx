import { DESTINATION_KIND_LABELS, type DestinationKind } from '@shared/contracts/destinations';
import { type LucideIcon, MessageSquare, MessagesSquare, Webhook } from 'lucide-react';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { useDestinations } from '../api/get-destinations';

/** The three chat and webhook cards of Settings → Integrations (decision 221). */
const CARDS: { name: string; kind: DestinationKind; description: string; icon: LucideIcon }[] = [
  {
    name: 'Slack',
    kind: 'slack',
    description:
      'Post handoffs, cover, incidents and a daily digest to a Slack channel. Mattermost and Discord take the same messages.',
    icon: MessageSquare,
  },
  {
    name: 'Microsoft Teams',
    kind: 'teams',
    description: 'Post the same events as Adaptive Cards through a Teams Workflows webhook.',
    icon: MessagesSquare,
  },
  {
    name: 'Webhooks',
    kind: 'webhook',
    description: 'Send signed JSON events (Standard Webhooks) to any receiver of yours.',
    icon: Webhook,
  },
];

/**
 * ChatIntegrationCards are the Slack, Microsoft Teams and Webhooks cards: "Connected" with their
 * destinations when there are some; Connect leads to adding one on a chosen rotation's page.
 */
export function ChatIntegrationCards({
  rotations,
}: {
  rotations: readonly { id: number; name: string }[];
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Chat and webhooks</h2>
        </CardTitle>
        <CardDescription>
          Where Baton posts what happens in a rotation. Each destination belongs to a rotation, an
          escalation policy or an integration and is managed on its page.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y rounded-lg border">
          {CARDS.map((card) => (
            <ChatIntegrationCard key={card.kind} {...card} rotations={rotations} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function ChatIntegrationCard({
  name,
  kind,
  description,
  icon: Icon,
  rotations,
}: (typeof CARDS)[number] & { rotations: readonly { id: number; name: string }[] }) {
  const destinations = useDestinations({ kind });
  const navigate = useNavigate();
  const id = useId();
  const [choosing, setChoosing] = useState(false);
  const [rotationId, setRotationId] = useState<number | null>(rotations[0]?.id ?? null);
  const list = destinations.data?.destinations ?? [];
  const connected = list.length > 0;
  return (
    <li className="grid gap-3 p-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <div className="flex size-9 shrink-0 items-center justify-center rounded-md bg-muted">
            <Icon className="size-4" aria-hidden="true" />
          </div>
          <div>
            <h3 className="font-medium text-sm">{name}</h3>
            <p className="text-muted-foreground text-sm">{description}</p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-3 sm:shrink-0 sm:justify-end">
          <Badge variant={connected ? 'secondary' : 'outline'}>
            {connected ? 'Connected' : 'Not connected'}
          </Badge>
          <Button
            type="button"
            variant="outline"
            size="sm"
            aria-label={`Connect ${name}`}
            aria-expanded={choosing}
            aria-controls={`${id}-connect`}
            onClick={() => setChoosing((now) => !now)}
          >
            Connect
          </Button>
        </div>
      </div>
      {connected ? (
        <ul className="grid gap-1 text-sm" aria-label={`${name} destinations`}>
          {list.map((d) => (
            <li key={d.id} className="flex flex-wrap gap-2">
              <span className="font-mono text-xs">{d.urlHint}</span>
              <span className="text-muted-foreground">
                {d.targetName ? `for ${d.targetName}` : ''}
                {d.failingSince ? ' · failing' : ''}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {choosing ? (
        <div id={`${id}-connect`} className="flex flex-wrap items-end gap-3">
          {rotations.length === 0 ? (
            <p className="text-muted-foreground text-sm">
              Create a rotation first: {DESTINATION_KIND_LABELS[kind]} destinations belong to one.
            </p>
          ) : (
            <>
              <div className="grid gap-1">
                <Label htmlFor={`${id}-rotation`}>Rotation</Label>
                <select
                  id={`${id}-rotation`}
                  className="h-9 rounded-md border bg-background px-2 text-sm"
                  value={rotationId ?? ''}
                  onChange={(event) => setRotationId(Number(event.target.value))}
                >
                  {rotations.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.name}
                    </option>
                  ))}
                </select>
              </div>
              <Button
                type="button"
                size="sm"
                disabled={rotationId === null}
                onClick={() => navigate(`/rotations/${rotationId}?add-destination=${kind}`)}
              >
                Set up on this rotation
              </Button>
            </>
          )}
        </div>
      ) : null}
    </li>
  );
}
