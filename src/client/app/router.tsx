import {
  type ComponentType,
  type LazyExoticComponent,
  lazy,
  type ReactElement,
  Suspense,
} from 'react';
import { createBrowserRouter, matchRoutes, Outlet, type RouteObject } from 'react-router';
import { LoadingState } from '@/components/loading-state';
import { GuestOnly, RequireAdmin, RequireAuth } from '@/features/auth/components/route-guards';
import { AppLayout } from './layout/app-layout';
import { RouteErrorPage } from './routes/route-error';

type LazyPage = LazyExoticComponent<ComponentType> & { preload: () => void };

/**
 * lazyPage loads a page's named export on first visit, keeping it out of the initial bundle;
 * `preload` starts the load early (once), so it can run beside the first API reads.
 */
function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M) {
  let loading: Promise<{ default: ComponentType }> | null = null;
  const loadOnce = () => {
    loading ??= load().then((module) => ({ default: module[name] as ComponentType }));
    return loading;
  };
  return Object.assign(lazy(loadOnce), {
    preload: () => {
      loadOnce().catch(() => {
        // A failed preload is tried again by the page's own load, whose error the router shows.
        loading = null;
      });
    },
  }) as LazyPage;
}

const LoginPage = lazyPage(() => import('./routes/login'), 'LoginPage');
const DashboardPage = lazyPage(() => import('./routes/dashboard'), 'DashboardPage');
const ProfilePage = lazyPage(() => import('./routes/profile'), 'ProfilePage');
const RotationsPage = lazyPage(() => import('./routes/rotations'), 'RotationsPage');
const NewRotationPage = lazyPage(() => import('./routes/new-rotation'), 'NewRotationPage');
const RotationDetailPage = lazyPage(() => import('./routes/rotation-detail'), 'RotationDetailPage');
const OnCallTeamPage = lazyPage(() => import('./routes/on-call-team'), 'OnCallTeamPage');
const PersonPage = lazyPage(() => import('./routes/person'), 'PersonPage');
const AuditLogPage = lazyPage(() => import('./routes/audit-log'), 'AuditLogPage');
const CalendarPage = lazyPage(() => import('./routes/calendar'), 'CalendarPage');
const TimeOffPage = lazyPage(() => import('./routes/time-off'), 'TimeOffPage');
const SettingsPage = lazyPage(() => import('./routes/settings'), 'SettingsPage');
const UserManagementPage = lazyPage(() => import('./routes/admin-users'), 'UserManagementPage');
const DebugToolsPage = lazyPage(() => import('./routes/admin-debug'), 'DebugToolsPage');
const NotificationHelpPage = lazyPage(
  () => import('./routes/notification-help'),
  'NotificationHelpPage',
);
const HelpCenterPage = lazyPage(() => import('./routes/help-center'), 'HelpCenterPage');
const HelpArticlePage = lazyPage(() => import('./routes/help-article'), 'HelpArticlePage');
const SupportPage = lazyPage(() => import('./routes/support'), 'SupportPage');
const NotFoundPage = lazyPage(() => import('./routes/not-found'), 'NotFoundPage');
const EscalationPoliciesPage = lazyPage(
  () => import('./routes/escalation-policies'),
  'EscalationPoliciesPage',
);
const EscalationPolicyPage = lazyPage(
  () => import('./routes/escalation-policy'),
  'EscalationPolicyPage',
);
const NewEscalationPolicyPage = lazyPage(
  () => import('./routes/escalation-policy'),
  'NewEscalationPolicyPage',
);
const IncidentsPage = lazyPage(() => import('./routes/incidents'), 'IncidentsPage');
const IncidentPage = lazyPage(() => import('./routes/incident'), 'IncidentPage');
const IntegrationsPage = lazyPage(() => import('./routes/integrations'), 'IntegrationsPage');
const InboxPage = lazyPage(() => import('./routes/inbox'), 'InboxPage');
const PagesPage = lazyPage(() => import('./routes/pages'), 'PagesPage');
const PageAckPage = lazyPage(() => import('./routes/page-ack'), 'PageAckPage');
const AdminNotificationsPage = lazyPage(
  () => import('./routes/admin-notifications'),
  'AdminNotificationsPage',
);

/*
 * Access (spec section 2): /login and /invite/* are for signed-out visitors only; /help and
 * /help/* are public and framed by the app layout; /pages/ack/* (a page's acknowledgement link)
 * is public for everyone, signed in or not, on its own; everything else needs a signed-in user,
 * including unknown paths (a signed-out visitor there goes to /login, not to the not-found
 * page); /admin/* needs an admin.
 */
const routes: RouteObject[] = [
  {
    element: (
      <Suspense fallback={<LoadingState fullScreen />}>
        <Outlet />
      </Suspense>
    ),
    errorElement: <RouteErrorPage />,
    children: [
      {
        element: <GuestOnly />,
        children: [
          { path: '/login', element: <LoginPage /> },
          { path: '/invite/:token', element: <LoginPage /> },
        ],
      },
      { path: '/pages/ack/:token', element: <PageAckPage /> },
      {
        element: <AppLayout />,
        children: [
          { path: '/help', element: <HelpCenterPage /> },
          { path: '/help/:article', element: <HelpArticlePage /> },
          // Linked from the public Help Center: a signed-out reader needs it too (decision 044).
          { path: '/support', element: <SupportPage /> },
          {
            element: <RequireAuth />,
            children: [
              { path: '/', element: <DashboardPage /> },
              { path: '/profile', element: <ProfilePage /> },
              { path: '/rotations', element: <RotationsPage /> },
              { path: '/rotations/new', element: <NewRotationPage /> },
              { path: '/rotations/:id', element: <RotationDetailPage /> },
              { path: '/on-call-team', element: <OnCallTeamPage /> },
              { path: '/people/:id', element: <PersonPage /> },
              { path: '/audit-log', element: <AuditLogPage /> },
              { path: '/calendar', element: <CalendarPage /> },
              // Time off in one place: one's own and a manager's team (decision 256).
              { path: '/time-off', element: <TimeOffPage /> },
              { path: '/settings', element: <SettingsPage /> },
              { path: '/notification-help', element: <NotificationHelpPage /> },
              { path: '/pages', element: <PagesPage /> },
              // Every role sees the incidents it may (the server filters; issue 16).
              { path: '/incidents', element: <IncidentsPage /> },
              { path: '/incidents/:id', element: <IncidentPage /> },
              { path: '/inbox', element: <InboxPage /> },
              // Every integration the viewer may see, across rotations (the server filters;
              // decision 260).
              { path: '/integrations', element: <IntegrationsPage /> },
              // Every role may read policies (the server answers each with what they may read).
              { path: '/escalation-policies', element: <EscalationPoliciesPage /> },
              { path: '/escalation-policies/new', element: <NewEscalationPolicyPage /> },
              { path: '/escalation-policies/:id', element: <EscalationPolicyPage /> },
              {
                element: <RequireAdmin />,
                children: [
                  { path: '/admin/users', element: <UserManagementPage /> },
                  { path: '/admin/debug', element: <DebugToolsPage /> },
                  { path: '/admin/notifications', element: <AdminNotificationsPage /> },
                ],
              },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);

/**
 * preloadPage starts loading the code of the pages `pathname` shows, at start-up: beside the
 * signed-in user's read instead of after it (issue 35, "pages that feel instant").
 */
export function preloadPage(pathname: string): void {
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    const page = (route.element as ReactElement | undefined)?.type as Partial<LazyPage> | undefined;
    page?.preload?.();
  }
}
