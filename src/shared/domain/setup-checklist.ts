import type { EscalationStep } from '../contracts/escalation-policies';
import type { SetupStep } from '../contracts/setup';
import { defaultEscalationPolicy } from './escalation';

/**
 * The setup checklist (issue 35, decision 258): what an administrator of a new install does first,
 * in order, each step ticked from what the server holds. Pure: the counts come in.
 */

/** What the server counts for the checklist; `you` is the administrator reading it. */
export interface SetupFacts {
  /** accounts */
  people: number;
  /** invitations still open (pending and not expired) */
  openInvitations: number;
  /** accounts with a phone number and a time zone other than the default UTC */
  peopleReady: number;
  /** the oldest rotation that has members, with the policy it follows; null: none has */
  firstRotation: { id: number; escalationPolicyId: number } | null;
  /** the policies rotations follow, with their steps */
  policiesInUse: readonly { repeat: number; steps: readonly EscalationStep[] }[];
  integrations: number;
  /** when a test page reached the reader by at least one way; null: never */
  testPageAt: Date | null;
}

/**
 * isDefaultPolicy tells whether a policy is still the one Baton made with its rotation (the
 * holder, a reminder, the next member: `defaultEscalationPolicy`), unchanged.
 */
export function isDefaultPolicy(policy: {
  repeat: number;
  steps: readonly EscalationStep[];
}): boolean {
  const first = policy.steps[0]?.targets[0];
  if (first?.type !== 'rotation-holder' || policy.repeat !== 0) return false;
  const made = defaultEscalationPolicy({ id: first.id, name: '' }).steps;
  const shape = (steps: readonly EscalationStep[]) =>
    JSON.stringify(
      steps.map((s) => [
        s.delayMinutes,
        s.targets.map((t) => [t.type, t.id]),
        s.assignment,
        s.activeHours ?? null,
      ]),
    );
  return shape(policy.steps) === shape(made);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** setupSteps returns the checklist's six steps, in order, each with whether it is done. */
export function setupSteps(facts: SetupFacts): SetupStep[] {
  const everyone = facts.people + facts.openInvitations;
  const rotation = facts.firstRotation;
  const ownPolicy = facts.policiesInUse.some((p) => !isDefaultPolicy(p));
  return [
    {
      id: 'invite',
      title: 'Invite your team',
      done: facts.people > 1 || facts.openInvitations > 0,
      detail:
        facts.people > 1 || facts.openInvitations > 0
          ? `${plural(facts.people, 'account')}${facts.openInvitations > 0 ? `, ${plural(facts.openInvitations, 'invitation')} not yet accepted` : ''}.`
          : 'Invite the people who take turns on call; each signs in from their invitation.',
      href: '/admin/users',
      action: 'Invite people',
    },
    {
      id: 'people',
      title: 'People add their phone and time zone',
      done: facts.peopleReady === everyone,
      detail: `With a phone number and a time zone other than UTC on their profile: ${facts.peopleReady} of ${plural(everyone, 'person', 'people')}${facts.openInvitations > 0 ? ` (counting ${plural(facts.openInvitations, 'invitation')} not yet accepted)` : ''}.`,
      href: '/admin/users',
      action: 'See who can be reached',
    },
    {
      id: 'rotation',
      title: 'Create a rotation with its members',
      done: rotation !== null,
      detail: rotation
        ? 'A rotation has members, and someone holds its baton.'
        : 'Name the rotation, add its members in turn order and choose who is on call first.',
      href: rotation ? `/rotations/${rotation.id}` : '/rotations/new',
      action: rotation ? 'Open the rotation' : 'New rotation',
    },
    {
      id: 'policy',
      title: 'Decide who is paged when nobody answers',
      done: ownPolicy,
      detail: ownPolicy
        ? 'A rotation follows an escalation policy of your own.'
        : "Every rotation starts with Baton's escalation policy (the holder, a reminder, then the next member); add your own steps, such as a manager after 30 minutes.",
      href: rotation
        ? `/escalation-policies/${rotation.escalationPolicyId}`
        : '/escalation-policies',
      action: 'Edit the escalation policy',
    },
    {
      id: 'integration',
      title: 'Connect your monitoring',
      done: facts.integrations > 0,
      detail:
        facts.integrations > 0
          ? `${plural(facts.integrations, 'integration')} can raise incidents.`
          : "Add an integration to a rotation and paste its address into Alertmanager, Grafana or any tool that speaks PagerDuty's or Opsgenie's API.",
      href: rotation ? `/rotations/${rotation.id}` : '/rotations',
      action: 'Add an integration',
    },
    {
      id: 'test-page',
      title: 'Send a test page to yourself',
      done: facts.testPageAt !== null,
      detail:
        facts.testPageAt !== null
          ? 'A test page reached you.'
          : 'A short test by email, and by SMS to the phone on your profile: see that it arrives.',
      href: '/profile',
      action: 'Test them on your profile',
    },
  ];
}
