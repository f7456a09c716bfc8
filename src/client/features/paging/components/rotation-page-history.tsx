import { HistoryCard } from '@/components/history-card';
import { useRotationPages } from '../api/get-rotation-pages';
import { PageItem } from './page-item';

/** RotationPageHistory lists a rotation's pages, newest first: who paged whom, when and how it went. */
export function RotationPageHistory({
  rotationId,
  title = 'Page history',
}: {
  rotationId: number;
  title?: string;
}) {
  const history = useRotationPages(rotationId);
  const pages = history.data?.pages.flat() ?? [];

  return (
    <HistoryCard
      title={title}
      description="Every page sent to this rotation: who paged whom, the message, its urgency and what happened next."
      query={history}
      count={pages.length}
      loadingLabel="Loading page history..."
      errorTitle="Failed to fetch page history"
      emptyText="No pages sent for this rotation yet"
      listLabel={title}
    >
      {pages.map((page) => (
        <PageItem key={page.id} page={page} />
      ))}
    </HistoryCard>
  );
}
