import { NotificationSettingsHelp } from '@/features/help/articles/notification-settings';
import { HelpArticleLayout } from '@/features/help/components/help-article-layout';
import { findHelpArticleBySlug } from '@/features/help/help-articles';

export function NotificationHelpPage() {
  return (
    <HelpArticleLayout article={findHelpArticleBySlug('notification-settings')!}>
      <NotificationSettingsHelp />
    </HelpArticleLayout>
  );
}
