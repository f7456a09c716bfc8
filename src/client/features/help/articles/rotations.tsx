import { type HandoffTimings, handoffTimingsInMinutes } from '@shared/contracts/help';
import { DEFAULT_HANDOFF_TIMINGS } from '@shared/domain/handoff-flow';
import type * as React from 'react';
import { Link } from 'react-router';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useHelpTimings } from '../api/get-help-timings';
import { HandoffEmergencySteps, HandoffStandardSteps } from '../components/flow-timings';
import { Callout, Steps } from '../components/prose';

export function RotationsIntroArticle() {
  return (
    <>
      <p>
        A <strong>rotation</strong> is a group of people who share on-call duty for one service or
        area, in turn. Its members are kept in a fixed order, and at most one of them — the holder,
        shown as <em>Current On-Call</em> — holds the baton at a time.
      </p>
      <h2>Cadence and shift boundaries</h2>
      <p>
        Each rotation has a <strong>cadence</strong>: <em>daily</em> or <em>weekly</em>. A shift
        ends at the rotation's handoff time in the rotation's own time zone — every day for a daily
        rotation, on the chosen weekday for a weekly one (Monday 09:00 unless changed). A 09:00
        handoff stays at 09:00 local time when the clocks change for daylight saving.
      </p>
      <h2>Fixed and scheduled rotations</h2>
      <ul>
        <li>
          <strong>Fixed</strong> (the default) — members take turns in their order. The next on-call
          person is the member after the holder, wrapping round to the first. The baton moves to
          them at the shift boundary if nobody has passed it by hand (see the{' '}
          <Link to="/help/handoff-process">Handoff Process Guide</Link>).
        </li>
        <li>
          <strong>Scheduled</strong> — on-call follows a calendar of schedule entries, each naming a
          person, a start and an end. Whoever's entry covers the current time holds the baton; a gap
          leaves nobody on call. A rotation can only become scheduled once it has at least one
          schedule entry.
        </li>
      </ul>
      <h2>Suspended rotations</h2>
      <p>
        An administrator can <strong>suspend</strong> a rotation. A suspended rotation takes no
        handoffs, and takes no part in alerting or automated handoffs. It is reactivated from the
        rotation's page with the <strong>Activate Rotation</strong> button; its shift boundaries are
        then worked out afresh from that moment.
      </p>
      <h2>What the badges mean</h2>
      <ul>
        <li>
          <strong>Active</strong> — you are on call for this rotation now.
        </li>
        <li>
          <strong>Member</strong> — you belong to the rotation but are not on call.
        </li>
        <li>
          <strong>Up next</strong> — your turn comes next.
        </li>
        <li>
          On the rotation page, members show as <em>Currently On-Call</em>, <em>Next On-Call</em> or{' '}
          <em>In Rotation</em>.
        </li>
      </ul>
    </>
  );
}

export function CreateRotationArticle() {
  return (
    <>
      <p>Managers and administrators create rotations.</p>
      <Steps
        steps={[
          [
            'Open the form',
            <>
              Choose <strong>New Rotation</strong> on the Dashboard or the Rotations page. The{' '}
              <em>Create New Rotation</em> dialog opens.
            </>,
          ],
          [
            'Name it',
            'Give it a name of at least 3 characters and, if useful, a description of what it covers.',
          ],
          [
            'Choose the type',
            <>
              <em>Fixed</em> (members take turns in order) or <em>Scheduled</em> (on-call follows
              schedule entries). Only an administrator can change the type later.
            </>,
          ],
          [
            'Set the shift pattern',
            'Cadence (daily or weekly), time zone, handoff time and, for weekly rotations, the handoff day. A new rotation defaults to weekly, Monday 09:00, in your own time zone.',
          ],
          [
            'Add members',
            <>
              On the rotation's page, add people with the on-call or manager role. Each new member
              goes to the end of the order; managers and administrators can drag members into a
              different order.
            </>,
          ],
        ]}
      />
      <Callout title="Scheduled rotations">
        <p>
          An administrator adds schedule entries (a person, a start and an end) on the rotation's
          page. Switching a rotation to scheduled without any entry is refused with{' '}
          <em>Schedule needed</em>, and the set-up guide opens.
        </p>
        <p>
          An entry may repeat: daily, or weekly on chosen days, every one or more days or weeks,
          never ending, until a date or a number of times, at the same local times in the rotation's
          time zone. The schedule lists each coming occurrence; changing or deleting one asks
          whether it is for <em>this occurrence</em> or <em>the whole series</em>.
        </p>
      </Callout>
    </>
  );
}

export function ManageOnCallArticle() {
  return (
    <>
      <h2>Take on-call</h2>
      <p>
        When nobody holds a rotation's baton, any member who may hold it (on-call members and
        managers) sees <strong>Take On-Call</strong> on the rotation's card. Incident managers never
        hold the baton.
      </p>
      <h2>Pass the baton</h2>
      <Steps
        steps={[
          ['Open the dialog', 'As the holder, choose Pass Baton on the card or the rotation page.'],
          [
            'Choose who takes over',
            'Pick a member of the rotation under "Pass baton to"; their contact details appear so you can check.',
          ],
          [
            'Leave notes',
            'Add handoff notes for the next person: open incidents, noisy alerts, anything they need to know. Notes are optional.',
          ],
          ['Confirm', 'Press Confirm handoff. The handoff is recorded in the Audit Log.'],
        ]}
      />
      <Callout title="Handoff notes are stored in clear">
        <p>
          Notes are not encrypted, unlike names, emails and phone numbers. Do not put passwords or
          secrets in them.
        </p>
      </Callout>
      <h2>Reassign</h2>
      <p>
        Managers and administrators can move the baton to any other member with{' '}
        <strong>Reassign</strong>, for example when the holder is off sick.
      </p>
      <h2>Change the order and the members</h2>
      <ul>
        <li>Managers and administrators add and remove members and drag them into a new order.</li>
        <li>
          Removing the person who holds the baton first passes it to the next member, so the
          rotation is never left pointing at someone who is gone.
        </li>
        <li>Only administrators delete a rotation.</li>
      </ul>
      <p>
        See the <Link to="/help/handoff-process">Handoff Process Guide</Link> for what happens at
        the end of a shift.
      </p>
    </>
  );
}

export function CoverageRequestsArticle() {
  return (
    <>
      <p>
        A <strong>coverage request</strong> asks a teammate to hold the baton for part of your shift
        — a doctor's appointment, a flight, an evening off.
      </p>
      <Steps
        steps={[
          [
            'Be on call',
            'Only the current holder can request coverage ("You must be on-call to request coverage").',
          ],
          [
            'Choose who covers you',
            'Pick another member of the rotation who holds the on-call or manager role.',
          ],
          [
            'Choose the window',
            'Set a start and an end in the future; the end must be after the start.',
          ],
          ['Add a note', 'Optional: what they should watch, and how to reach you.'],
        ]}
      />
      <p>
        The request is recorded and your teammate is notified. As documented, during an accepted
        coverage window the covering person holds the baton; when the window ends, the baton goes
        back to whoever the rotation's rules name at that moment. Both moves appear in the Audit
        Log.
      </p>
      <p>
        <strong>Planning ahead.</strong> You need not be on call now to plan cover for a shift to
        come: choose <strong>Ask for cover</strong> on the rotation page, or on one of your shifts
        in the calendar, and pick the shift or part of it. The list of teammates shows each one's
        on-call hours over the last 90 days and marks anyone on time off then. Your teammate accepts
        or declines; you can cancel until the window starts. Managers of the rotation and
        administrators can <strong>Arrange cover</strong> for someone else (an ill colleague): it is
        in force at once, and both people are told. Cover that would overlap other accepted cover in
        the rotation is refused, naming it.
      </p>
    </>
  );
}

export function HandoffProcessArticle() {
  const { data, isError } = useHelpTimings();
  // This server's timings; the documented defaults only if they cannot be read, and then said so.
  const timings =
    data?.handoff ?? (isError ? handoffTimingsInMinutes(DEFAULT_HANDOFF_TIMINGS) : null);
  const steps = (render: (t: HandoffTimings) => React.ReactNode) =>
    timings ? (
      render(timings)
    ) : (
      <div className="space-y-2" role="status">
        <span className="sr-only">Loading the timings...</span>
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-5 w-3/4" />
      </div>
    );
  return (
    <>
      <p>
        This guide describes Baton's handoff flow for fixed rotations, with the times this Baton
        server uses; your own notice time is the handoff reminder in{' '}
        <Link to="/settings">Settings</Link>.
      </p>
      {isError ? (
        <Callout title="Documented defaults" tone="warning">
          <p>
            This server's timings could not be loaded, so the documented defaults are shown; an
            administrator may have set others.
          </p>
        </Callout>
      ) : null}
      <Tabs defaultValue="standard" className="mt-6">
        <TabsList>
          <TabsTrigger value="standard">Standard</TabsTrigger>
          <TabsTrigger value="emergency">Emergency</TabsTrigger>
        </TabsList>
        <TabsContent value="standard" className="space-y-4 pt-4">
          <h2>Standard handoff</h2>
          {steps((t) => (
            <HandoffStandardSteps timings={t} />
          ))}
          <p>
            In a scheduled rotation the schedule moves the baton at each entry's start and end; the
            holder and the next person get the same handoff notice before it, at their handoff
            reminder.
          </p>
          <Callout title="Good handoff notes">
            <ul>
              <li>Incidents still open, with links.</li>
              <li>Alerts that fired and why; known noisy alerts.</li>
              <li>Deploys or changes planned during the next shift.</li>
            </ul>
          </Callout>
        </TabsContent>
        <TabsContent value="emergency" className="space-y-4 pt-4">
          <h2>Emergency handoff</h2>
          <p>
            Use an emergency handoff when you must stop being on call now — you are ill, or called
            away during an incident.
          </p>
          {steps((t) => (
            <HandoffEmergencySteps timings={t} />
          ))}
          <p>
            If nobody can take over, a manager or administrator can <em>Reassign</em> the baton, and
            incident managers can page the rotation (
            <Link to="/help/paging-oncall">Paging On-Call Personnel</Link>).
          </p>
        </TabsContent>
      </Tabs>
    </>
  );
}
