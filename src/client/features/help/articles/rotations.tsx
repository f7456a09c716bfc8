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
      <p>
        For anything else — 12-hour shifts, a team on duty only in business hours or at weekends, or
        follow-the-sun cover across offices — give a fixed rotation <strong>layers</strong>: shifts
        of any number of hours, days or weeks, on-duty windows by weekday and hour, and layers
        stacked. See <Link to="/help/rotation-layers">Layers and Shift Patterns</Link>.
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
      <h2>Time off</h2>
      <p>
        Record time off on the <Link to="/time-off">Time off</Link> page (its own entry in the menu)
        or a person&apos;s page; the calendar shows who is away, on its timeline and its month. In a
        fixed rotation it changes only the shifts it overlaps: each of the away person&apos;s shifts
        goes to the next member in order who is available, for that shift alone, and everyone
        else&apos;s shifts stay where they were. Before you save, the dialog shows who would cover
        which days. When nobody is available, the shift is a gap and the rotation&apos;s managers
        are told.
      </p>
      <h2>Who is on call when</h2>
      <p>
        Baton works out who is on call ahead once, with cover laid over the turns and time off gone
        round, and shows it in several places. Times are in your time zone.
      </p>
      <ul>
        <li>
          The <Link to="/">Dashboard</Link>&apos;s <em>On call now and the next 7 days</em>: for
          each rotation, your own first (marked <em>Yours</em>), who holds the baton now and until
          when, and each change of hands in the coming week (three at first; <em>Show more</em> for
          the rest). <em>Nobody on call</em> marks a stretch nobody holds.
        </li>
        <li>
          A rotation&apos;s page: <em>Next two weeks</em>, a timeline, and <em>Upcoming shifts</em>,
          a list of who holds the baton next and from when to when, shift by shift, for about two
          months. A cover says whose shift it covers.
        </li>
        <li>
          Your <Link to="/profile">profile</Link> and each person&apos;s page (from the On-Call
          Team): <em>Upcoming shifts</em>, their shifts in every rotation and the ones they cover.
        </li>
        <li>
          The <Link to="/calendar">Calendar</Link>: the next two weeks of every rotation as a
          timeline, and the month.
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
            <>
              Under <em>Shift pattern</em>, <em>Daily or weekly</em> keeps the simple form: cadence
              (daily or weekly), time zone, handoff time and, for weekly rotations, the handoff day.
              A new rotation defaults to weekly, Monday 09:00, in your own time zone. Choose{' '}
              <em>Layers</em> (fixed rotations) for shifts of N hours, days or weeks, on-duty
              windows and stacked layers, each layer with its own people in turn order (see{' '}
              <Link to="/help/rotation-layers">Layers and Shift Patterns</Link>); the pattern shows
              in words under the layers as you type.
            </>,
          ],
          [
            'Add members',
            <>
              Under <em>Members</em>, add people with the on-call or manager role in turn order, and
              choose who is <em>On call first</em>: that person holds the baton as soon as the
              rotation is created, and is told so. Later, add more on the rotation's page: each new
              member goes to the end of the order, and managers and administrators can drag members
              into a different order.
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

export function RotationLayersArticle() {
  return (
    <>
      <p>
        A fixed rotation can be given <strong>layers</strong> instead of one daily or weekly
        cadence: choose <em>Layers</em> under <em>Shift pattern</em> in <em>Create New Rotation</em>{' '}
        or <em>Edit rotation</em>. Each layer has its own name, people in turn order, shift length,
        handoff time and on-duty windows. Everyone a layer names becomes a member of the rotation,
        and whoever the layers name now holds the baton at once. From then on the clock passes the
        baton at each change. The holder may still pass it, or a manager reassign it, by hand: that
        holds until the next change.
      </p>
      <h2>People in turn order</h2>
      <p>
        Add people who may hold the baton (on-call members and managers) with <em>Add a member</em>,
        and move them earlier or later with the arrows. The first person holds the layer's first
        turn, and each handoff passes it to the next, round to the first again. A person may take
        more than one turn in a layer.
      </p>
      <h2>Shift length</h2>
      <p>
        A layer's shifts last N <strong>hours</strong> (1 to 168), <strong>days</strong> (1 to 365)
        or <strong>weeks</strong> (1 to 52). They change hands at the layer's handoff time in the
        rotation's time zone, and weekly ones on the handoff day. Shifts follow the wall clock:
        12-hour shifts at 08:00 and 20:00 keep those times all year, so the shift across a
        daylight-saving change lasts 11 hours in spring and 13 hours in autumn. Hours that do not
        divide a day drift round it (5-hour shifts from 06:00: 06:00, 11:00, 16:00, 21:00, 02:00 and
        so on).
      </p>
      <p>
        <strong>When turns start.</strong> <em>First turn starts</em> is when the first person's
        turn begins. Without it, the first turn runs from now to the first handoff, which may be a
        short one. A weekend layer made on a Wednesday should be given the coming Saturday, or its
        first person's turn ends before the weekend. When you edit, a layer keeps its start; its
        turns go on as they were.
      </p>
      <h2>On-duty windows</h2>
      <p>
        A layer with no windows is always on duty. Add windows to limit it: choose the days (Sun to
        Sat) and the hours, <em>From</em> and <em>Until</em>, in the rotation's time zone.
      </p>
      <ul>
        <li>
          An end at or before the start runs into the next day: <em>19:00 until 07:00</em> is
          overnight, and belongs to the day it starts on.
        </li>
        <li>
          <em>00:00 until 00:00</em> is a whole day.
        </li>
        <li>
          Outside its windows a layer has nobody on call, but its turns keep following the clock: a
          weekly layer on duty 07:00–19:00 still hands over at its handoff time.
        </li>
      </ul>
      <h2>Stacking layers</h2>
      <p>
        Where layers overlap, <strong>the last layer listed with somebody on duty wins</strong>.
        Where no layer has anyone on duty, nobody is on call. Reorder layers with the arrows beside
        each layer's name.
      </p>
      <h2>Examples</h2>
      <ul>
        <li>
          <strong>Follow the sun.</strong> A layer <em>London</em> on duty every day 07:00–19:00 and
          a layer <em>Sydney</em> every day 19:00–07:00, each with its own people, in a rotation in
          Europe/London. The pattern reads “Follow the sun: London 07:00–19:00, Sydney 19:00–07:00”.
        </li>
        <li>
          <strong>Weekend only.</strong> One layer with a window on Saturday and Sunday, 00:00 until
          00:00 (“Weekends all day, weekly turns”): nobody is on call on weekdays.
        </li>
        <li>
          <strong>Business hours with after hours.</strong> First a layer <em>After hours</em> with
          no windows (always on duty), then a layer <em>Business hours</em> on Monday to Friday,
          09:00 until 17:00. In business hours the second layer wins, being listed last; at all
          other times the after-hours layer is on call.
        </li>
        <li>
          <strong>12-hour shifts.</strong> One layer of 12 hours handing off at 08:00 (“12-hour
          shifts at 08:00 and 20:00”).
        </li>
      </ul>
      <h2>Who holds the baton</h2>
      <p>
        A layered rotation needs nobody to take the baton: whoever its layers name holds it, and it
        moves by itself at each change, with a notice to both people beforehand. A baton passed or
        reassigned by hand stays where it was put until the layers next change, so pass it before
        the change to hand over with notes. Cover sits on top of the layers. Time off does not move
        anyone&apos;s turn: a turn of someone away shows as a gap to cover.
      </p>
      <h2>The next two weeks</h2>
      <p>
        The rotation page&apos;s <em>Next two weeks</em> shows each layer&apos;s turns while it is
        on duty, and an <em>On call</em> row with who is actually on call once cover is counted
        (hatched). Gaps are marked <em>Nobody on call</em>, and members&apos; time off has rows of
        its own. Times are in your time zone; the line marks now.
      </p>
      <h2>Back to daily or weekly</h2>
      <p>
        In <em>Edit rotation</em>, choose <em>Daily or weekly</em> under <em>Shift pattern</em>, set
        the cadence and handoff, and save. After you confirm, the layers are removed: the members
        stay, and the baton passes from the holder to the next member at each handoff, as in any
        fixed rotation.
      </p>
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
      <p>
        A rotation that has members and nobody on call is flagged to its managers on the dashboard,
        with a link to the rotation. A page raised on it while nobody holds the baton is not
        refused: it goes on to the next step of the rotation's escalation policy (with the default
        policy, the next person on call), and the page says whom it reached.
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
