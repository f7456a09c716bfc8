import { createRequire } from 'node:module';
import type { Frame, Page } from '@playwright/test';
import type { default as Axe, AxeResults, RunOptions } from 'axe-core';

/**
 * The axe-core that @axe-core/playwright depends on (~4.13), which the suite's checks have always
 * run; the project's own axe-core devDependency is 4.14, whose color-contrast finds the
 * invitation screen's destructive alert text at 4.49:1, under 4.5:1 (a change of rules, not of
 * this suite: a move to 4.14 is its own change, with that colour fixed).
 */
const axe = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'))(
  'axe-core',
) as typeof Axe;

/**
 * Every axe check of the browser suite starts here.
 *
 * axe-core's own `axe.run()` in the page, as @axe-core/playwright's legacy mode runs it (the
 * same context, options and frames), with axe put into each document once. AxeBuilder's
 * `analyze()` evaluates axe's 550 kB source twice in every frame and configures it again for
 * each check, whether the page has it or not: that cost 0.3–1.3 s a check on the loaded 2-core
 * machine, against 0.02–0.3 s for the same one-rule check run on axe already there; a sweep
 * route is checked four times on one document (decision 240).
 *
 * Legacy mode, not runPartial() and finishRun() in a new blank page to reach cross-origin frames:
 * opening that page cost about a second a check (1.2–2.4 s against 0.4–0.6 s in legacy mode).
 * What it gives up, cross-origin frames, Baton has none of (its one frame, the demo inbox's email,
 * is sandboxed and excluded where it shows).
 *
 * Violations only: the checks read the violations, each with every node it found; axe's other
 * result types (passes, incomplete, inapplicable) keep one node a rule instead of every node.
 * Gathering and sending back every passing node was a third of axe's time: eight screens took
 * 56 s of checks with them and 36 s without, on the loaded 2-core machine.
 */
export class AxeCheck {
  private readonly includes: string[] = [];
  private readonly excludes: string[] = [];

  constructor(
    private readonly page: Page,
    private options: RunOptions,
  ) {}

  /** include limits the check to what `selector` matches (any number of times). */
  include(selector: string): this {
    this.includes.push(selector);
    return this;
  }

  /** exclude leaves out what `selector` matches (any number of times). */
  exclude(selector: string): this {
    this.excludes.push(selector);
    return this;
  }

  /** withTags runs only the rules with one of these tags. */
  withTags(tags: string[]): this {
    this.options = { ...this.options, runOnly: { type: 'tag', values: tags } };
    return this;
  }

  /** withRules runs only these rules. */
  withRules(rules: string[]): this {
    this.options = { ...this.options, runOnly: { type: 'rule', values: rules } };
    return this;
  }

  /**
   * analyze checks the page once no finite animation runs (animationsDone) and returns axe's
   * results. AxeBuilder's second of injecting gave a fading-in message time to settle, and some
   * checks relied on it without knowing (the invitation screen's error, measured mid-fade).
   */
  async analyze(): Promise<AxeResults> {
    await animationsDone(this.page);
    for (const frame of this.page.frames()) await putAxeInto(frame);
    // As AxeBuilder passes it: an empty `include` is the whole document.
    const context = { include: this.includes, exclude: this.excludes };
    const answer = await this.page.evaluate(
      ({ context, options }) =>
        (window as unknown as { axe: typeof axe }).axe
          .run(context, options)
          .then((results) => ({ error: null, results }))
          .catch((err: Error) => ({ error: err.message, results: null })),
      { context, options: this.options },
    );
    if (answer.error !== null || answer.results === null) throw new Error(answer.error ?? 'axe');
    return answer.results;
  }
}

/**
 * putAxeInto gives a frame's document axe once: a document that has it keeps it (a navigation
 * makes a new document, which gets it again). A frame that runs no script (the sandboxed email)
 * never answers; as in AxeBuilder, it is given a second and left out.
 */
async function putAxeInto(frame: Frame) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Script Timeout')), 1_000);
  });
  try {
    await Promise.race([
      (async () => {
        if (await frame.evaluate('typeof window.axe?.run === "function"')) return;
        await frame.evaluate(`${axe.source}
;axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } })`);
      })(),
      timeout,
    ]);
  } catch {
    // Left out, as AxeBuilder leaves out a frame it cannot inject into.
  } finally {
    clearTimeout(timer);
  }
}

const ONLY_VIOLATIONS = { resultTypes: ['violations' as const] };

/** axeBuilder: a check of every rule axe enables by default. */
export function axeBuilder(page: Page): AxeCheck {
  return new AxeCheck(page, ONLY_VIOLATIONS);
}

/** axeEveryRule: every rule axe enables by default, and label-content-name-mismatch (WCAG 2.5.3). */
export function axeEveryRule(page: Page): AxeCheck {
  return new AxeCheck(page, {
    ...ONLY_VIOLATIONS,
    rules: { 'label-content-name-mismatch': { enabled: true } },
  });
}

/**
 * COLOUR_RULES: the rules of axeEveryRule whose result reads the page's colours, so the only ones
 * whose result can differ between light and dark mode on the same document. Dark mode changes
 * nothing but colours (the `dark` class on the root sets colour variables and `color-scheme`;
 * every `dark:` class in src/client is a colour) and the mode toggle's `aria-pressed` and its
 * hidden icon, which no rule can read differently. In axe-core 4.14 these read computed colours:
 * color-contrast and link-in-text-block (their checks), and th-has-data-cells, whose data-table
 * test compares the rows' background colours for a table it cannot tell otherwise.
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block', 'th-has-data-cells'];

/** axeColourRules: axeEveryRule's rules that read colours (COLOUR_RULES), for a mode's second look. */
export function axeColourRules(page: Page): AxeCheck {
  return axeEveryRule(page).withRules(COLOUR_RULES);
}

/**
 * animationsDone waits until no finite animation or transition runs: axe measures colour contrast
 * as painted, and a dialog still fading in, or a colour still changing, reads as low contrast.
 */
export async function animationsDone(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}
