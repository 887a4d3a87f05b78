// Opens a run's REPORT.html in headless Chromium and checks it as a reader
// would meet it: the console stays clean (no error, no failed request),
// every image loads (all sweeps opened) and every link resolves (a file
// that exists, or an anchor on the page); saves a screenshot of the first
// screen beside the report (report-first-screen.png). Then at 1366 and
// 390 px (a laptop, a phone) as a student opens it: see `layout`.
// Run by scripts/test-report-html.sh, which installs Chromium (Debian) and
// playwright-core (npm), as the play-page test does.
//
// usage: node scripts/report-html-test.cjs OUT_DIR
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const dir = path.resolve(process.argv[2] || 'output');
const page_file = path.join(dir, 'REPORT.html');
let passed = 0;
let failed = 0;
function check(cond, what) {
  if (cond) {
    passed += 1;
    console.log('ok   ' + what);
  } else {
    failed += 1;
    console.log('FAIL ' + what);
  }
}

// The page at one screen size: no horizontal overflow of the page (sweeps
// folded and all opened), a text column wide enough to read, the five
// reports' titles on the first screen, verdicts in colour (failures red,
// holds green) and failures first within each report, the filter hiding a
// verdict, the table of contents folded on a phone; a screenshot of the
// first screen (report-WIDTH.png).
async function layout(browser, width, height) {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto('file://' + page_file, { waitUntil: 'load' });
  await page.evaluate(() => document.fonts.ready);
  const at = `at ${width} px:`;
  const shot = path.join(dir, `report-${width}.png`);
  await page.screenshot({ path: shot });
  check(fs.existsSync(shot), `${at} screenshot of the first screen: ${shot}`);
  const overflow = () =>
    page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
  let o = await overflow();
  check(o.page <= o.view, `${at} no horizontal overflow, sweeps folded (page ${o.page} px, screen ${o.view} px)`);
  const titles = await page.evaluate(() =>
    Array.from(document.querySelectorAll('main a[href^="#exp-report-"]')).map((a) => {
      const r = a.getBoundingClientRect();
      return { text: a.innerText, top: r.top, bottom: r.bottom };
    }),
  );
  const seen = titles.filter((t) => t.top >= 0 && t.bottom <= height);
  check(
    titles.length === 5 && seen.length === 5,
    `${at} the five reports' titles on the first screen (${seen.map((t) => t.text).join(' · ') || 'none'})`,
  );
  const column = await page.evaluate(() =>
    Math.min(...Array.from(document.querySelectorAll('main p')).slice(0, 5).map((p) => p.getBoundingClientRect().width)),
  );
  check(column >= 300, `${at} text column ${column.toFixed(0)} px wide (at least 300 px)`);
  if (width < 800) {
    const tocHeight = await page.evaluate(() => document.getElementById('toc').getBoundingClientRect().height);
    check(tocHeight < 80, `${at} the table of contents is folded (${tocHeight.toFixed(0)} px tall)`);
  }
  const colours = await page.evaluate(() => {
    const colour = (sel) => {
      const e = document.querySelector(sel);
      return e ? getComputedStyle(e).borderLeftColor : null;
    };
    return { fails: colour('.claim.v-fails'), holds: colour('.claim.v-holds'), partly: colour('.claim.v-partly') };
  });
  const rgb = (c) => (c || '').match(/\d+/g)?.map(Number) || [0, 0, 0];
  const [fr, fg] = rgb(colours.fails);
  const [hr, hg] = rgb(colours.holds);
  check(fr > 150 && fg < 80 && hg > 100 && hr < 60, `${at} verdicts in colour (fails ${colours.fails}, holds ${colours.holds}, partly ${colours.partly})`);
  // Within each report, no claim that fails comes after one that holds.
  const order = await page.evaluate(() =>
    Array.from(document.querySelectorAll('h3[id^="conj-"]')).map((h) => {
      const v = [];
      for (let e = h.nextElementSibling; e && e.tagName !== 'H2' && e.tagName !== 'H3'; e = e.nextElementSibling)
        if (e.classList.contains('claim')) v.push(e.dataset.verdict);
      const firstHolds = v.indexOf('holds');
      return { id: h.id, late: firstHolds >= 0 && v.slice(firstHolds).includes('fails') };
    }),
  );
  const late = order.filter((x) => x.late).map((x) => x.id);
  check(order.length > 0 && late.length === 0, `${at} failures first in every report` + (late.length ? '; not in ' + late.join(', ') : ''));
  if (width >= 800) {
    await page.click('#filter input[value="holds"]');
    const hidden = await page.evaluate(() => {
      const h = Array.from(document.querySelectorAll('.claim.v-holds'));
      const f = Array.from(document.querySelectorAll('.claim.v-fails'));
      return { holds: h.filter((e) => e.getClientRects().length === 0).length, all: h.length, failsShown: f.filter((e) => e.getClientRects().length > 0).length };
    });
    check(hidden.all > 0 && hidden.holds === hidden.all && hidden.failsShown > 0, `${at} the filter hides the ${hidden.all} claims that hold and keeps the failures`);
    await page.click('#filter input[value="holds"]');
  }
  const glossary = await page.evaluate(() => {
    const g = document.getElementById('glossary');
    return g ? g.nextElementSibling.innerText : '';
  });
  check(['Grundy value', 'mex', 'partly', 'true by construction', 'P-position'].every((w) => glossary.includes(w)), `${at} the glossary explains P/N, Grundy value, mex and the verdicts`);
  const summaries = await page.evaluate(() =>
    Array.from(document.querySelectorAll('h2[id^="exp-report-"]')).map((h) => {
      const next = h.parentElement.querySelector('#summary-' + h.id.slice(4));
      return next !== null;
    }),
  );
  check(summaries.length === 5 && summaries.every((x) => x), `${at} each report's section has its summary`);
  await page.evaluate(() => document.querySelectorAll('main details').forEach((d) => (d.open = true)));
  o = await overflow();
  check(o.page <= o.view, `${at} no horizontal overflow with every sweep open (page ${o.page} px, screen ${o.view} px)`);
  await page.close();
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--allow-file-access-from-files'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.type() + ': ' + m.text());
  });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('requestfailed', (r) => problems.push('request failed: ' + r.url()));
  await page.goto('file://' + page_file, { waitUntil: 'load' });
  const shot = path.join(dir, 'report-first-screen.png');
  await page.screenshot({ path: shot });
  check(fs.existsSync(shot), 'screenshot of the first screen: ' + shot);
  const title = await page.title();
  check(title === 'nimlab report', 'title: ' + title);
  check(await page.isVisible('#toc'), 'the table of contents is shown');
  // The table of contents stays in view when the page scrolls.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
  const tocTop = await page.evaluate(() => document.getElementById('toc').getBoundingClientRect().top);
  check(Math.abs(tocTop) < 2, 'the table of contents is sticky (top ' + tocTop + ')');
  // A link from the table of contents opens its collapsed sweep.
  const sweepLink = await page.$('#toc a[href^="#sweep-"]');
  if (sweepLink) {
    const id = (await sweepLink.getAttribute('href')).slice(1);
    await sweepLink.click();
    // The page opens the sweep on the hash change, after the click returns.
    await page
      .waitForFunction((id) => document.getElementById(id).open, id, { timeout: 5000 })
      .catch(() => {});
    const open = await page.evaluate((id) => document.getElementById(id).open, id);
    check(open === true, 'a table-of-contents link opens sweep ' + id);
  }
  // Read as a reader meets it, every collapsed block closed: the statements
  // and verdicts, not the encoded expressions (at most 15 % of the visible
  // text inside code elements), and no statement cut short.
  const share = await page.evaluate(() => {
    document.querySelectorAll('details').forEach((d) => (d.open = false));
    const visible = document.body.innerText.replace(/\s+/g, '').length;
    let code = 0;
    document.querySelectorAll('code').forEach((c) => {
      if (c.getClientRects().length > 0) code += c.innerText.replace(/\s+/g, '').length;
    });
    return { visible, code };
  });
  const pct = (100 * share.code) / Math.max(1, share.visible);
  check(pct <= 15, `code is ${pct.toFixed(1)} % of the visible text (${share.code} of ${share.visible} characters; at most 15 %)`);
  const cut = await page.evaluate(() =>
    Array.from(document.querySelectorAll('li'))
      .map((li) => li.innerText)
      .filter((t) => /…\s+—\s/.test(t)),
  );
  check(cut.length === 0, 'no claim statement is cut short' + (cut.length ? ': ' + cut.slice(0, 3).join(' | ') : ''));
  // Every sweep open: every image must load.
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
  await page.waitForFunction(() => Array.from(document.images).every((i) => i.complete), null, {
    timeout: 60000,
  });
  const images = await page.evaluate(() =>
    Array.from(document.images).map((i) => ({ src: i.getAttribute('src'), w: i.naturalWidth })),
  );
  const broken = images.filter((i) => i.w === 0).map((i) => i.src);
  check(images.length > 0 && broken.length === 0, images.length + ' images load' + (broken.length ? '; broken: ' + broken.slice(0, 5).join(', ') : ''));
  // Chinese text is drawn in the CJK font shipped beside the page (fonts/),
  // so the reports' own words show on a machine with no CJK font.
  const cjk = await page.evaluate(async () => {
    await document.fonts.ready;
    const text = document.body.innerText;
    const hasCjk = /[\u4e00-\u9fff]/.test(text);
    const face = Array.from(document.fonts).find((f) => f.family.replace(/['"]/g, '') === 'nimlab CJK');
    return { hasCjk, status: face ? face.status : 'not declared' };
  });
  check(cjk.hasCjk && cjk.status === 'loaded', 'the shipped CJK font draws the page\'s Chinese text (font ' + cjk.status + ')');
  // Every figure says what it shows: its alt text is words, not its file.
  const alts = await page.evaluate(() =>
    Array.from(document.images).map((i) => ({ src: i.getAttribute('src'), alt: i.getAttribute('alt') || '' })),
  );
  const pathAlts = alts.filter((a) => a.alt.trim() === '' || a.alt === a.src || /\.(png|svg)$/i.test(a.alt) || a.alt.includes('/'));
  check(pathAlts.length === 0, 'every image has an alt text describing it' + (pathAlts.length ? '; not: ' + pathAlts.slice(0, 3).map((a) => a.src + ' alt=' + JSON.stringify(a.alt)).join(', ') : ''));
  // Every figure's labels are drawn at LABEL_PX (src/render/draw.rs) of
  // the figure's own pixels: shown at its displayed width, at least 11 px.
  const LABEL_PX = 18;
  const sizes = await page.evaluate(() =>
    Array.from(document.images)
      .filter((i) => /(^|\/)figures\//.test(i.getAttribute('src')))
      .map((i) => ({ src: i.getAttribute('src'), shown: i.getBoundingClientRect().width, natural: i.naturalWidth })),
  );
  const small = sizes.filter((f) => f.natural > 0 && (LABEL_PX * f.shown) / f.natural < 11);
  check(
    sizes.length > 0 && small.length === 0,
    `labels of ${sizes.length} figures at least 11 px as shown` +
      (small.length ? '; smaller: ' + small.slice(0, 3).map((f) => `${f.src} (${((LABEL_PX * f.shown) / f.natural).toFixed(1)} px)`).join(', ') : ''),
  );
  // The page's own text: every visible paragraph, item, cell, summary and
  // picture of a position at a computed font size of at least 11 px.
  const tiny = await page.evaluate(() =>
    Array.from(document.querySelectorAll('p, li, td, th, summary, pre, code'))
      .filter((e) => e.getClientRects().length > 0 && e.innerText.trim() !== '')
      .map((e) => ({ tag: e.tagName, px: parseFloat(getComputedStyle(e).fontSize) }))
      .filter((e) => e.px < 11),
  );
  check(tiny.length === 0, 'visible text at least 11 px' + (tiny.length ? '; smaller: ' + tiny.slice(0, 3).map((t) => t.tag + ' ' + t.px + ' px').join(', ') : ''));
  // Every link: an anchor on the page or a file (or folder) under OUT.
  const links = await page.evaluate(() =>
    Array.from(document.querySelectorAll('a[href]')).map((a) => a.getAttribute('href')),
  );
  const bad = [];
  for (const href of links) {
    if (/^[a-z]+:/i.test(href)) {
      bad.push(href + ' (leaves the output directory)');
    } else if (href.startsWith('#')) {
      const id = decodeURIComponent(href.slice(1));
      const found = await page.evaluate((id) => document.getElementById(id) !== null, id);
      if (!found) bad.push(href);
    } else {
      const [file, frag] = decodeURIComponent(href).split('#');
      if (!fs.existsSync(path.join(dir, file))) bad.push(href);
      else if (frag && file.endsWith('.md') && !fs.readFileSync(path.join(dir, file), 'utf8').includes('id="' + frag + '"'))
        bad.push(href + ' (no such anchor)');
    }
  }
  const csvs = links.filter((h) => /\.csv$/.test(h)).length;
  check(csvs > 0, csvs + ' CSV files linked beside the tables');
  check(links.length > 0 && bad.length === 0, links.length + ' links resolve' + (bad.length ? '; not: ' + bad.slice(0, 5).join(', ') : ''));
  check(problems.length === 0, 'console clean' + (problems.length ? ': ' + problems.slice(0, 5).join(' | ') : ''));
  // A laptop and a phone: the page as a student opens it.
  for (const [width, height] of [[1366, 768], [390, 844]]) await layout(browser, width, height);
  await browser.close();
  console.log(`report page: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log('FAIL ' + e.stack);
  process.exit(1);
});
