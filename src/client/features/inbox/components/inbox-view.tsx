import type { InboxMessage } from '@shared/contracts/inbox';
import { ArrowLeft, Inbox, Mail, MessageSquare } from 'lucide-react';
import { useState } from 'react';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { getErrorMessage } from '@/lib/api-client';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';
import { type InboxScope, useInbox } from '../api/get-inbox';
import { emailFrameDocument } from './email-frame';

const SCOPE_LABELS: Record<InboxScope, string> = {
  mine: 'My messages',
  everyone: 'Everyone',
};

function ChannelIcon({ message, className }: { message: InboxMessage; className?: string }) {
  return message.channel === 'sms' ? (
    <MessageSquare aria-hidden className={className} />
  ) : (
    <Mail aria-hidden className={className} />
  );
}

/** Who it was for: the person's name and their address, or the address alone (an invitee). */
function recipientText(message: InboxMessage): string {
  return message.recipient ? `${message.recipient.name} <${message.to}>` : message.to;
}

function MessageListItem({
  message,
  selected,
  showRecipient,
  onOpen,
}: {
  message: InboxMessage;
  selected: boolean;
  showRecipient: boolean;
  onOpen: () => void;
}) {
  const fmt = useTimeFormat();
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        aria-current={selected ? 'true' : undefined}
        className={cn(
          'group grid w-full gap-0.5 px-4 py-3 text-left outline-none transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset',
          selected && 'bg-accent',
        )}
      >
        {/* On the accent background, muted text would fall below 4.5:1: it darkens there. */}
        <span
          className={cn(
            'flex items-center gap-2 text-muted-foreground text-xs group-hover:text-foreground/75',
            selected && 'text-foreground/75',
          )}
        >
          <ChannelIcon message={message} className="size-3.5 shrink-0" />
          <span>{message.channel === 'sms' ? 'SMS' : 'Email'}</span>
          <span aria-hidden>·</span>
          <time dateTime={message.keptAt}>{fmt.dateTime(message.keptAt)}</time>
        </span>
        <span className="line-clamp-2 font-medium text-sm">{message.subject}</span>
        {showRecipient ? (
          <span
            className={cn(
              'truncate text-muted-foreground text-xs group-hover:text-foreground/75',
              selected && 'text-foreground/75',
            )}
          >
            To {message.recipient?.name ?? message.to}
          </span>
        ) : null}
      </button>
    </li>
  );
}

function MessageReader({ message, onBack }: { message: InboxMessage; onBack: () => void }) {
  const fmt = useTimeFormat();
  return (
    <article aria-labelledby="inbox-message-subject" className="grid min-w-0 gap-4 p-4 sm:p-6">
      <Button variant="ghost" size="sm" className="w-fit lg:hidden" onClick={onBack}>
        <ArrowLeft aria-hidden />
        Back to messages
      </Button>
      <header className="grid gap-1">
        <h2 id="inbox-message-subject" className="font-semibold text-lg leading-snug">
          {message.subject}
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
          <dt className="text-muted-foreground">To</dt>
          <dd className="break-all">{recipientText(message)}</dd>
          <dt className="text-muted-foreground">By</dt>
          <dd className="flex items-center gap-1.5">
            <ChannelIcon message={message} className="size-3.5" />
            {message.channel === 'sms' ? 'SMS' : 'Email'}
          </dd>
          {/* Kept in the inbox by a channel this server lacks, not sent (decision 262). */}
          <dt className="text-muted-foreground">Kept (demo)</dt>
          <dd>
            <time dateTime={message.keptAt}>{fmt.dateTime(message.keptAt)}</time>
          </dd>
        </dl>
      </header>
      {message.channel === 'sms' ? (
        <p className="w-fit max-w-md whitespace-pre-wrap break-words rounded-2xl rounded-bl-sm bg-muted px-4 py-3 text-sm">
          {message.text}
        </p>
      ) : message.html ? (
        <>
          {/* The email as its recipient's mail client shows it, in a frame that runs no script
              and shares nothing with Baton (an opaque origin); its links open in a new tab. */}
          <iframe
            title={`Email: ${message.subject}`}
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={emailFrameDocument(message.html)}
            className="h-[28rem] w-full rounded-md border bg-white"
          />
          <details className="text-sm">
            <summary className="cursor-pointer text-muted-foreground">Plain-text version</summary>
            <p className="mt-2 whitespace-pre-wrap break-words">{message.text}</p>
          </details>
        </>
      ) : (
        <p className="whitespace-pre-wrap break-words text-sm">{message.text}</p>
      )}
    </article>
  );
}

/**
 * InboxView is the demo inbox (decision 186): the emails and SMS a demo server kept instead of
 * sending, newest first; opening one shows the email rendered as it would arrive, or the SMS.
 * Administrators switch between their own and everyone's.
 */
export function InboxView({ isAdmin }: { isAdmin: boolean }) {
  const [scope, setScope] = useState<InboxScope>('mine');
  const [openId, setOpenId] = useState<number | null>(null);
  const inbox = useInbox(scope);
  const pages = inbox.data?.pages ?? [];
  const messages = pages.flatMap((page) => page.messages);
  const demoInbox = pages[0]?.demoInbox ?? true;
  const open = messages.find((m) => m.id === openId) ?? null;

  if (!inbox.isPending && !inbox.isError && !demoInbox) {
    return (
      <Alert>
        <Inbox aria-hidden />
        <AlertTitle>There is no demo inbox on this server</AlertTitle>
        <AlertDescription>
          Baton sends email and SMS through the channels it is configured for; the Notifications
          screen shows each one's delivery.
        </AlertDescription>
      </Alert>
    );
  }

  const body = (
    <CardContent className="px-0">
      {inbox.isPending ? (
        <LoadingState label="Loading messages..." className="py-12" />
      ) : inbox.isError ? (
        <div className="p-6">
          <Alert variant="destructive">
            <AlertTitle>Failed to fetch messages</AlertTitle>
            <AlertDescription>{getErrorMessage(inbox.error, 'Please try again.')}</AlertDescription>
          </Alert>
        </div>
      ) : messages.length === 0 ? (
        <p className="px-6 py-12 text-center text-muted-foreground text-sm">
          No messages yet. Pass the baton or page someone, and what Baton sends shows here.
        </p>
      ) : (
        <div className="grid lg:grid-cols-[minmax(16rem,22rem)_1fr]">
          <div className={cn('border-r-0 lg:border-r', open && 'hidden lg:block')}>
            <ul className="divide-y" aria-label="Messages" aria-busy={inbox.isFetching}>
              {messages.map((message) => (
                <MessageListItem
                  key={message.id}
                  message={message}
                  selected={message.id === openId}
                  showRecipient={scope === 'everyone'}
                  onOpen={() => setOpenId(message.id)}
                />
              ))}
            </ul>
            {inbox.hasNextPage ? (
              <div className="flex justify-center border-t p-4">
                <Button
                  variant="outline"
                  onClick={() => inbox.fetchNextPage()}
                  pending={inbox.isFetchingNextPage}
                >
                  {inbox.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              </div>
            ) : null}
          </div>
          {open ? (
            <MessageReader message={open} onBack={() => setOpenId(null)} />
          ) : (
            <p className="hidden p-6 text-center text-muted-foreground text-sm lg:block">
              Choose a message to read it.
            </p>
          )}
        </div>
      )}
    </CardContent>
  );

  return (
    <Card className="gap-0 py-0">
      <CardHeader className="border-b py-5">
        <CardTitle asChild>
          <h2>Messages</h2>
        </CardTitle>
        <CardDescription>
          In demo mode, what Baton would send by a channel this server has no settings for is kept
          here instead. Refreshed every 10 seconds.
        </CardDescription>
      </CardHeader>
      {isAdmin ? (
        <Tabs
          value={scope}
          onValueChange={(value) => {
            setScope(value as InboxScope);
            setOpenId(null);
          }}
          className="gap-0"
        >
          <div className="border-b px-4 py-3 sm:px-6">
            <TabsList aria-label="Whose messages">
              {(['mine', 'everyone'] as const).map((s) => (
                <TabsTrigger key={s} value={s}>
                  {SCOPE_LABELS[s]}
                </TabsTrigger>
              ))}
            </TabsList>
          </div>
          <TabsContent value={scope}>{body}</TabsContent>
        </Tabs>
      ) : (
        body
      )}
    </Card>
  );
}
