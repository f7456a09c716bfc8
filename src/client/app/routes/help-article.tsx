import { useParams } from 'react-router';
import { ARTICLE_CONTENT } from '@/features/help/articles/article-content';
import { HelpArticleLayout } from '@/features/help/components/help-article-layout';
import { findHelpArticle } from '@/features/help/help-articles';
import { NotFoundPage } from './not-found';

export function HelpArticlePage() {
  const { article: slug } = useParams();
  const article = findHelpArticle(slug);
  const Content = article ? ARTICLE_CONTENT[article.slug] : undefined;
  if (!article || !Content) return <NotFoundPage />;
  return (
    <HelpArticleLayout key={article.slug} article={article}>
      <Content />
    </HelpArticleLayout>
  );
}
