import { SupportArticle } from '@/features/help/articles/getting-started';
import { HelpArticleLayout } from '@/features/help/components/help-article-layout';
import { findHelpArticleBySlug } from '@/features/help/help-articles';

export function SupportPage() {
  return (
    <HelpArticleLayout article={findHelpArticleBySlug('support')!}>
      <SupportArticle />
    </HelpArticleLayout>
  );
}
