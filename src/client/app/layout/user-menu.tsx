import type { User } from '@shared/contracts/users';
import { Inbox, LogOut, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Spinner } from '@/components/ui/spinner';
import { initials } from '@/lib/utils';

/**
 * UserMenu is the avatar button of the top bar: who is signed in, Profile, the demo inbox (in
 * demo mode only) and Log out.
 */
export function UserMenu({
  user,
  showInbox = false,
  onLogout,
  isLoggingOut,
}: {
  user: User;
  showInbox?: boolean;
  onLogout: () => void;
  isLoggingOut: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [wasLoggingOut, setWasLoggingOut] = useState(isLoggingOut);
  if (wasLoggingOut !== isLoggingOut) {
    setWasLoggingOut(isLoggingOut);
    // A sign-out that failed ends here (a successful one leaves the page): close the menu, or
    // its modal layer would keep the 'Logout Error' toast hidden from screen readers.
    if (!isLoggingOut) setOpen(false);
  }

  const shown = initials(user.name);
  return (
    <DropdownMenu open={open} onOpenChange={setOpen}>
      <DropdownMenuTrigger asChild>
        {/* The name starts with what the button shows (WCAG 2.5.3 label in name): a speech-input
            user who says "click O O" reaches it. */}
        <Button
          variant="ghost"
          size="icon"
          className="rounded-full"
          aria-label={shown ? `${shown} User menu` : 'User menu'}
        >
          <Avatar className="size-8">
            <AvatarFallback className="bg-primary text-primary-foreground">
              {shown || <UserRound className="size-4" aria-hidden="true" />}
            </AvatarFallback>
          </Avatar>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="font-normal">
          <p className="truncate font-medium text-sm">{user.name}</p>
          <p className="truncate text-muted-foreground text-xs">{user.email}</p>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/profile">
            <UserRound aria-hidden="true" />
            Profile
          </Link>
        </DropdownMenuItem>
        {showInbox ? (
          <DropdownMenuItem asChild>
            <Link to="/inbox">
              <Inbox aria-hidden="true" />
              Inbox
            </Link>
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={isLoggingOut}
          onSelect={(event) => {
            // Keep the menu open so the pending sign-out stays visible.
            event.preventDefault();
            onLogout();
          }}
        >
          {isLoggingOut ? <Spinner /> : <LogOut aria-hidden="true" />}
          Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
