import { Menu } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, Outlet } from 'react-router';
import { BatonLogo } from '@/components/baton-logo';
import { DarkModeToggle } from '@/components/dark-mode-toggle';
import { LoadingState } from '@/components/loading-state';
import { PageSkeleton } from '@/components/page-skeleton';
import { Button } from '@/components/ui/button';
import { useLogout } from '@/features/auth/api/logout';
import { useDemoInbox } from '@/features/inbox/api/get-demo-inbox';
import { useLiveUpdates } from '@/features/live/api/use-live-updates';
import { useAuth } from '@/lib/use-auth';
import { AppFooter } from './app-footer';
import { SidebarNav } from './sidebar-nav';

// The avatar menu (Radix menu and its positioning library) loads just after the first paint, which
// keeps it out of the initial bundle (docs/performance.md, decision 081).
const UserMenu = lazy(async () => ({ default: (await import('./user-menu')).UserMenu }));
// So do the parts that show only later or only to some (the first screen's budget, decision 237):
// the live dot (its status comes from the stream, which loads after the first paint), the
// administrators' failure banner (and its date formatting), and the small screens' overlay
// sidebar, loaded when first opened.
const LiveIndicator = lazy(async () => ({
  default: (await import('@/features/live/components/live-indicator')).LiveIndicator,
}));
const ChannelFailureBanner = lazy(async () => ({
  default: (await import('@/features/outbox/components/channel-failure-banner'))
    .ChannelFailureBanner,
}));
const MobileSidebar = lazy(async () => ({
  default: (await import('./mobile-sidebar')).MobileSidebar,
}));

/**
 * AppLayout frames every page but the sign-in screen: fixed top bar, sidebar (an overlay on
 * small screens), page and footer. It waits for the session so the chrome never flashes the
 * wrong user; signed-out readers (help pages) get a 'Sign in' link instead of the avatar menu.
 */
export function AppLayout() {
  const { user, isLoading, isAdmin } = useAuth();
  const logout = useLogout();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [sidebarOpened, setSidebarOpened] = useState(false);
  const showInbox = useDemoInbox(Boolean(user));
  // One live stream per browser while signed in (decision 220); polling stays as the fallback.
  const liveStatus = useLiveUpdates(user?.id ?? null);

  useEffect(() => {
    // The overlay sidebar has no place on wide screens, where the sidebar is always shown.
    const wide = window.matchMedia('(min-width: 64rem)');
    const close = () => {
      if (wide.matches) setSidebarOpen(false);
    };
    wide.addEventListener('change', close);
    return () => wide.removeEventListener('change', close);
  }, []);

  if (isLoading) return <LoadingState fullScreen />;

  const showAdmin = Boolean(user) && isAdmin;

  return (
    <div className="min-h-dvh bg-background text-foreground">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:rounded-md focus:bg-background focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>

      <header className="fixed inset-x-0 top-0 z-40 flex h-14 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur supports-[backdrop-filter]:bg-background/80 sm:px-4">
        <Button
          variant="ghost"
          size="icon"
          className="lg:hidden"
          aria-label="Toggle sidebar"
          aria-expanded={sidebarOpen}
          onClick={() => {
            setSidebarOpened(true);
            setSidebarOpen((open) => !open);
          }}
        >
          <Menu aria-hidden="true" />
        </Button>
        <Link
          to="/"
          className="rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <BatonLogo />
        </Link>
        <div className="ml-auto flex items-center gap-1">
          {user && liveStatus ? (
            <Suspense fallback={null}>
              <LiveIndicator status={liveStatus} />
            </Suspense>
          ) : null}
          <DarkModeToggle />
          {user ? (
            <Suspense
              fallback={
                <Button
                  variant="ghost"
                  size="icon"
                  className="rounded-full"
                  aria-label="User menu"
                  disabled
                />
              }
            >
              <UserMenu
                user={user}
                showInbox={showInbox}
                onLogout={() => logout.mutate()}
                isLoggingOut={logout.isPending}
              />
            </Suspense>
          ) : (
            <Button asChild size="sm" className="ml-1">
              <Link to="/login">Sign in</Link>
            </Button>
          )}
        </div>
      </header>

      <aside className="fixed top-14 bottom-0 left-0 z-30 hidden w-64 overflow-y-auto border-r bg-sidebar text-sidebar-foreground lg:block">
        <SidebarNav showInbox={showInbox} />
      </aside>

      {sidebarOpened ? (
        <Suspense fallback={null}>
          <MobileSidebar open={sidebarOpen} onOpenChange={setSidebarOpen} showInbox={showInbox} />
        </Suspense>
      ) : null}

      <div className="flex min-h-dvh flex-col pt-14 lg:pl-64">
        <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8">
          <div className="mx-auto w-full max-w-6xl">
            {showAdmin ? (
              <Suspense fallback={null}>
                <ChannelFailureBanner />
              </Suspense>
            ) : null}
            <Suspense fallback={<PageSkeleton />}>
              <Outlet />
            </Suspense>
          </div>
        </main>
        <AppFooter />
      </div>
    </div>
  );
}
