// Draws the installable app's icons (decision 253) from the favicon in index.html, with the
// Chromium the browser tests use: 192 and 512 px with the favicon's rounded square (purpose
// "any"), 512 px maskable (the baton inside the safe zone, the square full-bleed) and the 180 px
// Apple touch icon. Run it again after changing the favicon: `npx tsx scripts/make-app-icons.ts`.
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import chromiumPaths from './chromium-paths.json' with { type: 'json' };

const BATON = `<g transform='rotate(45 16 16)'><rect x='12.5' y='5' width='7' height='22' rx='3.5' fill='#fafafa'/><path d='M12.5 13h7M12.5 19h7' stroke='#171717' stroke-width='1.5'/></g>`;

/** the favicon of index.html, as it is there */
const favicon = decodeURIComponent(
  /href="data:image\/svg\+xml,([^"]+)"/.exec(readFileSync('index.html', 'utf8'))?.[1] ?? '',
);
if (!favicon.includes('<svg')) throw new Error('index.html has no SVG favicon');

/** maskable: a full-bleed square, the baton at 62% so it stays inside the 80% safe circle */
const maskable = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' fill='#171717'/><g transform='translate(16 16) scale(0.62) translate(-16 -16)'>${BATON}</g></svg>`;

const icons = [
  { file: 'public/icons/icon-192.png', size: 192, svg: favicon },
  { file: 'public/icons/icon-512.png', size: 512, svg: favicon },
  { file: 'public/icons/icon-maskable-512.png', size: 512, svg: maskable },
  { file: 'public/icons/apple-touch-icon.png', size: 180, svg: maskable },
];

const browser = await chromium.launch({ executablePath: chromiumPaths[0] });
try {
  for (const icon of icons) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const svg = icon.svg.replace('<svg ', `<svg width='${icon.size}' height='${icon.size}' `);
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg}</body></html>`,
    );
    await page.screenshot({ path: icon.file, omitBackground: true });
    await page.close();
    process.stdout.write(`${icon.file}\n`);
  }
} finally {
  await browser.close();
}
