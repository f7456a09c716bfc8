import { BatonLogo } from '@/components/baton-logo';
import { Sheet, SheetContent, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { SidebarNav } from './sidebar-nav';

/** MobileSidebar is the small screens' sidebar: an overlay from the left, closed on navigation. */
export function MobileSidebar({
  open,
  onOpenChange,
  showInbox,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  showInbox: boolean;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        side="left"
        aria-describedby={undefined}
        className="w-72 gap-0 overflow-y-auto bg-sidebar p-0 text-sidebar-foreground lg:hidden"
      >
        <SheetHeader className="border-b">
          <SheetTitle>
            <BatonLogo />
          </SheetTitle>
        </SheetHeader>
        <SidebarNav showInbox={showInbox} onNavigate={() => onOpenChange(false)} />
      </SheetContent>
    </Sheet>
  );
}
