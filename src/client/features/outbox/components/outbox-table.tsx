import { isNotSentForNoChannel, type OutboxEntry } from '@shared/contracts/notifications';
import { BellRing, KeyRound, Mail, MessageSquare, Phone, RefreshCw, Webhook } from 'lucide-react';
import { useState } from 'react';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { getErrorMessage } from '@/lib/api-client';
import { useTimeFormat } from '@/lib/use-time-format';
import { OUTBOX_FILTERS, OUTBOX_LIMIT, type OutboxFilter, useOutbox } from '../api/get-outbox';

const FILTER_LABELS: Record<OutboxFilter, string> = {
  all: 'All',
  pending: 'Pending',
  sent: 'Sent',
  failed: 'Failed',
};

/** Each channel's icon and its accessible name (token sync: decision 228). */
const CHANNEL_ICONS = {
  email: { Icon: Mail, label: 'Email' },
  sms: { Icon: MessageSquare, label: 'SMS' },
  voice: { Icon: Phone, label: 'Phone call' },
  chat: { Icon: Webhook, label: 'Chat or webhook' },
  'token-sync': { Icon: KeyRound, label: 'Token sync' },
  push: { Icon: BellRing, label: 'Push' },
} as const;

function ChannelIcon({ channel }: { channel: OutboxEntry['channel'] }) {
  const { Icon, label } = CHANNEL_ICONS[channel];
  return <Icon aria-label={label} className="size-4 text-muted-foreground" />;
}

const STATUS_TONES: Record<string, BadgeTone> = {
  sent: 'success',
  failed: 'danger',
  pending: 'warning',
};

function DeliveryState({ entry }: { entry: OutboxEntry }) {
  const fmt = useTimeFormat();
  // Not a delivery failure: this server has no settings for the channel (in demo mode such a
  // notification is kept in the demo inbox instead, decision 186).
  const noChannel = isNotSentForNoChannel(entry);
  const detail =
    entry.status === 'sent'
      ? entry.sentAt
        ? `sent ${fmt.toSecond(entry.sentAt)}`
        : null
      : entry.status === 'pending' && entry.attempts > 0
        ? `retry ${fmt.toSecond(entry.nextAttemptAt)}`
        : null;
  return (
    <div className="grid gap-1">
      {noChannel ? (
        <Badge variant="outline" className="min-w-max bg-muted text-foreground">
          Not sent: no channel
        </Badge>
      ) : (
        <Badge variant="outline" tone={STATUS_TONES[entry.status]} className="min-w-max capitalize">
          {entry.status}
        </Badge>
      )}
      <span className="text-muted-foreground text-xs">
        {entry.attempts} attempt{entry.attempts === 1 ? '' : 's'}
        {detail ? ` · ${detail}` : ''}
      </span>
    </div>
  );
}

/**
 * OutboxTable is the administrators' view of the outbox: every email and SMS Baton queued, with
 * its delivery state, attempts, the last error and the provider's answer. Nothing is dropped
 * silently: without a configured channel a notification shows here as 'Not sent: no channel'
 * with the setting it needs.
 */
export function OutboxTable() {
  const fmt = useTimeFormat();
  const [filter, setFilter] = useState<OutboxFilter>('all');
  const outbox = useOutbox(filter);
  const entries = outbox.data ?? [];

  return (
    <Card className="gap-0 py-0">
      <CardHeader className="border-b py-5">
        <CardTitle asChild>
          <h2>Outbox</h2>
        </CardTitle>
        <CardDescription>
          The latest {OUTBOX_LIMIT} notifications, newest first. Refreshed every 10 seconds.
        </CardDescription>
      </CardHeader>
      <Tabs value={filter} onValueChange={(v) => setFilter(v as OutboxFilter)} className="gap-0">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b px-6 py-3">
          <TabsList aria-label="Delivery state">
            {OUTBOX_FILTERS.map((f) => (
              <TabsTrigger key={f} value={f}>
                {FILTER_LABELS[f]}
              </TabsTrigger>
            ))}
          </TabsList>
          <Button
            variant="outline"
            size="sm"
            onClick={() => outbox.refetch()}
            pending={outbox.isFetching}
          >
            {outbox.isFetching ? null : <RefreshCw aria-hidden />}
            Refresh
          </Button>
        </div>
        <TabsContent value={filter}>
          <CardContent className="px-0">
            {outbox.isPending ? (
              <LoadingState label="Loading notifications..." className="py-12" />
            ) : outbox.isError ? (
              <div className="p-6">
                <Alert variant="destructive">
                  <AlertTitle>Failed to fetch notifications</AlertTitle>
                  <AlertDescription>
                    {getErrorMessage(outbox.error, 'Please try again.')}
                  </AlertDescription>
                </Alert>
              </div>
            ) : entries.length === 0 ? (
              <p className="px-6 py-12 text-center text-muted-foreground text-sm">
                {filter === 'all' ? 'No notifications yet' : `No ${filter} notifications`}
              </p>
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead className="pl-6">Recipient</TableHead>
                    <TableHead>Message</TableHead>
                    <TableHead>Delivery</TableHead>
                    <TableHead className="pr-6">Provider answer</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {entries.map((entry) => (
                    <TableRow key={entry.id} className="align-top">
                      <TableCell className="pl-6">
                        <span className="flex items-center gap-1.5">
                          <ChannelIcon channel={entry.channel} />
                          {entry.to || '—'}
                        </span>
                      </TableCell>
                      <TableCell className="min-w-56 max-w-sm whitespace-normal">
                        <p className="font-medium">{entry.subject}</p>
                        <p className="text-muted-foreground text-xs">
                          {entry.kind} · created{' '}
                          <time dateTime={entry.createdAt} title={fmt.dateTime(entry.createdAt)}>
                            {fmt.toSecond(entry.createdAt)}
                          </time>
                        </p>
                      </TableCell>
                      <TableCell>
                        <DeliveryState entry={entry} />
                      </TableCell>
                      <TableCell className="max-w-56 whitespace-normal break-all pr-6 text-muted-foreground text-xs">
                        {entry.lastError ?? ''}
                        {entry.lastError && entry.providerResponse ? <br /> : null}
                        {entry.providerResponse ?? ''}
                        {!entry.lastError && !entry.providerResponse ? '—' : null}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </TabsContent>
      </Tabs>
    </Card>
  );
}
