import type { NotificationTestResult } from '@shared/contracts/notification-test';
import type { PushDevice } from '@shared/contracts/push';
import {
  hasUsablePhone,
  METHOD_LABELS,
  type NotificationMethod,
} from '@shared/domain/notification-rules';
import { CheckCircle2, CircleAlert, CircleSlash } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiRequestError } from '@/lib/api-client';
import { useSendTest } from '../api/notification-test';

/** One way to test: the method, where it goes, and (push) which device. */
interface TestWay {
  key: string;
  method: NotificationMethod;
  to: string;
  deviceId?: number;
  /** the button's accessible name */
  action: string;
}

/** What a test answered, or the refusal (a 429, a device gone meanwhile). */
type Shown = NotificationTestResult | { refused: string };

/** Each way the person has: email, SMS and a call with a phone, and each device for push. */
function waysOf(
  person: { email: string; phone: string | null },
  devices: readonly PushDevice[],
): TestWay[] {
  const phone = hasUsablePhone(person.phone) ? (person.phone ?? '') : null;
  return [
    { key: 'email', method: 'email', to: person.email, action: 'Send a test email' },
    ...(phone !== null
      ? [
          { key: 'sms', method: 'sms' as const, to: phone, action: 'Send a test SMS' },
          { key: 'voice', method: 'voice' as const, to: phone, action: 'Send a test call' },
        ]
      : []),
    ...devices.map((device) => ({
      key: `push:${device.id}`,
      method: 'push' as const,
      to: device.name,
      deviceId: device.id,
      action: `Send a test to ${device.name}`,
    })),
  ];
}

const OUTCOME_ICON = {
  delivered: CheckCircle2,
  failed: CircleAlert,
  'not-set-up': CircleSlash,
} as const;

/**
 * SendTestCard: "Send a test" for each way the person can be reached (issue 33, decision 254):
 * email, SMS and a call when they have a phone, and each of their devices for push, each with its
 * outcome beside the button: delivered, failed with the provider's reason, or not set up. A push
 * test may find its device gone (the server removes it): `onDevicesChanged` reads the list again,
 * and the outcome stays shown below the list. On the profile it speaks to the person; given
 * `name` (an administrator on /people/{id}, decision 265) it sends the tests to that person.
 */
export function SendTestCard({
  person,
  name,
  devices = [],
  onDevicesChanged,
}: {
  person: { id: number; email: string; phone: string | null };
  /** someone else's name: an administrator tests how Baton reaches them */
  name?: string;
  devices?: readonly PushDevice[];
  onDevicesChanged?: () => void;
}) {
  const [shown, setShown] = useState<Record<string, { to: string; result: Shown }>>({});
  const ways = waysOf(person, devices);
  const listed = new Set(ways.map((w) => w.key));
  const removed = Object.entries(shown).filter(([key]) => !listed.has(key));
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Test how Baton reaches {name ?? 'you'}</h2>
        </CardTitle>
        <CardDescription>
          {name
            ? `Send ${name} a short test by each way they can be reached, and see what became of it.`
            : 'Send yourself a short test by each way you can be reached, and see that it arrives.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <ul className="grid gap-3" aria-label="Ways to send a test">
          {ways.map((way) => (
            <TestRow
              key={way.key}
              userId={person.id}
              way={way}
              result={shown[way.key]?.result ?? null}
              name={name}
              onResult={(result) => {
                setShown((all) => ({ ...all, [way.key]: { to: way.to, result } }));
                if (way.method === 'push') onDevicesChanged?.();
              }}
            />
          ))}
        </ul>
        {removed.map(([key, { to, result }]) => (
          <p key={key} role="status" className="flex items-center gap-1.5 text-sm">
            <OutcomeLine result={result} prefix={`${to}: `} name={name} />
          </p>
        ))}
      </CardContent>
    </Card>
  );
}

function TestRow({
  userId,
  way,
  result,
  name,
  onResult,
}: {
  userId: number;
  way: TestWay;
  result: Shown | null;
  name?: string;
  onResult: (result: Shown) => void;
}) {
  const send = useSendTest(userId);
  return (
    <li className="grid gap-1 sm:grid-cols-[8rem_1fr_auto] sm:items-center sm:gap-3">
      <span className="font-medium text-sm">{METHOD_LABELS[way.method]}</span>
      <span className="truncate text-muted-foreground text-sm">{way.to}</span>
      <Button
        type="button"
        variant="outline"
        size="sm"
        aria-label={way.action}
        disabled={send.isPending}
        onClick={() =>
          send.mutate(
            { method: way.method, ...(way.deviceId ? { deviceId: way.deviceId } : {}) },
            {
              onSuccess: onResult,
              onError: (error) =>
                onResult({
                  refused:
                    error instanceof ApiRequestError && error.body?.message
                      ? error.body.message
                      : error.message,
                }),
            },
          )
        }
      >
        {send.isPending ? 'Sending…' : 'Send a test'}
      </Button>
      {result ? (
        <p role="status" className="flex items-center gap-1.5 text-sm sm:col-span-3">
          <OutcomeLine result={result} name={name} />
        </p>
      ) : null}
    </li>
  );
}

/** OutcomeLine: a test's outcome in words, with its icon. */
function OutcomeLine({
  result,
  prefix = '',
  name,
}: {
  result: Shown;
  prefix?: string;
  name?: string;
}) {
  if ('refused' in result) {
    return (
      <>
        <CircleAlert aria-hidden="true" className="size-4 shrink-0 text-amber-600" />
        {prefix}
        {result.refused}
      </>
    );
  }
  return (
    <>
      <Outcome outcome={result.outcome} />
      {prefix}
      {result.outcome === 'delivered'
        ? `${result.message}: ${name ? `ask ${name} whether it arrived` : 'check that it arrived'}.`
        : result.outcome === 'failed'
          ? `Not delivered: ${result.message}`
          : `Not set up: ${result.message}`}
    </>
  );
}

function Outcome({ outcome }: { outcome: NotificationTestResult['outcome'] }) {
  const Icon = OUTCOME_ICON[outcome];
  const tone =
    outcome === 'delivered'
      ? 'text-emerald-600 dark:text-emerald-400'
      : outcome === 'failed'
        ? 'text-destructive'
        : 'text-muted-foreground';
  return <Icon aria-hidden="true" className={`size-4 shrink-0 ${tone}`} />;
}
