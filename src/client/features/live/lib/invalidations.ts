import type { ChangeEvent } from '@shared/contracts/live-events';

/*
 * Which cached reads show a change (decision 220). Query keys start with the API path they read
 * (docs/client.md), so a change is matched to keys by path, and by the
 * rotation or person it names where the key names one. The screens then read again through the
 * server's permission checks: the event itself says nothing but kind and id.
 */

type Key = readonly unknown[];

const path = (key: Key) => (typeof key[0] === 'string' ? key[0] : '');
const startsWith = (key: Key, prefix: string) => path(key).startsWith(prefix);

/** the rotations list, and the rotation's own reads when the key names one (its page, pages…) */
function rotationReads(key: Key, rotationId: number | null): boolean {
  if (path(key) !== '/api/rotations') return false;
  return typeof key[1] !== 'number' || rotationId === null || key[1] === rotationId;
}

/** the person view (`['/api/users', id]`) and its time off, of one person or of anyone */
function personReads(key: Key, personId: number | null): boolean {
  if (path(key) !== '/api/users' || typeof key[1] !== 'number') return false;
  return personId === null || key[1] === personId;
}

/** what shows who is on call and when: lists, cards, the calendar, the team, warnings */
function onCallReads(key: Key, rotationId: number | null): boolean {
  return (
    rotationReads(key, rotationId) ||
    path(key) === '/api/user/rotations' ||
    path(key) === '/api/on-call-team' ||
    (startsWith(key, '/api/calendar') && !startsWith(key, '/api/calendar/feed')) ||
    startsWith(key, '/api/time-off/warnings')
  );
}

/**
 * the viewer's own incident reads: the dashboard's incidents that notified them, the pages sent to
 * them, the deliveries of their pages that failed. An incident's change that says it does not
 * concern the viewer (decision 287) cannot change these.
 */
function ownIncidentReads(key: Key): boolean {
  return (
    (path(key) === '/api/incidents' && key[1] === 'mine') ||
    path(key) === '/api/user/pages' ||
    path(key) === '/api/user/page-delivery-failures'
  );
}

/** showsChange tells whether the read under `key` shows the change, for the signed-in `viewerId`. */
export function showsChange(key: Key, event: ChangeEvent, viewerId: number | null): boolean {
  const rotationId = event.rotationId;
  switch (event.kind) {
    case 'rotation':
      return (
        onCallReads(key, rotationId) ||
        personReads(key, null) ||
        startsWith(key, '/api/escalation-policies')
      );
    case 'handoff':
      return (
        onCallReads(key, rotationId) ||
        startsWith(key, '/api/handoffs/recent') ||
        startsWith(key, '/api/audit-log/handoffs')
      );
    case 'incident':
      if (event.concernsYou === false && ownIncidentReads(key)) return false;
      return (
        startsWith(key, '/api/incidents') ||
        path(key) === '/api/user/pages' ||
        path(key) === '/api/user/page-delivery-failures' ||
        (path(key) === '/api/rotations' && key[1] === rotationId && key[2] === 'pages') ||
        startsWith(key, '/api/integrations')
      );
    case 'coverage':
      return path(key) === '/api/coverage-requests' || onCallReads(key, rotationId);
    case 'time-off':
      return onCallReads(key, null) || personReads(key, event.entityId);
    case 'user':
      return (
        startsWith(key, '/api/users') ||
        onCallReads(key, null) ||
        startsWith(key, '/api/handoffs/recent') ||
        (event.entityId === viewerId &&
          (path(key) === '/api/auth/user' || path(key) === '/api/user/settings'))
      );
    case 'escalation-policy':
      return startsWith(key, '/api/escalation-policies') || rotationReads(key, null);
    case 'integration':
      return startsWith(key, '/api/integrations');
    case 'invitation':
      return startsWith(key, '/api/invitations') && key[2] !== 'validate';
    case 'shift-notice':
      return path(key) === '/api/user/shift-notices';
    case 'session':
      return false;
  }
}
