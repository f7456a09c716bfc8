// The benchmark's front-end figures (the initial JavaScript's size is ../client-size.ts): the
// dashboard's largest contentful paint and long tasks in headless Chromium.
import { chromium } from '@playwright/test';

export interface PaintResult {
  /** largest contentful paint of each load, ms from navigation start */
  lcpMs: number[];
  /** the longest long task seen in any load, ms (0 when none) */
  longestTaskMs: number;
  rotationsShown: number;
}

/**
 * dashboardPaint opens the dashboard `runs` times, each in a fresh browser context (cold cache)
 * signed in with `cookie`, waits until the rotations have rendered and the page is idle, and
 * reads the largest-contentful-paint and longtask entries a PerformanceObserver buffered.
 */
export async function dashboardPaint(
  baseUrl: string,
  cookie: { name: string; value: string },
  expectText: string,
  runs: number,
): Promise<PaintResult> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const lcpMs: number[] = [];
  let longestTaskMs = 0;
  let rotationsShown = 0;
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addCookies([{ ...cookie, url: baseUrl }]);
      await context.addInitScript(() => {
        const w = window as unknown as { __lcp: number; __longest: number };
        w.__lcp = 0;
        w.__longest = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__lcp = Math.max(w.__lcp, e.startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
        }).observe({ type: 'longtask', buffered: true });
      });
      const page = await context.newPage();
      await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
      await page.getByText(expectText, { exact: false }).first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      const read = await page.evaluate(() => {
        const w = window as unknown as { __lcp: number; __longest: number };
        return {
          lcp: w.__lcp,
          longest: w.__longest,
          rows: document.querySelectorAll('a[href^="/rotations/"]').length,
        };
      });
      lcpMs.push(read.lcp);
      longestTaskMs = Math.max(longestTaskMs, read.longest);
      rotationsShown = Math.max(rotationsShown, read.rows);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { lcpMs, longestTaskMs, rotationsShown };
}
