import { Link } from 'react-router';
import { Callout, CodeBlock, MappingTable, Steps } from '../components/prose';

/*
 * Alerts in (issue 17): how monitoring tools raise incidents through integrations, one article a
 * source, and the two moving guides. Addresses are examples on baton.example.com: the
 * Integrations card of a rotation shows this Baton's own, with the key filled in.
 */

const BATON = 'https://baton.example.com';

function WhereToFind() {
  return (
    <p>
      Every address and configuration below is an example on <code>baton.example.com</code>. Open
      the rotation (or escalation policy) in Baton, find its <strong>Integrations</strong> card and
      open an integration's <strong>Configuration</strong>: it shows your Baton's own addresses,
      ready to paste, each with a <strong>Copy</strong> button.
    </p>
  );
}

export function IntegrationsArticle() {
  return (
    <>
      <p>
        An <strong>integration</strong> lets a machine — Prometheus Alertmanager, Grafana, an uptime
        checker, a CI job, a cron script or anything that sends email — raise incidents in Baton.
        Each integration belongs to one rotation (its incidents climb the rotation's escalation
        policy) or to one escalation policy by itself, and has a secret <strong>key</strong> that
        the sender includes with every alert.
      </p>
      <h2>Adding an integration</h2>
      <Steps
        steps={[
          [
            'Open Integrations',
            'Rotations → Integrations in the menu lists every integration you can see, with its rotation or policy, its source and when it was last used; so does the Integrations card of a rotation’s page (or an escalation policy’s editor). Managers of the rotation and administrators see Add integration.',
          ],
          [
            'Name it, choose where it goes and its source',
            'On the Integrations screen, choose the rotation (its incidents climb the rotation’s escalation policy) or the policy. The source is the tool: Alertmanager, Grafana, PagerDuty format, Opsgenie format, email or generic; its configuration is shown first, and the key is taken in every other format too. Grouping (for Alertmanager and Grafana) decides whether a message raises one incident per group or per alert; urgency follows the severity unless you choose always high or always low; a Grafana signing secret is optional.',
          ],
          [
            'Copy the key',
            'The key is shown once, in a yellow panel: "Copy this key now: it will not be shown again". Baton keeps only a hash of it. The configurations below the panel have it filled in until you hide it.',
          ],
          [
            'Send a test alert',
            'Send test alert first says whom it will page now (“This pages Noah Kim, on call for Payments now.”); confirmed, it raises a test incident through the integration, exactly as a monitoring tool would, and the toast links to it.',
          ],
        ]}
      />
      <h2>Which door to use</h2>
      <ul>
        <li>
          <Link to="/help/alerts-alertmanager">Prometheus Alertmanager</Link>: its webhook,
          PagerDuty or Opsgenie receiver.
        </li>
        <li>
          <Link to="/help/alerts-grafana">Grafana</Link>: a webhook contact point.
        </li>
        <li>
          <Link to="/help/alerts-pagerduty-format">Tools that speak PagerDuty</Link> (Events API v2)
          or <Link to="/help/alerts-opsgenie-format">Opsgenie</Link> (Alert API): change the URL and
          the key, nothing else.
        </li>
        <li>
          <Link to="/help/alerts-generic">Scripts and cron jobs</Link>: one <code>curl</code> line.
        </li>
        <li>
          <Link to="/help/alerts-email">Email</Link>, when your administrators have turned it on.
        </li>
      </ul>
      <h2>What Baton does with an alert</h2>
      <ul>
        <li>
          <strong>One incident per problem.</strong> Alerts with the same dedup key (PagerDuty's{' '}
          <code>dedup_key</code>, Opsgenie's <code>alias</code>, Alertmanager's group key) are one
          incident while it is open. A repeat adds to the incident's alert count and timeline and
          pages nobody again; the same message sent twice is counted once.
        </li>
        <li>
          <strong>The source can acknowledge and resolve.</strong> A resolve from Alertmanager or an
          Opsgenie close resolves the incident, and the timeline names the source. A trigger after
          that opens a new incident.
        </li>
        <li>
          <strong>Severity.</strong> PagerDuty's critical is P1, error P2, warning and info P3;
          Opsgenie's P1 is P1, P2 is P2, P3 to P5 are P3; Alertmanager's <code>severity</code> label
          reads like PagerDuty's words.
        </li>
        <li>
          <strong>Alert storms.</strong> Past the integration's limit of new incidents a minute (20
          unless changed), further new alerts fold into one open "Alert storm" incident, so a
          monitoring outage sends one page, not five hundred. No alert is lost: every one is
          recorded and listed.
        </li>
        <li>
          <strong>Nothing is hidden.</strong> Each integration's <strong>Recent alerts</strong>, and
          the <strong>Alerts</strong> section of each incident an alert raised, show every alert
          with its details as a table, links back to the source, and the raw payload as it arrived.
          The raw payload is kept for 90 days after the incident is resolved (your administrator may
          choose another time, <code>ALERT_PAYLOAD_DAYS</code>); the alert itself stays.
        </li>
      </ul>
      <Callout title="Keys" tone="warning">
        <p>
          Anyone with the key can raise incidents. Keep it in your monitoring tool's secrets, not in
          a repository. If it leaks, <strong>Regenerate key</strong>: the old key stops working at
          once. A wrong, regenerated or deleted key is refused with a message, and nothing is
          written.
        </p>
      </Callout>
    </>
  );
}

export function AlertmanagerArticle() {
  return (
    <>
      <p>
        Prometheus Alertmanager reaches Baton through any of three receivers. Baton takes
        Alertmanager 0.25's requests, unmodified, through each of them.
      </p>
      <WhereToFind />
      <h2>The webhook receiver (recommended)</h2>
      <p>
        It sends every label and annotation, and Baton shows them as a table on the incident. The
        key goes in the Authorization header:
      </p>
      <CodeBlock>
        {`receivers:
  - name: baton-webhook
    webhook_configs:
      - url: '${BATON}/api/alerts/alertmanager'
        send_resolved: true
        http_config:
          authorization:
            type: Bearer
            credentials: '<KEY>'`}
      </CodeBlock>
      <p>
        Then route alerts to it (<code>route: receiver: baton-webhook</code>, or a child route). If
        you cannot set headers, <code>?token=&lt;KEY&gt;</code> at the end of the URL works too.
      </p>
      <h2>An existing PagerDuty or Opsgenie receiver</h2>
      <p>Change only the URL and the key:</p>
      <CodeBlock>
        {`    pagerduty_configs:
      - url: '${BATON}/api/alerts/pagerduty/v2/enqueue'
        routing_key: '<KEY>'

    opsgenie_configs:
      - api_url: '${BATON}/api/alerts/opsgenie/'
        api_key: '<KEY>'`}
      </CodeBlock>
      <p>
        Keep the slash at the end of <code>api_url</code>: Alertmanager adds <code>v2/alerts</code>{' '}
        to it. Alertmanager's PagerDuty receiver sends the severity "error" (P2) whatever your alert
        says, unless you set <code>severity</code> in the receiver.
      </p>
      <h2>Grouping</h2>
      <ul>
        <li>
          <strong>One incident per group</strong> (the default): the alerts Alertmanager groups
          together (its <code>group_by</code>) are one incident, as its own PagerDuty receiver does.
          More alerts joining the group update the incident.
        </li>
        <li>
          <strong>One incident per alert</strong>: each alert's fingerprint is its own incident.
        </li>
      </ul>
      <p>
        Baton never merges alerts by their summary, which would join unrelated problems that happen
        to share a title.
      </p>
      <h2>Resending and resolving</h2>
      <p>
        Alertmanager sends the whole group again every <code>group_interval</code> (and{' '}
        <code>repeat_interval</code>). Baton recognises the repeat: it changes only the alert's
        last-seen time and pages nobody. With <code>send_resolved: true</code>, a resolved group
        resolves its incident.
      </p>
      <h2>Severity</h2>
      <p>
        The <code>severity</code> label maps like PagerDuty's words: <code>critical</code> is P1,{' '}
        <code>error</code> P2, <code>warning</code> and <code>info</code> P3.
      </p>
    </>
  );
}

export function GrafanaArticle() {
  return (
    <>
      <p>
        Grafana Alerting reaches Baton through a <strong>webhook contact point</strong>. Baton reads
        Grafana's message — its title, state, message and each alert's labels, annotations, values
        and dashboard, panel and silence links — and shows the links on the incident.
      </p>
      <WhereToFind />
      <Steps
        steps={[
          ['Add a contact point', 'In Grafana, open Alerting → Contact points and add one.'],
          [
            'Choose Webhook',
            <>
              Set the URL to <code>{`${BATON}/api/alerts/grafana`}</code>.
            </>,
          ],
          [
            'Add the key',
            'Under Optional Webhook settings, set Authorization Header - Scheme to Bearer and Authorization Header - Credentials to the key.',
          ],
          [
            'Test it',
            'Grafana’s Test button sends a test notification: it appears in the integration’s Recent alerts.',
          ],
        ]}
      />
      <h2>Signed requests (optional)</h2>
      <p>
        Give the integration a <strong>signing secret</strong> in Baton (when adding it, or with
        Edit), and set the same secret under <strong>HMAC Signature</strong> in the contact point,
        with the header <code>X-Grafana-Alerting-Signature</code> and the timestamp header{' '}
        <code>X-Grafana-Alerting-Timestamp</code>. Baton then refuses any request that is not signed
        with the secret, or whose timestamp is more than 5 minutes from Baton's clock. The
        integration's key then works only there: the PagerDuty, Opsgenie, Alertmanager and generic
        endpoints and alert email refuse it.
      </p>
      <h2>Grouping and resolving</h2>
      <p>
        Grouping works as for <Link to="/help/alerts-alertmanager">Alertmanager</Link>: one incident
        per notification group by default, or one per alert. A resolved notification resolves the
        incident.
      </p>
    </>
  );
}

export function PagerDutyFormatArticle() {
  return (
    <>
      <p>
        Baton accepts PagerDuty's <strong>Events API v2</strong> at a fixed address, so any tool,
        library or script that sends PagerDuty events works with Baton once its URL and routing key
        are changed.
      </p>
      <WhereToFind />
      <CodeBlock>
        {`curl -X POST '${BATON}/api/alerts/pagerduty/v2/enqueue' \\
  -H 'Content-Type: application/json' \\
  -d '{"routing_key": "<KEY>", "event_action": "trigger", "dedup_key": "disk-db1",
       "payload": {"summary": "Disk full on db1", "source": "db1", "severity": "critical"}}'`}
      </CodeBlock>
      <h2>What Baton reads</h2>
      <ul>
        <li>
          <code>routing_key</code>: the integration's key.
        </li>
        <li>
          <code>event_action</code>: <code>trigger</code>, <code>acknowledge</code> or{' '}
          <code>resolve</code>.
        </li>
        <li>
          <code>dedup_key</code>: the incident it belongs to. A trigger without one gets one, which
          the answer returns.
        </li>
        <li>
          <code>payload</code>: <code>summary</code> (the incident's title), <code>source</code>,{' '}
          <code>severity</code> (critical P1, error P2, warning and info P3),{' '}
          <code>custom_details</code> (shown as a table) and the rest; <code>client</code>,{' '}
          <code>client_url</code>, <code>links</code> and <code>images</code> become links.
        </li>
      </ul>
      <h2>Answers</h2>
      <p>
        Like PagerDuty: 202 with{' '}
        <code>{`{"status": "success", "message": "Event processed", "dedup_key": …}`}</code>; an
        invalid event 400 with <code>"invalid event"</code> and each bad field named. Too many
        requests answer 429 with <code>Retry-After</code>.
      </p>
      <p>
        Moving a whole PagerDuty account? See{' '}
        <Link to="/help/moving-from-pagerduty">Moving from PagerDuty</Link>.
      </p>
    </>
  );
}

export function OpsgenieFormatArticle() {
  return (
    <>
      <p>
        Baton accepts Opsgenie's <strong>Alert API</strong> under a fixed base address, so a tool
        that creates and closes Opsgenie alerts works with Baton once its API URL and key are
        changed.
      </p>
      <WhereToFind />
      <ul>
        <li>
          Base URL: <code>{`${BATON}/api/alerts/opsgenie/`}</code> (in place of{' '}
          <code>https://api.opsgenie.com/</code>).
        </li>
        <li>
          Key: the header <code>Authorization: GenieKey &lt;KEY&gt;</code>, as Opsgenie's own.
        </li>
      </ul>
      <CodeBlock>
        {`curl -X POST '${BATON}/api/alerts/opsgenie/v2/alerts' \\
  -H 'Authorization: GenieKey <KEY>' -H 'Content-Type: application/json' \\
  -d '{"message": "Disk full on db1", "alias": "disk-db1", "priority": "P1"}'

curl -X POST '${BATON}/api/alerts/opsgenie/v2/alerts/disk-db1/close?identifierType=alias' \\
  -H 'Authorization: GenieKey <KEY>' -H 'Content-Type: application/json' -d '{}'`}
      </CodeBlock>
      <h2>What Baton reads</h2>
      <ul>
        <li>
          Create (<code>POST v2/alerts</code>): <code>message</code> (the title), <code>alias</code>{' '}
          (the dedup key), <code>description</code>, <code>details</code> (a table),{' '}
          <code>priority</code> (P1 is P1, P2 P2, P3 to P5 P3), <code>source</code>,{' '}
          <code>tags</code>.
        </li>
        <li>
          <code>POST v2/alerts/&#123;identifier&#125;/close</code> and <code>…/acknowledge</code>,
          with <code>identifierType</code> <code>alias</code> or <code>id</code>: resolve and
          acknowledge the incident.
        </li>
        <li>
          Answers 202{' '}
          <code>{`{"result": "Request will be processed", "took": …, "requestId": …}`}</code>, as
          Opsgenie does.
        </li>
      </ul>
      <p>
        Moving a whole Opsgenie account? See{' '}
        <Link to="/help/moving-from-opsgenie">Moving from Opsgenie</Link>.
      </p>
    </>
  );
}

export function GenericAlertsArticle() {
  return (
    <>
      <p>
        For scripts, cron jobs and CI: one request raises an incident, another resolves it. The key
        goes in the address as <code>?token=</code>; the body is a form or JSON.
      </p>
      <WhereToFind />
      <CodeBlock>
        {`# raise (or add to) the incident named "backup"
curl -d summary='Nightly backup failed' -d dedup=backup '${BATON}/api/alerts/generic?token=<KEY>'

# resolve it
curl -d action=close -d dedup=backup '${BATON}/api/alerts/generic?token=<KEY>'`}
      </CodeBlock>
      <h2>Fields</h2>
      <ul>
        <li>
          <code>summary</code>: the incident's title (required to raise one).
        </li>
        <li>
          <code>details</code>: free text, shown with the alert.
        </li>
        <li>
          <code>dedup</code>: alerts with the same value are one incident while it is open; without
          it, each request is its own incident.
        </li>
        <li>
          <code>action=close</code>: resolve the incident <code>dedup</code> names.
        </li>
      </ul>
      <p>A cron job can raise an incident only when it fails:</p>
      <CodeBlock>
        {`0 3 * * * /usr/local/bin/backup || curl -fsS -d summary='Nightly backup failed' -d dedup=backup '${BATON}/api/alerts/generic?token=<KEY>'`}
      </CodeBlock>
    </>
  );
}

export function EmailAlertsArticle() {
  return (
    <>
      <p>
        For tools that can only send email: a message to <code>&lt;KEY&gt;@</code> your Baton's mail
        domain raises an incident. The subject is its title and the text body its details; messages
        with the same subject are one incident while it is open, unless the integration says every
        message is its own.
      </p>
      <h2>Turning it on</h2>
      <p>
        Email intake is off until an administrator sets <code>INBOUND_SMTP_PORT</code> (and, if
        needed, <code>INBOUND_SMTP_HOST</code>) and points the domain's mail (an MX record, or a
        forwarding rule) at Baton. While it is off, integrations show no email address.
      </p>
      <h2>Finding the address</h2>
      <p>
        Once it is on, each integration's <strong>Configuration</strong> ends with its address,
        <code>&lt;KEY&gt;@…</code>, with a Copy button. The key is in the address, so treat the
        address as a secret.
      </p>
      <Callout title="Resolving">
        <p>
          An email can only raise or add to an incident. Resolve it in Baton, or use the{' '}
          <Link to="/help/alerts-generic">generic endpoint</Link> with <code>action=close</code>.
        </p>
      </Callout>
    </>
  );
}

export function MovingFromOpsgenieArticle() {
  return (
    <>
      <Callout title="Opsgenie ends on 2027-04-05" tone="warning">
        <p>
          Atlassian stops Opsgenie on 5 April 2027. Move before then; a tool that already speaks to
          Opsgenie needs only its API URL and key changed to speak to Baton.
        </p>
      </Callout>
      <h2>Move the people first</h2>
      <MappingTable
        caption="What Opsgenie calls it, and where it goes in Baton"
        from="Opsgenie"
        rows={[
          [
            'Teams and on-call schedules',
            <>
              <Link to="/help/create-rotation">Rotations</Link>: the members in turn order, a daily
              or weekly cadence and a handoff time; a schedule with layers and overrides becomes a
              scheduled rotation's entries.
            </>,
          ],
          [
            'Escalation policies',
            <>
              Escalation policies: steps with a delay, each notifying the rotation's holder, the
              whole rotation or named people; "repeat" as in Opsgenie.
            </>,
          ],
          ['Integrations (API, Prometheus, Grafana, email)', 'Integrations, one key each'],
          ['Alert priority P1 … P5', 'Incident severity: P1 → P1, P2 → P2, P3–P5 → P3'],
          ['Alias', 'Dedup key: one open incident per integration and alias'],
          ['Acknowledge, close', 'Acknowledge, resolve (the timeline names the source)'],
          ['Notification rules', 'Each person’s notification preference: email, SMS or both'],
        ]}
      />
      <h2>Then move the alerts</h2>
      <Steps
        steps={[
          [
            'Add an integration',
            'For each Opsgenie integration, add one on the rotation its alerts should reach (or on an escalation policy), and copy its key.',
          ],
          [
            'Change the API URL',
            <>
              Replace <code>https://api.opsgenie.com/</code> (or <code>api.eu.opsgenie.com</code>)
              with <code>{`${BATON}/api/alerts/opsgenie/`}</code>.
            </>,
          ],
          [
            'Change the key',
            <>
              Replace the Opsgenie API key with the integration's key; it is still sent as{' '}
              <code>Authorization: GenieKey …</code>.
            </>,
          ],
          [
            'Test',
            'Send test alert on the integration, then fire a real test alert from the tool and find it in Recent alerts.',
          ],
        ]}
      />
      <h2>Alertmanager's opsgenie_configs</h2>
      <CodeBlock>
        {`opsgenie_configs:
  - api_url: '${BATON}/api/alerts/opsgenie/'
    api_key: '<KEY>'`}
      </CodeBlock>
      <p>
        That is the whole change: Alertmanager creates alerts with <code>v2/alerts</code> and closes
        them with <code>v2/alerts/&#123;alias&#125;/close?identifierType=alias</code>, both of which
        Baton answers as Opsgenie does. See{' '}
        <Link to="/help/alerts-opsgenie-format">Opsgenie-format senders</Link> for the fields Baton
        reads.
      </p>
      <h2>Good to know</h2>
      <ul>
        <li>
          Opsgenie's heartbeats, alert policies and team routing rules have no counterpart yet:
          route by sending each group of alerts to its own integration.
        </li>
        <li>Priorities P4 and P5 become P3 (low urgency unless the integration says otherwise).</li>
      </ul>
    </>
  );
}

export function MovingFromPagerDutyArticle() {
  return (
    <>
      <p>
        Baton speaks PagerDuty's Events API v2, so whatever sends events to PagerDuty sends them to
        Baton once its URL and routing key are changed.
      </p>
      <h2>Move the people first</h2>
      <MappingTable
        caption="What PagerDuty calls it, and where it goes in Baton"
        from="PagerDuty"
        rows={[
          [
            'Services',
            'A rotation (its incidents climb the rotation’s escalation policy), or an escalation policy by itself; each of the service’s integrations becomes an integration there',
          ],
          [
            'Schedules',
            <Link key="schedules" to="/help/create-rotation">
              Rotations
            </Link>,
          ],
          ['Escalation policies', 'Escalation policies: steps, delays and repeats'],
          ['Integration key (routing key)', 'The integration’s key'],
          [
            'Severity critical, error, warning, info',
            'Incident severity P1, P2, P3, P3; urgency high for P1 and P2, low for P3 unless the integration sets one',
          ],
          ['dedup_key', 'Dedup key: one open incident per integration and key'],
          ['Incident acknowledge, resolve', 'Acknowledge, resolve, in Baton or by the event'],
        ]}
      />
      <h2>Then move the events</h2>
      <Steps
        steps={[
          [
            'Add an integration',
            'For each PagerDuty service integration, add one on the matching rotation, and copy its key.',
          ],
          [
            'Change the URL',
            <>
              Replace <code>https://events.pagerduty.com/v2/enqueue</code> with{' '}
              <code>{`${BATON}/api/alerts/pagerduty/v2/enqueue`}</code>.
            </>,
          ],
          [
            'Change the routing key',
            'Replace the PagerDuty integration key with the integration’s key.',
          ],
          ['Test', 'Send a trigger and a resolve, and watch the incident open and close.'],
        ]}
      />
      <h2>Alertmanager's pagerduty_configs</h2>
      <CodeBlock>
        {`pagerduty_configs:
  - url: '${BATON}/api/alerts/pagerduty/v2/enqueue'
    routing_key: '<KEY>'`}
      </CodeBlock>
      <p>
        A receiver with <code>service_key</code> uses PagerDuty's older Events API v1, which Baton
        does not speak: use <code>routing_key</code>. See{' '}
        <Link to="/help/alerts-pagerduty-format">PagerDuty-format senders</Link> for the fields
        Baton reads and its answers.
      </p>
    </>
  );
}
