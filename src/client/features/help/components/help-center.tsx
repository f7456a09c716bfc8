import {
  ArrowRightLeft,
  BellRing,
  BookOpen,
  ExternalLink,
  type LucideIcon,
  MessagesSquare,
  Rocket,
  Search,
  ShieldCheck,
  SquareKanban,
  Users,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useHelpLinks } from '../api/get-help-links';
import {
  HELP_ARTICLES,
  HELP_CATEGORIES,
  type HelpArticle,
  type HelpCategoryId,
  helpArticlePath,
  searchHelpArticles,
} from '../help-articles';

/** Where the Help Center's 'project board' link points: planned and in-progress work. */
const PROJECT_BOARD_URL = 'https://github.com/orgs/baton-oncall/projects';

const CATEGORY_ICONS: Record<HelpCategoryId, LucideIcon> = {
  'getting-started': Rocket,
  rotations: ArrowRightLeft,
  notifications: BellRing,
  administration: Users,
  security: ShieldCheck,
};

function ArticleLink({ article }: { article: HelpArticle }) {
  return (
    <Link
      to={helpArticlePath(article)}
      className="block rounded-md px-2 py-1.5 text-sm transition-colors hover:bg-muted"
    >
      <span className="font-medium text-primary underline-offset-4 hover:underline">
        {article.title}
      </span>
    </Link>
  );
}

function ExternalCard({
  href,
  title,
  description,
  icon: Icon,
}: {
  href: string;
  title: string;
  description: string;
  icon: LucideIcon;
}) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="flex items-start gap-3 rounded-xl border p-4 transition-colors hover:bg-muted/60"
    >
      <Icon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-1 font-medium text-sm">
          {title}
          <ExternalLink className="size-3.5 opacity-60" aria-hidden="true" />
          <span className="sr-only"> (opens in a new tab)</span>
        </span>
        <span className="mt-0.5 block text-muted-foreground text-sm">{description}</span>
      </span>
    </a>
  );
}

/**
 * HelpCenter is the help home page: a search that filters the articles as you type, three
 * featured articles, the five categories, and links to the project board and the forum.
 */
export function HelpCenter() {
  const usersForumUrl = useHelpLinks().data?.usersForumUrl;
  const [query, setQuery] = useState('');
  const searching = query.trim().length > 0;
  const results = searchHelpArticles(query);
  const featured = HELP_ARTICLES.filter((a) => a.featured);

  return (
    <div className="space-y-8">
      <div className="relative max-w-xl">
        <Label htmlFor="help-search" className="sr-only">
          Search help articles
        </Label>
        <Search
          className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          id="help-search"
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Search help articles"
          className="h-11 pl-9"
          aria-describedby="help-search-status"
        />
      </div>
      <p id="help-search-status" className="sr-only" aria-live="polite">
        {searching
          ? `${results.length} ${results.length === 1 ? 'article' : 'articles'} found`
          : ''}
      </p>

      {searching ? (
        <section aria-labelledby="search-results">
          <h2 id="search-results" className="mb-3 font-semibold text-lg">
            {results.length === 0
              ? 'No articles found'
              : `${results.length} ${results.length === 1 ? 'article' : 'articles'} found`}
          </h2>
          {results.length === 0 ? (
            <p className="text-muted-foreground text-sm">
              Nothing matches “{query.trim()}”. Try another word, or{' '}
              <Link to="/support" className="text-primary underline underline-offset-4">
                contact support
              </Link>
              .
            </p>
          ) : (
            <ul className="grid gap-3 sm:grid-cols-2">
              {results.map((article) => (
                <li key={article.slug}>
                  <Link
                    to={helpArticlePath(article)}
                    className="block h-full rounded-xl border p-4 transition-colors hover:bg-muted/60"
                  >
                    <span className="font-medium">{article.title}</span>
                    <span className="mt-1 block text-muted-foreground text-sm">
                      {article.summary}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : (
        <>
          <section aria-labelledby="featured-articles">
            <h2 id="featured-articles" className="mb-3 font-semibold text-lg">
              Featured articles
            </h2>
            <ul className="grid gap-3 md:grid-cols-3">
              {featured.map((article) => (
                <li key={article.slug}>
                  <Link
                    to={helpArticlePath(article)}
                    className="flex h-full flex-col gap-2 rounded-xl border bg-card p-4 shadow-sm transition-colors hover:bg-muted/60"
                  >
                    <BookOpen className="size-5 text-primary" aria-hidden="true" />
                    <span className="font-medium">{article.title}</span>
                    <span className="text-muted-foreground text-sm">{article.summary}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="help-categories">
            <h2 id="help-categories" className="mb-3 font-semibold text-lg">
              Browse by category
            </h2>
            <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
              {HELP_CATEGORIES.map((category) => {
                const Icon = CATEGORY_ICONS[category.id];
                const articles = HELP_ARTICLES.filter((a) => a.category === category.id);
                return (
                  <Card key={category.id} className="gap-3">
                    <CardHeader>
                      <div className="flex items-center gap-2">
                        <Icon className="size-5 text-muted-foreground" aria-hidden="true" />
                        <CardTitle asChild>
                          <h3>{category.title}</h3>
                        </CardTitle>
                      </div>
                      <CardDescription>{category.description}</CardDescription>
                    </CardHeader>
                    <CardContent className="px-4">
                      <ul>
                        {articles.map((article) => (
                          <li key={article.slug}>
                            <ArticleLink article={article} />
                          </li>
                        ))}
                      </ul>
                    </CardContent>
                  </Card>
                );
              })}
            </div>
          </section>
        </>
      )}

      <section aria-labelledby="more-help" className="space-y-3">
        <h2 id="more-help" className="font-semibold text-lg">
          More help
        </h2>
        <div className="grid gap-3 md:grid-cols-2">
          <ExternalCard
            href={PROJECT_BOARD_URL}
            title="Project board"
            description="What is planned and in progress for Baton."
            icon={SquareKanban}
          />
          {usersForumUrl ? (
            <ExternalCard
              href={usersForumUrl}
              title="Users forum"
              description="Ask questions and share how your team runs on-call."
              icon={MessagesSquare}
            />
          ) : null}
        </div>
      </section>
    </div>
  );
}
