import { ChevronRight } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { type HelpArticle, helpArticlePath, relatedArticles } from '../help-articles';
import { Prose } from './prose';

/** HelpArticleLayout frames an article: breadcrumb, title, summary, body and related articles. */
export function HelpArticleLayout({
  article,
  children,
}: {
  article: HelpArticle;
  children: React.ReactNode;
}) {
  const related = relatedArticles(article);
  return (
    <article>
      <nav aria-label="Breadcrumb" className="mb-4 text-muted-foreground text-sm">
        <ol className="flex items-center gap-1">
          <li>
            <Link to="/help" className="underline-offset-4 hover:text-foreground hover:underline">
              Help Center
            </Link>
          </li>
          <li aria-hidden="true">
            <ChevronRight className="size-4" />
          </li>
          <li aria-current="page" className="text-foreground">
            {article.title}
          </li>
        </ol>
      </nav>
      <PageHeader title={article.title} description={article.summary} />
      <Prose>{children}</Prose>
      {related.length > 0 ? (
        <section aria-labelledby="related-articles" className="mt-12 max-w-3xl border-t pt-6">
          <h2 id="related-articles" className="mb-3 font-semibold text-base">
            Related articles
          </h2>
          <ul className="grid gap-2 sm:grid-cols-2">
            {related.map((a) => (
              <li key={a.slug}>
                <Link
                  to={helpArticlePath(a)}
                  className="block rounded-lg border p-3 transition-colors hover:bg-muted/60"
                >
                  <span className="font-medium text-sm">{a.title}</span>
                  <span className="mt-0.5 block text-muted-foreground text-xs">{a.summary}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
