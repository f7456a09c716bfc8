import { useParams } from 'react-router';
import { BatonMark } from '@/components/baton-logo';
import { DarkModeToggle } from '@/components/dark-mode-toggle';
import { AckLinkCard } from '@/features/paging/components/ack-link-card';

/** PageAckPage is the public page an acknowledgement link opens (/pages/ack/{token}); no sign-in. */
export function PageAckPage() {
  const { token = '' } = useParams();
  return (
    <div className="relative flex min-h-dvh flex-col items-center justify-center bg-muted/40 px-4 py-10">
      <div className="absolute top-3 right-3">
        <DarkModeToggle />
      </div>
      <main className="grid w-full max-w-md gap-4">
        <BatonMark className="mx-auto size-10" />
        <AckLinkCard token={token} />
      </main>
    </div>
  );
}
