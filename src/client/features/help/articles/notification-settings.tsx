import { handoffReminderChoicesText } from '@shared/contracts/settings';
import type * as React from 'react';
import { Link } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Callout } from '../components/prose';

const FAQ: [string, React.ReactNode][] = [
  [
    'Does Baton have push notifications?',
    'Not yet. Baton reaches you by email and SMS today; push notifications to a mobile app are planned for a future update.',
  ],
  [
    'Why did I get an email instead of a text?',
    <>
      Either your preference is “Email only”, or you chose SMS without a phone number on your{' '}
      <Link to="/profile">Profile</Link> — then Baton emails you instead.
    </>,
  ],
  [
    'How do I change how Baton reaches me?',
    <>
      Change Notification Preference on your <Link to="/profile">Profile</Link> or in{' '}
      <Link to="/settings">Settings</Link>: email only, SMS only, or both.
    </>,
  ],
  [
    'Can a page reach me one way first and another a little later?',
    <>
      Yes: set your Notification rules on your <Link to="/profile">Profile</Link>. For high and for
      low urgency, list the ways a page reaches you, each after its own delay (for example SMS at
      once, email after 1 minute). Acknowledging the incident stops whatever is still waiting.
      Without rules of your own, pages follow your notification preference.
    </>,
  ],
  [
    'Can I choose channels per notification type?',
    'Settings shows a choice per type, but it is not saved yet: your notification preference applies to every notification.',
  ],
  [
    'Can I get the handoff notice earlier?',
    <>
      Yes: set the handoff reminder in <Link to="/settings">Settings</Link> to{' '}
      {handoffReminderChoicesText()} before your shift ends.
    </>,
  ],
  [
    'I acknowledged a page from a text message link, but the link no longer works.',
    'Acknowledgement links work once and expire. Open Baton to see the page’s state.',
  ],
  [
    'Nobody on my team gets any messages.',
    'Your administrators may not have configured an email or SMS service yet. Until they do, Baton records each notification for administrators instead of sending it.',
  ],
];

/** NotificationSettingsHelp is the /notification-help page body: phone settings and questions. */
export function NotificationSettingsHelp() {
  return (
    <>
      <p>
        Baton sends notifications by email and SMS; there is no Baton mobile app or push
        notification yet — that is planned for a future update. Until then, set up your phone so
        Baton's emails and texts reach you, even at night.
      </p>
      <Tabs defaultValue="ios" className="mt-6">
        <TabsList>
          <TabsTrigger value="ios">iOS</TabsTrigger>
          <TabsTrigger value="android">Android</TabsTrigger>
          <TabsTrigger value="faq">FAQ</TabsTrigger>
        </TabsList>
        <TabsContent value="ios" className="space-y-4 pt-4">
          <h2>iPhone and iPad</h2>
          <ol>
            <li>Save Baton's SMS number and sending email address as one contact named “Baton”.</li>
            <li>
              In <strong>Settings → Notifications → Messages</strong> (and your mail app), turn on
              Allow Notifications, Lock Screen and Banners, with a sound.
            </li>
            <li>
              In <strong>Settings → Focus</strong>, for each Focus you use at night (Do Not Disturb,
              Sleep), add the Baton contact under <em>Allowed People</em>.
            </li>
            <li>
              For texts to ring through the mute switch and Focus, open the Baton contact, choose{' '}
              <strong>Edit → Text Tone</strong>, and turn on <em>Emergency Bypass</em>.
            </li>
            <li>
              Make sure your mail app fetches new mail automatically (Push or every 15 minutes).
            </li>
          </ol>
        </TabsContent>
        <TabsContent value="android" className="space-y-4 pt-4">
          <h2>Android</h2>
          <p>Menus differ a little between phone makers; look for the same words.</p>
          <ol>
            <li>
              Save Baton's SMS number and sending email address as one contact named “Baton”, and
              mark it as a favourite (starred).
            </li>
            <li>
              In <strong>Settings → Notifications → Do Not Disturb</strong>, under <em>People</em>,
              allow calls and messages from starred contacts.
            </li>
            <li>
              In your messages app, open the conversation with Baton and mark it as a{' '}
              <em>Priority</em> conversation so it can interrupt Do Not Disturb.
            </li>
            <li>
              In your email app, turn on notifications for the inbox Baton writes to, and exclude
              the app from battery optimisation so it syncs in the background.
            </li>
          </ol>
        </TabsContent>
        <TabsContent value="faq" className="space-y-4 pt-4">
          <h2>Frequently asked questions</h2>
          <dl className="space-y-4">
            {FAQ.map(([question, answer]) => (
              <div key={question}>
                <dt className="font-semibold">{question}</dt>
                <dd className="mt-1 text-muted-foreground">{answer}</dd>
              </div>
            ))}
          </dl>
        </TabsContent>
      </Tabs>
      <Callout title="Test it">
        <p>
          Ask a teammate with paging rights to send you a low-urgency test page while you hold the
          baton, and check that it reaches you with the phone locked.
        </p>
      </Callout>
    </>
  );
}
