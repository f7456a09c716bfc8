import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Every axe check of the browser suite starts here.
 *
 * Legacy mode: AxeBuilder's default runs axe.runPartial() in each frame and then axe.finishRun()
 * in a new blank page, to reach cross-origin frames. Opening that page cost about a second a
 * check on the 2-core machine (a check took 1.2–2.4 s against 0.4–0.6 s in legacy mode), most of
 * the accessibility sweeps' time. Legacy mode runs axe.run() in the page; what it gives up,
 * cross-origin frames, Baton has none of (its one frame, the demo inbox's email, is sandboxed and
 * excluded where it shows).
 *
 * Violations only: the checks read the violations, each with every node it found; axe's other
 * result types (passes, incomplete, inapplicable) keep one node a rule instead of every node.
 * Gathering and sending back every passing node was a third of axe's time: eight screens took
 * 56 s of checks with them and 36 s without, on the loaded 2-core machine.
 */
export function axeBuilder(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true).options(ONLY_VIOLATIONS);
}

const ONLY_VIOLATIONS = { resultTypes: ['violations' as const] };

/** axeEveryRule: every rule axe enables by default, and label-content-name-mismatch (WCAG 2.5.3). */
export function axeEveryRule(page: Page): AxeBuilder {
  return axeBuilder(page).options({
    ...ONLY_VIOLATIONS,
    rules: { 'label-content-name-mismatch': { enabled: true } },
  });
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
