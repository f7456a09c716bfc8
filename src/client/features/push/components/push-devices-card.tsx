import type { PushDevice } from '@shared/contracts/push';
import { MAX_DEVICE_NAME } from '@shared/domain/push-devices';
import { BellRing, Pencil, Smartphone, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { notifyError } from '@/lib/notify';
import { useTimeFormat } from '@/lib/use-time-format';
import {
  readPublicKey,
  usePushDevices,
  useRemoveDevice,
  useRenameDevice,
  useSaveSubscription,
} from '../api/push-devices';
import {
  NOTIFICATIONS_BLOCKED,
  pushUnsupportedReason,
  rememberThisDevice,
  setupFailure,
  subscribeThisBrowser,
  thisDeviceId,
  unsubscribeThisBrowser,
  watchNotificationsBlocked,
} from '../lib/push-support';

/**
 * PushDevicesCard is the profile's "Devices for push" card (issue 33, decision 253): "Notify this
 * device" (asks for permission, subscribes this browser with Baton's key and saves it), and the
 * devices push goes to, each to rename and remove. A browser that cannot take pushes is told why.
 */
export function PushDevicesCard({ userId }: { userId: number }) {
  const devices = usePushDevices(userId);
  const save = useSaveSubscription(userId);
  const [thisId, setThisId] = useState(thisDeviceId);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const cannot = pushUnsupportedReason();
  const [blocked, setBlocked] = useState(false);
  useEffect(() => (cannot ? undefined : watchNotificationsBlocked(setBlocked)), [cannot]);
  const unsupported = cannot ?? (blocked ? NOTIFICATIONS_BLOCKED : null);
  const listed = devices.data ?? [];
  const thisListed = thisId !== null && listed.some((d) => d.id === thisId);

  const notifyThisDevice = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const { publicKey } = await readPublicKey();
      const subscription = await subscribeThisBrowser(publicKey);
      const device = await save.mutateAsync({
        endpoint: subscription.endpoint ?? '',
        expirationTime: subscription.expirationTime ?? null,
        keys: { p256dh: subscription.keys?.p256dh ?? '', auth: subscription.keys?.auth ?? '' },
      });
      rememberThisDevice(device.id);
      setThisId(device.id);
    } catch (error) {
      setProblem(
        setupFailure(error) ?? getErrorMessage(error, 'This device could not be set up for push.'),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle asChild>
            <h2>Devices for push</h2>
          </CardTitle>
          <CardDescription>
            A notification rule by push reaches every device here, with Acknowledge and Open on the
            notification.
          </CardDescription>
        </div>
        {unsupported ? null : (
          <Button
            size="sm"
            variant="outline"
            disabled={busy || thisListed}
            onClick={() => void notifyThisDevice()}
          >
            <BellRing aria-hidden="true" />
            {thisListed ? 'This device is notified' : busy ? 'Setting up...' : 'Notify this device'}
          </Button>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        {unsupported ? (
          <Alert>
            <AlertDescription>{unsupported}</AlertDescription>
          </Alert>
        ) : null}
        {problem ? (
          <p role="alert" className="text-destructive text-sm">
            {problem}
          </p>
        ) : null}
        <DeviceList
          userId={userId}
          devices={devices}
          thisId={thisId}
          onRemovedThis={() => {
            rememberThisDevice(null);
            setThisId(null);
            void unsubscribeThisBrowser().catch(() => {});
          }}
        />
      </CardContent>
    </Card>
  );
}

function DeviceList({
  userId,
  devices,
  thisId,
  onRemovedThis,
}: {
  userId: number;
  devices: ReturnType<typeof usePushDevices>;
  thisId: number | null;
  onRemovedThis: () => void;
}) {
  const format = useTimeFormat();
  const remove = useRemoveDevice(userId);
  const [removing, setRemoving] = useState<PushDevice | null>(null);
  const [renaming, setRenaming] = useState<number | null>(null);

  if (devices.isPending) return <Skeleton className="h-10 w-full" />;
  if (devices.isError) {
    return (
      <p role="alert" className="text-destructive text-sm">
        {getErrorMessage(devices.error, 'Failed to fetch the devices')}
      </p>
    );
  }
  return (
    <>
      {devices.data.length === 0 ? (
        <p className="flex items-center gap-2 text-muted-foreground text-sm">
          <Smartphone className="size-4 shrink-0" aria-hidden="true" />
          No device is set up for push.
        </p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Devices for push">
          {devices.data.map((device) => (
            <li key={device.id} className="flex flex-wrap items-start justify-between gap-3 p-3">
              {renaming === device.id ? (
                <RenameForm userId={userId} device={device} onDone={() => setRenaming(null)} />
              ) : (
                <>
                  <div className="min-w-48 flex-1 text-sm">
                    <p className="flex flex-wrap items-center gap-2 font-medium">
                      <span className="break-words">{device.name}</span>
                      {device.id === thisId ? <Badge tone="info">This device</Badge> : null}
                    </p>
                    <p className="mt-0.5 break-words text-muted-foreground text-xs">
                      {device.service || 'Push service'} · Added {format.dateTime(device.createdAt)}{' '}
                      · Last push{' '}
                      {device.lastSentAt ? format.dateTime(device.lastSentAt) : 'none yet'}
                    </p>
                  </div>
                  <div className="flex gap-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Rename ${device.name}`}
                      onClick={() => setRenaming(device.id)}
                    >
                      <Pencil aria-hidden="true" />
                      Rename
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Remove ${device.name}`}
                      onClick={() => setRemoving(device)}
                    >
                      <Trash2 aria-hidden="true" />
                      Remove
                    </Button>
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={`Remove ${removing?.name ?? 'this device'}?`}
        description="Pages by a push rule stop reaching it. Notify it again from that device to bring it back."
        confirmLabel="Remove"
        pendingLabel="Removing..."
        pending={remove.isPending}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing, {
            onSuccess: () => {
              if (removing.id === thisId) onRemovedThis();
              setRemoving(null);
            },
            onError: (error) => notifyError('Device not removed', error, 'Try again.'),
          });
        }}
      />
    </>
  );
}

function RenameForm({
  userId,
  device,
  onDone,
}: {
  userId: number;
  device: PushDevice;
  onDone: () => void;
}) {
  const rename = useRenameDevice(userId);
  const [name, setName] = useState(device.name);
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = `device-name-${device.id}`;
  return (
    <form
      noValidate
      className="grid w-full gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        rename.mutate(
          { id: device.id, name },
          {
            onSuccess: onDone,
            onError: (error) => setProblem(getErrorMessage(error, 'The name was not saved.')),
          },
        );
      }}
    >
      <label htmlFor={inputId} className="font-medium text-sm">
        Device name
      </label>
      <div className="flex flex-wrap gap-2">
        <Input
          id={inputId}
          className="min-w-48 flex-1"
          value={name}
          maxLength={MAX_DEVICE_NAME}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${inputId}-problem` : undefined}
          onChange={(e) => setName(e.target.value)}
          autoFocus
        />
        <Button type="submit" size="sm" disabled={rename.isPending}>
          {rename.isPending ? 'Saving...' : 'Save'}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
      {problem ? (
        <p id={`${inputId}-problem`} role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
