import { Link } from 'react-router';
import { Callout, MappingTable, Steps } from '../components/prose';

/**
 * Importing from another tool (issue 34): the one guide for every source, since the import is one
 * screen and one order of steps whatever it reads; what each source's objects become is the
 * mapping table, and the exact rules are in decisions 268–272.
 */
export function ImportingArticle() {
  return (
    <>
      <p>
        An administrator brings a team's people, schedules, escalation policies and alert sources
        over in one go: from PagerDuty, Opsgenie or Grafana OnCall through their APIs, or from a
        calendar file or a spreadsheet. Baton shows a plan first and changes nothing until you apply
        it; then it checks the next 90 days against the source to the minute.
      </p>
      <Callout title="Nothing is written until you apply" tone="info">
        <p>
          The API key is used for the one read that makes the plan and is never kept. Applying
          writes everything at once or nothing; importing the same account again later brings over
          only what changed there, and never makes a second copy.
        </p>
      </Callout>
      <h2>Import</h2>
      <Steps
        steps={[
          [
            'Open Settings → Import',
            <>
              In <Link to="/settings?tab=import">Settings, the Import tab</Link> (administrators
              only).
            </>,
          ],
          [
            'Choose the source',
            'PagerDuty: a read-only REST API key (Integrations → API Access Keys). Opsgenie: an API key with read access (Settings → API key management), and the EU address for an EU account. Grafana OnCall: an API token (Settings → API Tokens) and your OnCall address. A calendar: the schedule’s .ics export. A spreadsheet: the template, filled in and saved as CSV.',
          ],
          [
            'Read the plan',
            'Each person is matched to a Baton person by email, or invited. Each schedule, policy and integration says whether it is new, changed or unchanged, and what it becomes. The notes say what Baton could not keep exactly as the source has it, and what it did instead.',
          ],
          ['Apply', 'Everything in the plan is written in one step.'],
          [
            'Verify',
            'Baton renders who is on call over the next 90 days from what it imported and compares it, minute by minute, with the source’s own rendering. Every difference is listed with its time and both names; the import is complete when there is none.',
          ],
          [
            'Point monitoring at Baton',
            'The applied plan lists a Baton URL and key for each of the source’s integrations. Change them where alerts are sent, and send a test.',
          ],
        ]}
      />
      <h2>What becomes what</h2>
      <MappingTable
        caption="What the source calls it, and where it goes in Baton"
        from="Source"
        rows={[
          ['Users', 'People, matched by email; someone new is invited'],
          [
            'Schedules and their layers (rotations, shifts)',
            <>
              A rotation with the same <Link to="/help/rotation-layers">layers</Link>: turn length,
              handoff time, members in order, and restrictions as on-duty windows. A pattern Baton
              cannot express exactly becomes a scheduled rotation of the source’s own shifts for the
              next 90 days, and the plan says so.
            </>,
          ],
          ['Overrides', 'Planned cover for the same hours'],
          [
            'Escalation policies, escalations, escalation chains',
            'Escalation policies with the same steps, delays and repeats',
          ],
          [
            'Services and integrations',
            'Integrations of the same format (PagerDuty Events v2, Opsgenie, Alertmanager, Grafana, email), each with its new URL and key',
          ],
          ['A calendar file’s events', 'A scheduled rotation’s entries'],
          [
            'A spreadsheet’s rows',
            'People (name, email, phone, role, time zone) and rotations (cadence, handoff day and time, members in order); each bad row is listed by number',
          ],
        ]}
      />
      <p>
        After the move, see <Link to="/help/moving-from-pagerduty">Moving from PagerDuty</Link> and{' '}
        <Link to="/help/moving-from-opsgenie">Moving from Opsgenie</Link> for the alert formats
        Baton speaks.
      </p>
    </>
  );
}
