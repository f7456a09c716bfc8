import { PageHeader } from '@/components/page-header';
import { HelpCenter } from '@/features/help/components/help-center';

export function HelpCenterPage() {
  return (
    <>
      <PageHeader
        title="Help Center"
        description="Guides to rotations, handoffs, paging, notifications and administration."
      />
      <HelpCenter />
    </>
  );
}
