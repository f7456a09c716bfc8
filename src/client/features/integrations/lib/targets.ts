import type { EscalationPolicy } from '@shared/contracts/escalation-policies';
import type { Rotation } from '@shared/contracts/rotations';
import { managesIntegration } from '@shared/domain/integrations';
import type { Actor } from '@shared/domain/roles';

/** A rotation or a policy an integration may be made on, as the Integrations screen offers them. */
export interface IntegrationTarget {
  kind: 'rotation' | 'policy';
  id: number;
  name: string;
}

const factsOf = (rotation: Rotation) => ({
  createdById: rotation.createdById,
  memberUserIds: rotation.members.map((m) => m.userId),
});

/**
 * integrationTargets returns where the actor may add an integration, as the server decides it
 * (managesIntegration): the rotations they manage, by name, then the policies every rotation of
 * which they manage. A policy no rotation follows is offered to administrators only: who created
 * it is not in the policy read, and the server refuses the rest with its message.
 */
export function integrationTargets(
  actor: Actor,
  rotations: readonly Rotation[],
  policies: readonly EscalationPolicy[],
): IntegrationTarget[] {
  const byId = new Map(rotations.map((r) => [r.id, r]));
  const managed = rotations
    .filter((r) => managesIntegration(actor, { rotation: factsOf(r) }))
    .map((r): IntegrationTarget => ({ kind: 'rotation', id: r.id, name: r.name }));
  const policyTargets = policies
    .filter((p) => {
      const following = p.rotations.flatMap((r) => {
        const rotation = byId.get(r.id);
        return rotation ? [factsOf(rotation)] : [];
      });
      if (p.rotations.length === 0 || following.length < p.rotations.length) {
        return managesIntegration(actor, { policy: { createdById: null, rotations: [] } });
      }
      return managesIntegration(actor, { policy: { createdById: null, rotations: following } });
    })
    .map((p): IntegrationTarget => ({ kind: 'policy', id: p.id, name: p.name }));
  const byName = (a: IntegrationTarget, b: IntegrationTarget) => a.name.localeCompare(b.name);
  return [...managed.sort(byName), ...policyTargets.sort(byName)];
}
