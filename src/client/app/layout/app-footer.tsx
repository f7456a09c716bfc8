import { APP_NAME, APP_VERSION, STUDIO_CREDIT } from '@/lib/constants';

/** AppFooter is the copyright line with the version, and the studio credit, under every app page. */
export function AppFooter() {
  return (
    <footer className="border-t px-4 py-4 text-muted-foreground text-xs sm:px-6 lg:px-8">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between">
        <p>
          © {new Date().getFullYear()} {APP_NAME} · version {APP_VERSION}
        </p>
        <p>{STUDIO_CREDIT}</p>
      </div>
    </footer>
  );
}
