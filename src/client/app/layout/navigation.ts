import type { HelpLinks } from '@shared/contracts/help';
import { can } from '@shared/domain/permissions';
import { hasRole, type Role } from '@shared/domain/roles';
import {
  ArrowRightLeft,
  Bell,
  Bug,
  CalendarDays,
  CalendarOff,
  CircleHelp,
  Inbox,
  LayoutDashboard,
  type LucideIcon,
  Mail,
  MessagesSquare,
  PhoneCall,
  Plug,
  RefreshCw,
  ScrollText,
  Settings,
  ShieldCheck,
  Siren,
  TrendingUp,
  UserCog,
  Users,
  Wrench,
} from 'lucide-react';

export type InternalNavItem = {
  kind: 'internal';
  label: string;
  to: string;
  icon: LucideIcon;
  /** Highlight only on this exact path, not on paths below it. */
  end?: boolean;
  /** Other paths this entry stands for (highlighted there too): /pages for Incidents. */
  also?: readonly string[];
  /** Entries shown indented under this one (decision 260). */
  children?: readonly InternalNavItem[];
};

/** A link out of Baton; `link` names which of the deployment's help links it is (decision 184). */
type ExternalNavItem = {
  kind: 'external';
  label: string;
  link: keyof HelpLinks;
  icon: LucideIcon;
};

export type NavItem = InternalNavItem | ExternalNavItem;

const item = (
  label: string,
  to: string,
  icon: LucideIcon,
  extra: Partial<InternalNavItem> = {},
): InternalNavItem => ({ kind: 'internal', label, to, icon, ...extra });

/*
 * The specification's five main links, in its order (section 2). What Baton adds comes after them
 * (Incidents, Time off) or under the one it belongs to (Escalation Policies and Integrations under
 * Rotations), so the five stay the specification's, one after the other (decision 260).
 */
const DASHBOARD = item('Dashboard', '/', LayoutDashboard, { end: true });
const ROTATIONS = item('Rotations', '/rotations', RefreshCw);
const ESCALATION_POLICIES = item('Escalation Policies', '/escalation-policies', TrendingUp);
const INTEGRATIONS = item('Integrations', '/integrations', Plug);
const ON_CALL_TEAM = item('On-Call Team', '/on-call-team', Users);
const AUDIT_LOG = item('Audit Log', '/audit-log', ScrollText);
const CALENDAR = item('Calendar', '/calendar', CalendarDays);
// Every page is an incident (decision 204): one entry, which the page history (/pages) is part of.
const INCIDENTS = item('Incidents', '/incidents', Siren, { also: ['/pages'] });
const TIME_OFF = item('Time off', '/time-off', CalendarOff);

/** Only in demo mode, after the main links: the demo inbox (decision 186). */
const DEMO_INBOX = item('Inbox', '/inbox', Inbox);

export const SUPPORT_NAV: readonly NavItem[] = [
  item('Help Center', '/help', CircleHelp, { end: true }),
  item('User Roles', '/help/user-roles', ShieldCheck),
  item('Handoff Process', '/help/handoff-process', ArrowRightLeft),
  item('Paging On-Call', '/help/paging-oncall', PhoneCall),
  item('Notification Help', '/notification-help', Bell),
  { kind: 'external', label: 'Users Forum', link: 'usersForumUrl', icon: MessagesSquare },
  { kind: 'external', label: 'Report a Bug', link: 'bugReportUrl', icon: Bug },
];

const ADMIN_NAV: readonly InternalNavItem[] = [
  item('User Management', '/admin/users', UserCog),
  item('Settings', '/settings', Settings),
  item('Debug Tools', '/admin/debug', Wrench),
  item('Notifications', '/admin/notifications', Mail),
];

/** Who the menu is for: the signed-in user's roles (none when signed out) and the demo inbox. */
export interface NavAudience {
  roles: readonly Role[];
  demoInbox: boolean;
}

export interface NavGroups {
  main: readonly InternalNavItem[];
  support: readonly NavItem[];
  /** empty for everyone but administrators */
  admin: readonly InternalNavItem[];
}

/**
 * overseesPager tells whether the roles set up what pages people: managers (who create policies and
 * integrations for the rotations they manage), incident managers (who read them all) and
 * administrators. Everyone else reaches their rotation's policy and integrations from its page.
 */
function overseesPager(roles: readonly Role[]): boolean {
  return can(roles, 'escalationPolicy.edit') || hasRole(roles, 'incident_manager');
}

/**
 * navFor returns the menu for an audience: the main links (the specification's five, Escalation
 * Policies and Integrations under Rotations for those who oversee paging, then Incidents, Time
 * off, and the demo Inbox), the Support group, and the Admin group for administrators only.
 */
export function navFor({ roles, demoInbox }: NavAudience): NavGroups {
  const signedIn = roles.length > 0;
  const rotations = overseesPager(roles)
    ? { ...ROTATIONS, children: [ESCALATION_POLICIES, INTEGRATIONS] }
    : ROTATIONS;
  const main = [DASHBOARD, rotations, ON_CALL_TEAM, AUDIT_LOG, CALENDAR];
  if (signedIn) main.push(INCIDENTS, TIME_OFF);
  if (demoInbox) main.push(DEMO_INBOX);
  return {
    main,
    support: SUPPORT_NAV,
    admin: hasRole(roles, 'admin') ? ADMIN_NAV : [],
  };
}

const under = (pathname: string, to: string) =>
  pathname === to || pathname.startsWith(to === '/' ? '/' : `${to}/`);

/**
 * isNavItemActive tells whether an entry is the current one at `pathname`: its own path (exactly,
 * for `end`), a path below it, or one of the paths it also stands for.
 */
export function isNavItemActive(entry: InternalNavItem, pathname: string): boolean {
  if (entry.end ? pathname === entry.to : under(pathname, entry.to)) return true;
  return (entry.also ?? []).some((path) => under(pathname, path));
}
