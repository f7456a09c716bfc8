import type { HelpLinks } from '@shared/contracts/help';
import {
  ArrowRightLeft,
  Bell,
  BellRing,
  Bug,
  CalendarDays,
  CircleHelp,
  Inbox,
  LayoutDashboard,
  type LucideIcon,
  Mail,
  MessagesSquare,
  PhoneCall,
  RefreshCw,
  ScrollText,
  Settings,
  ShieldCheck,
  Siren,
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
};

/** A link out of Baton; `link` names which of the deployment's help links it is (decision 184). */
type ExternalNavItem = {
  kind: 'external';
  label: string;
  link: keyof HelpLinks;
  icon: LucideIcon;
};

export type NavItem = InternalNavItem | ExternalNavItem;

export const MAIN_NAV: readonly InternalNavItem[] = [
  { kind: 'internal', label: 'Dashboard', to: '/', icon: LayoutDashboard, end: true },
  { kind: 'internal', label: 'Rotations', to: '/rotations', icon: RefreshCw },
  { kind: 'internal', label: 'On-Call Team', to: '/on-call-team', icon: Users },
  { kind: 'internal', label: 'Audit Log', to: '/audit-log', icon: ScrollText },
  { kind: 'internal', label: 'Calendar', to: '/calendar', icon: CalendarDays },
  // Not among the specification's five main links: the pages screen (decision 183) comes after
  // them, so their order stays the specification's.
  { kind: 'internal', label: 'Pages', to: '/pages', icon: BellRing },
  // Issue 16: every signed-in role sees the incidents it may act on or read.
  { kind: 'internal', label: 'Incidents', to: '/incidents', icon: Siren },
];

/** Only in demo mode, after the main links: the demo inbox (decision 186). */
export const DEMO_INBOX_NAV: InternalNavItem = {
  kind: 'internal',
  label: 'Inbox',
  to: '/inbox',
  icon: Inbox,
};

export const SUPPORT_NAV: readonly NavItem[] = [
  { kind: 'internal', label: 'Help Center', to: '/help', icon: CircleHelp, end: true },
  { kind: 'internal', label: 'User Roles', to: '/help/user-roles', icon: ShieldCheck },
  { kind: 'internal', label: 'Handoff Process', to: '/help/handoff-process', icon: ArrowRightLeft },
  { kind: 'internal', label: 'Paging On-Call', to: '/help/paging-oncall', icon: PhoneCall },
  { kind: 'internal', label: 'Notification Help', to: '/notification-help', icon: Bell },
  { kind: 'external', label: 'Users Forum', link: 'usersForumUrl', icon: MessagesSquare },
  { kind: 'external', label: 'Report a Bug', link: 'bugReportUrl', icon: Bug },
];

export const ADMIN_NAV: readonly InternalNavItem[] = [
  { kind: 'internal', label: 'User Management', to: '/admin/users', icon: UserCog },
  { kind: 'internal', label: 'Settings', to: '/settings', icon: Settings },
  { kind: 'internal', label: 'Debug Tools', to: '/admin/debug', icon: Wrench },
  { kind: 'internal', label: 'Notifications', to: '/admin/notifications', icon: Mail },
  // Decision 203: every role may read policies, but they are administered here; others reach
  // them from their rotation's page.
  { kind: 'internal', label: 'Escalation Policies', to: '/escalation-policies', icon: Siren },
];
