// Headless Chromium (Debian's, driven by playwright-core) against the built
// site served from 127.0.0.1.  See HACKING.md T3.
//
//   const b = await openBrowser(siteDir, npmDir);
//   const page = await b.page();      // records every request it makes
//   await page.goto(b.base + '#...'); await ready(page);
//   ...; await b.close();
//
// A page test file's set-up, from its environment (TP_WEB_BUILD,
// TP_SAMPLES, TP_WEB_ARTIFACTS, TP_CHROMIUM):
//
//   const s = pageSuite();            // opens the browser before, closes it after
//   test('...', { skip: s.skip }, async () => { const page = await s.b.page(); ... });
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before } from 'node:test';

import { unmet } from './prereq.mjs';

import { serve } from '../../web/tools/serve.mjs';

export const CHROMIUM = process.env.TP_CHROMIUM || '/usr/lib/chromium/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-default-apps', '--disable-extensions', '--disable-features=Translate,OptimizationHints,MediaRouter'];

export async function openBrowser(siteDir, npmDir) {
  const require = createRequire(join(npmDir, 'node_modules', 'noop.js'));
  const { chromium } = require('playwright-core');
  const server = await serve(siteDir, 0);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  const contexts = [];
  return {
    base,
    browser,
    // A fresh context (own localStorage, no service worker yet) with a
    // page that records its requests in page.requests and its errors in
    // page.errors.  serviceWorkers: 'block' keeps the page's out (so that
    // page.route sees every request).
    async page({ viewport = { width: 1440, height: 900 }, acceptDownloads = true, colorScheme = 'light', serviceWorkers = 'allow' } = {}) {
      const context = await browser.newContext({ viewport, acceptDownloads, colorScheme, serviceWorkers });
      contexts.push(context);
      const page = await context.newPage();
      page.requests = [];
      page.errors = [];
      page.on('request', (r) => page.requests.push(r.url()));
      page.on('requestfailed', (r) => page.errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
      page.on('response', (r) => { if (r.status() >= 400) page.errors.push(`HTTP ${r.status()}: ${r.url()}`); });
      page.on('pageerror', (e) => page.errors.push(`page error: ${e.message}`));
      page.on('console', (m) => { if (m.type() === 'error') page.errors.push(`console: ${m.text()}`); });
      // Workers' requests are the page's requests too.
      context.on('request', (r) => { if (!page.requests.includes(r.url())) page.requests.push(r.url()); });
      return page;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close();
      server.close();
    },
  };
}

// Waits until the page says every reading is current.  A short pause first
// lets an edit that was just made flip the state to busy.
export async function ready(page, timeout = 20000) {
  await page.waitForTimeout(30);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout, polling: 20 });
}

export const READINGS = ['spec', 'derivative', 'plan', 'stablehlo', 'values', 'picture'];

// The text of every reading, the summary and the diagnostics.
export function readings(page) {
  return page.evaluate((names) => {
    const out = {};
    for (const n of [...names, 'summary', 'diagnostics'])
      out[n] = document.querySelector(`[data-reading="${n}"]`)?.textContent ?? null;
    out.pictureNodes = document.querySelectorAll('[data-reading="picture"] svg g.node[data-node]').length;
    return out;
  }, READINGS);
}

// The editor's text (CodeMirror keeps it in its view; read it through the DOM
// lines so the test sees what a reader sees).
export function editorText(page) {
  return page.evaluate(() => [...document.querySelectorAll('#editor .cm-line')].map((l) => l.textContent).join('\n'));
}

// The shared set-up of a page test file: where the build, the site, the
// samples and the screenshots are, why the file cannot run (skip: false
// when it can; under CI a missing prerequisite fails), and the browser,
// opened before the file's tests (s.b; await s.open() in a before hook of
// the file's own) and closed after them.
export function pageSuite() {
  const build = process.env.TP_WEB_BUILD || '.';
  const s = {
    build,
    site: join(build, 'site'),
    shots: process.env.TP_WEB_ARTIFACTS || join(build, 'screenshots'),
    samplesDir: process.env.TP_SAMPLES,
    b: null,
    sample: (id) => readFileSync(join(s.samplesDir, `${id}.tape`), 'utf8'),
  };
  s.skip = unmet(!existsSync(CHROMIUM) ? `no Chromium at ${CHROMIUM}`
    : !existsSync(join(s.site, 'index.html')) ? `no site at ${s.site}` : false);
  // The browser, opened once (a file's own before hook may ask first).
  let opening = null;
  s.open = () => {
    opening ??= (async () => {
      mkdirSync(s.shots, { recursive: true });
      s.b = await openBrowser(s.site, join(build, 'npm'));
      return s.b;
    })();
    return opening;
  };
  before(async () => { if (!s.skip) await s.open(); });
  after(async () => { if (s.b) await s.b.close(); });
  return s;
}
