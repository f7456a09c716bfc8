import { ExternalLink } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useHelpLinks } from '@/features/help/api/get-help-links';
import { useAuth } from '@/lib/use-auth';
import { cn } from '@/lib/utils';
import { isNavItemActive, type NavItem, navFor } from './navigation';

const linkClasses =
  'flex items-center gap-3 rounded-md px-3 py-2 font-medium text-sidebar-foreground/80 text-sm outline-none transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-sidebar-ring';

function NavEntry({ item, onNavigate }: { item: NavItem; onNavigate?: () => void }) {
  const Icon = item.icon;
  const links = useHelpLinks();
  if (item.kind === 'external') {
    // Where the link points is the deployment's (decision 184): shown once known, never a guess.
    const href = links.data?.[item.link];
    if (!href) return null;
    return (
      <li>
        <a
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          className={linkClasses}
          onClick={onNavigate}
        >
          <Icon className="size-4 shrink-0" aria-hidden="true" />
          <span className="flex-1">{item.label}</span>
          <ExternalLink className="size-3.5 shrink-0 opacity-60" aria-hidden="true" />
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </li>
    );
  }
  return (
    <li>
      <InternalLink item={item} onNavigate={onNavigate} />
      {item.children?.length ? (
        <ul className="mt-1 ml-5 space-y-1 border-sidebar-border border-l pl-2">
          {item.children.map((child) => (
            <li key={child.label}>
              <InternalLink item={child} onNavigate={onNavigate} />
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function InternalLink({
  item,
  onNavigate,
}: {
  item: Extract<NavItem, { kind: 'internal' }>;
  onNavigate?: () => void;
}) {
  const Icon = item.icon;
  const { pathname } = useLocation();
  // The entry's own rule (its path, paths below it, the paths it stands for), not NavLink's.
  const isActive = isNavItemActive(item, pathname);
  return (
    <Link
      to={item.to}
      onClick={onNavigate}
      aria-current={isActive ? 'page' : undefined}
      className={cn(
        linkClasses,
        isActive &&
          'bg-sidebar-accent font-semibold text-sidebar-accent-foreground shadow-xs ring-1 ring-sidebar-border',
      )}
    >
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      {item.label}
    </Link>
  );
}

function NavGroup({
  heading,
  items,
  onNavigate,
}: {
  heading?: string;
  items: readonly NavItem[];
  onNavigate?: () => void;
}) {
  return (
    <div className="space-y-1">
      {heading ? (
        <h2 className="px-3 pt-2 pb-1 font-semibold text-muted-foreground text-xs uppercase tracking-wider">
          {heading}
        </h2>
      ) : null}
      <ul className="space-y-1">
        {items.map((item) => (
          <NavEntry key={item.label} item={item} onNavigate={onNavigate} />
        ))}
      </ul>
    </div>
  );
}

/**
 * SidebarNav is the app's main navigation, as `navFor` decides it for the signed-in user's roles:
 * the Admin group only for admins, the Inbox link only in demo mode (decision 260).
 */
export function SidebarNav({
  showInbox = false,
  onNavigate,
  className,
}: {
  showInbox?: boolean;
  /** Called when a link is followed (the mobile sidebar closes itself with it). */
  onNavigate?: () => void;
  className?: string;
}) {
  const { roles } = useAuth();
  const nav = navFor({ roles, demoInbox: showInbox });
  return (
    <nav aria-label="Main" className={cn('flex flex-col gap-4 p-3', className)}>
      <NavGroup items={nav.main} onNavigate={onNavigate} />
      <NavGroup heading="Support" items={nav.support} onNavigate={onNavigate} />
      {nav.admin.length > 0 ? (
        <NavGroup heading="Admin" items={nav.admin} onNavigate={onNavigate} />
      ) : null}
    </nav>
  );
}
