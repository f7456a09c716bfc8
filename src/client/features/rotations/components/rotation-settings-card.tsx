import type { Rotation } from '@shared/contracts/rotations';
import { can } from '@shared/domain/permissions';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { useEscalationPolicies } from '@/lib/escalation-policy-reads';
import { useAuth } from '@/lib/use-auth';
import { useChangeRotationPolicy } from '../api/change-rotation-policy';
import { useChangeRotationType } from '../api/change-rotation-type';
import { canManage } from '../lib/rotation-view';
import { WEEKDAYS } from './rotation-form';

function handoffScheduleText(rotation: Rotation): string {
  if (rotation.cadence === 'weekly') {
    return `${WEEKDAYS[rotation.handoffWeekday] ?? 'Weekly'}s at ${rotation.handoffTime}`;
  }
  return `Every day at ${rotation.handoffTime}`;
}

/**
 * RotationSettingsCard shows how the baton changes hands: type (a select for those who may
 * change it), cadence and handoff time (a fixed rotation of the specification's fields), the
 * pattern in words, the layers (a layered rotation), zone and member count, and the escalation policy it follows
 * (a link to it; a choice among the policies for those who edit the rotation). A change to
 * scheduled without a schedule calls `onScheduleNeeded`.
 */
export function RotationSettingsCard({
  rotation,
  onScheduleNeeded,
}: {
  rotation: Rotation;
  onScheduleNeeded: () => void;
}) {
  const { roles, user } = useAuth();
  const canChangeType = can(roles, 'rotation.changeType');
  const changeType = useChangeRotationType({ onScheduleNeeded });
  const canChangePolicy =
    can(roles, 'rotation.edit') && canManage(rotation, user?.id ?? null, roles);
  // The list holds what the viewer may read: a policy missing from it is not shown.
  const policies = useEscalationPolicies();
  const changePolicy = useChangeRotationPolicy();
  const policy = policies.data?.find((p) => p.id === rotation.escalationPolicyId);
  // A layered rotation's layers and a scheduled one's entries, not a cadence, say who is on call.
  const ofSpecificationFields = rotation.type === 'fixed' && !rotation.layered;

  return (
    <Card className="gap-4 md:col-span-2 xl:col-span-1">
      <CardHeader>
        <CardTitle asChild>
          <h2>Settings</h2>
        </CardTitle>
        <CardDescription>How the baton changes hands.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2.5 text-sm">
          <dt className="text-muted-foreground">
            {canChangeType ? <Label htmlFor="rotation-type">Type</Label> : 'Type'}
          </dt>
          <dd>
            {canChangeType ? (
              <Select
                value={rotation.type}
                disabled={changeType.isPending}
                onValueChange={(type) =>
                  changeType.mutate({
                    rotationId: rotation.id,
                    type: type as Rotation['type'],
                  })
                }
              >
                <SelectTrigger id="rotation-type" size="sm" className="w-36">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="fixed">Fixed</SelectItem>
                  <SelectItem value="scheduled">Scheduled</SelectItem>
                </SelectContent>
              </Select>
            ) : rotation.type === 'scheduled' ? (
              'Scheduled'
            ) : (
              'Fixed'
            )}
          </dd>
          {ofSpecificationFields ? (
            <>
              <dt className="text-muted-foreground">Cadence</dt>
              <dd>{rotation.cadence === 'weekly' ? 'Weekly' : 'Daily'}</dd>
              <dt className="text-muted-foreground">Handoff</dt>
              <dd>{handoffScheduleText(rotation)}</dd>
            </>
          ) : null}
          <dt className="text-muted-foreground">Pattern</dt>
          <dd>{rotation.pattern}</dd>
          {rotation.layered ? (
            <>
              <dt className="text-muted-foreground">Layers</dt>
              <dd>{rotation.layers.map((l) => l.name).join(', ')}</dd>
            </>
          ) : null}
          <dt className="text-muted-foreground">Time zone</dt>
          <dd className="truncate">{rotation.timeZone}</dd>
          <dt className="text-muted-foreground">Members</dt>
          <dd>{rotation.members.length}</dd>
          {canChangePolicy && policies.data && policy ? (
            <>
              <dt className="text-muted-foreground">
                <Label htmlFor="rotation-escalation-policy">Policy</Label>
              </dt>
              <dd>
                <Select
                  value={String(rotation.escalationPolicyId)}
                  disabled={changePolicy.isPending}
                  onValueChange={(value) => {
                    const chosen = policies.data.find((p) => p.id === Number(value));
                    if (!chosen) return;
                    changePolicy.mutate({
                      rotationId: rotation.id,
                      escalationPolicyId: chosen.id,
                      policyName: chosen.name,
                    });
                  }}
                >
                  <SelectTrigger id="rotation-escalation-policy" size="sm" className="w-44">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {policies.data.map((p) => (
                      <SelectItem key={p.id} value={String(p.id)}>
                        {p.name}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </dd>
            </>
          ) : null}
        </dl>
        {policy ? (
          <p className="mt-3 text-sm">
            <Link
              to={`/escalation-policies/${policy.id}`}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              Escalation policy: {policy.name}
            </Link>
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
