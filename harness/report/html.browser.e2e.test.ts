import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { packageRoot, sourceAsset } from '../../runtimes/seam/package-root.js';
import { CHROMIUM, Host } from '../../test/host-requirements.js';
import { runGate } from '../gate/gate.js';
import { projectAt } from '../project/root.js';
import { keepCache, warmCacheRoot } from '../test/warm-cache.js';
import { htmlReportPath } from './write.js';

const scratch: string[] = [];
let browser: Browser | undefined;
let cacheRoot = '';
afterAll(async () => {
  await browser?.close();
  if (cacheRoot) await keepCache(cacheRoot);
  await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
});

(await Host.with('chromium')).describe('the HTML report in a real browser', () => {
  it('opens from disk with no console error and no network request; a failing pair shows its diff', {
    timeout: 300_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-html-'));
    scratch.push(dir);
    const snapshotsDir = join(dir, 'snapshots');
    await cp(sourceAsset('snapshots'), snapshotsDir, { recursive: true });
    const tampered = join(snapshotsDir, 'tool-error-caught/typescript/run_code.json');
    await writeFile(tampered, (await readFile(tampered, 'utf8')).replace('program', 'programme'));
    // A second failing pair whose diff holds a line of 600 characters with no break: the page must still fit its window.
    const long = join(snapshotsDir, 'parallel-calls/python/run_code.json');
    await writeFile(long, `${await readFile(long, 'utf8')}${'x'.repeat(600)}\n`);
    // The page is the point here, not a cold start or every pair: the gate starts from the run's verdict cache and
    // runs two scenarios on both languages, which gives the page a failing pair, passing ones and a stub matrix.
    cacheRoot = await warmCacheRoot();
    scratch.push(cacheRoot);
    const result = await runGate({
      project: projectAt(packageRoot()),
      snapshotsDir,
      cache: true,
      cacheRoot,
      pendingRoot: join(dir, 'pending'),
      reportRoot: dir,
      selection: { scenarios: ['tool-error-caught', 'parallel-calls'], runtimes: ['typescript', 'python'] },
      update: 'none',
      ci: true,
      jobs: 2,
      color: false,
      out: () => undefined,
    });
    expect(result.ok).toBe(false);

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    });
    const page = await browser.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));
    page.on('pageerror', (error) => void problems.push(error.message));
    page.on('request', (request) => void requests.push(request.url()));
    const url = pathToFileURL(htmlReportPath(dir)).href;
    await page.goto(url);

    const scenarios = [...new Set(result.pairs.map((r) => r.scenario))];
    for (const scenario of scenarios)
      await expect(page.locator('table.matrix th[scope=row]', { hasText: scenario }).first().isVisible()).resolves.toBe(
        true,
      );
    // The pair opens from the matrix and links to its change, shown once in the changes section.
    const pair = page.locator('#pair-tool-error-caught-typescript');
    const link = pair.locator('a[href^="#change-"]').first();
    expect(await link.isVisible()).toBe(false);
    await page.locator('a[data-open="pair-tool-error-caught-typescript"]').click();
    expect(await link.isVisible()).toBe(true);
    await link.click();
    const diff = page.locator(`${await link.getAttribute('href')} pre.diff`);
    expect(await diff.isVisible()).toBe(true);
    expect(await diff.locator('del').first().textContent()).toBe('programme');
    expect(await diff.locator('ins').first().textContent()).toBe('program');

    // The filter hides passing pairs, and the keyboard reaches it.
    await page.locator('button[data-filter="failures"]').focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('details.pair:not(.hidden)').count()).toBe(
      result.pairs.filter((r) => r.status === 'mismatch' || r.status === 'failed').length,
    );

    // At 1280 px, with every pair and change open, nothing makes the page scroll sideways (a wide table scrolls in itself).
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate("for (const details of document.querySelectorAll('details')) details.open = true");
    const widths = await page.evaluate<{ page: number; window: number }>(
      '({ page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth })',
    );
    expect(widths.page).toBeLessThanOrEqual(widths.window);

    const artifacts = join(packageRoot(), '.concord', 'test-artifacts');
    await mkdir(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'report-html.png'), fullPage: true });
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
  });
});
