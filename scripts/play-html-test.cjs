// Plays nimlab's classroom pages (nimlab play … --html) in headless Chromium,
// by clicks, and checks the results and that the console stays clean.
// Run by scripts/test-play-html.sh, which writes the pages and installs
// Chromium (Debian) and playwright-core (npm).
//
// usage: node scripts/play-html-test.cjs DIR   (DIR holds the pages; screenshots go there too)
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const dir = path.resolve(process.argv[2] || 'target/play-html');
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

// A small seeded generator, so a failing run can be repeated.
let seed = 12345;
function rnd(n) {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) % n;
}

async function waitTurn(page) {
  await page.waitForFunction(() => ['person', 'over'].includes(document.body.dataset.status), null, {
    timeout: 10000,
  });
  return page.evaluate(() => document.body.dataset.status);
}

async function newGame(page, first) {
  await page.selectOption('#first', first); // a change starts a new game
  return waitTurn(page);
}

// One move of the person, by clicks. `useHint`: play a winning move when the
// page's hint offers one.
const movers = {
  async heaps(page, useHint) {
    if (useHint) {
      await page.click('#hint');
      const hinted = await page.$$('circle.stone.hint');
      if (hinted.length > 0) return hinted[0].click();
    }
    const stones = await page.$$('circle.stone.pickable');
    // Stones whose take the rule allows: try until the page accepts one.
    for (let tries = 0; tries < 50; tries++) {
      const before = await page.evaluate(() => document.getElementById('log').children.length);
      await stones[rnd(stones.length)].click();
      const after = await page.evaluate(() => document.getElementById('log').children.length);
      if (after > before) return;
    }
    throw new Error('no stone click was accepted');
  },
  async parity(page, useHint) {
    if (useHint) {
      await page.click('#hint');
      const text = await page.textContent('#message');
      const m = /^Winning moves?: (\d+)/.exec(text);
      if (m) return page.click('button[data-take="' + m[1] + '"]');
    }
    const buttons = await page.$$('button[data-take]:not([disabled])');
    return buttons[rnd(buttons.length)].click();
  },
  async board(page, useHint) {
    let cells = null;
    if (useHint) {
      await page.click('#hint');
      const text = await page.textContent('#message');
      const m = /\(removes ([a-z0-9 ]+) \(/.exec(text);
      if (m) cells = m[1].split(' ');
    }
    if (!cells) {
      // Any legal move: read the rule's moves from the page's data, the
      // position from the drawing.
      const legal = await page.evaluate(() => {
        const data = JSON.parse(document.getElementById('nimlab-data').textContent);
        const present = new Set(
          [...document.querySelectorAll('polygon.cell:not(.gone)')].map((e) => e.dataset.cell),
        );
        let x = 0;
        data.cells.forEach((c, i) => {
          if (present.has(c.name)) x |= 1 << i;
        });
        return data.moves
          .filter((m) => (x & m.mask) === m.mask && (x & m.blockers) === 0)
          .map((m) => m.cells.map((i) => data.cells[i].name));
      });
      cells = legal[rnd(legal.length)];
    }
    for (const c of cells) await page.click('polygon[data-cell="' + c + '"]');
    return page.click('#take');
  },
};

async function play(page, kind, useHint) {
  let status = await waitTurn(page);
  let moves = 0;
  while (status !== 'over') {
    await movers[kind](page, useHint);
    status = await waitTurn(page);
    moves += 1;
    if (moves > 500) throw new Error('the game does not end');
  }
  return page.evaluate(() => ({
    winner: document.body.dataset.winner,
    status: document.getElementById('status').textContent,
    log: document.getElementById('log').children.length,
  }));
}

// page, kind, [first player, use hints, expected winner] per game.
const games = [
  ['nim-357.html', 'heaps', [
    ['computer', false, 'computer'], // misère 3-5-7 is an N-position
    ['me', true, 'person'],
  ]],
  ['triangle-4.html', 'board', [
    ['me', false, 'computer'], // the triangle of 4, runs ≤ 3, misère, is a P-position
    ['computer', true, 'person'],
  ]],
  ['parity-17.html', 'parity', [
    ['computer', false, 'computer'], // 17 stones, take 1..3, odd hand wins: first player wins
    ['me', true, 'person'],
  ]],
  ['hexagon-3.html', 'board', [
    ['me', true, null],
    ['computer', false, 'computer'],
  ]],
  ['no-repeat.html', 'heaps', [
    ['computer', false, null],
    ['me', true, null],
  ]],
  ['kayles-misere.html', 'heaps', [
    ['computer', false, 'computer'], // misère Kayles 5 + 7 is an N-position (the game tree, octal unit tests)
    ['me', true, 'person'],
  ]],
  ['dawson.html', 'heaps', [
    ['computer', false, 'computer'], // Dawson's Kayles 6 + 9: nim-values 3 ⊕ 0 ≠ 0, an N-position
    ['me', true, 'person'],
  ]],
  ['rules-cond13.html', 'heaps', [
    ['computer', false, 'computer'], // Cond(1,3), k = 3, heap 9: 9 is not a multiple of 4, an N-position
    ['me', true, 'person'],
  ]],
];

// Checks of a page's data against values found by hand, before it is played.
const pageChecks = {
  // Misère Kayles (0.77), by hand from the rules (the player who cannot
  // move wins): one pin is P (the mover must take it); 2 and 3 are N (leave
  // one pin); 1+1 is N (leave one), so 1+1+1 is P; 1+2 is N (to 1), 1+3
  // is N (to 1+1+1); 2+2 is P (its moves reach 2 and 1+2, both N); 4 is P
  // (its moves reach 3, 2, 1+2 and 1+1, all N). The empty position is N.
  'kayles-misere.html': async (page) => {
    const d = await page.evaluate(() => ({
      data: JSON.parse(document.getElementById('nimlab-data').textContent),
      title: document.querySelector('.title').textContent,
      rules: document.querySelector('.rules').textContent,
    }));
    check(d.data.misere === true && /misere/.test(d.title) && /misère/.test(d.rules),
      'kayles-misere.html: the page says misère (' + d.title + '; ' + d.rules.slice(0, 60) + '…)');
    const p = new Set(d.data.p_positions);
    const hand = { '1': true, '4': true, '1,1,1': true, '2,2': true, '': false, '2': false, '3': false,
      '1,1': false, '1,2': false, '1,3': false, '5,7': false };
    const wrong = Object.entries(hand).filter(([k, v]) => p.has(k) !== v).map(([k]) => '"' + k + '"');
    check(wrong.length === 0, 'kayles-misere.html: P-positions found by hand' + (wrong.length ? ', wrong: ' + wrong.join(' ') : ''));
  },
  // Dawson's Kayles (0.07), nim-values from OEIS A002187 shifted by one:
  // heaps 0..9 have 0, 0, 1, 1, 2, 0, 3, 1, 1, 0.
  'dawson.html': async (page) => {
    const d = await page.evaluate(() => JSON.parse(document.getElementById('nimlab-data').textContent));
    check(JSON.stringify(d.values) === JSON.stringify([0, 0, 1, 1, 2, 0, 3, 1, 1, 0]),
      'dawson.html: nim-values 0..9 as OEIS A002187 (shifted) lists them: ' + JSON.stringify(d.values));
  },
};

(async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'nimlab-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 900, height: 760 },
  });
  try {
    for (const [file, kind, plan] of games) {
      const page = await context.newPage();
      const problems = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(m.type() + ': ' + m.text());
      });
      page.on('pageerror', (e) => problems.push('page error: ' + e.message));
      page.on('request', (r) => {
        if (!/^(file|data):/.test(r.url())) problems.push('network request: ' + r.url());
      });
      await page.goto('file://' + path.join(dir, file));
      if (pageChecks[file]) await pageChecks[file](page);
      for (const [first, useHint, want] of plan) {
        await newGame(page, first);
        const r = await play(page, kind, useHint);
        const label = file + ': first ' + first + (useHint ? ', the person plays the hints' : ', random clicks');
        if (want) check(r.winner === want, label + ' → ' + r.status);
        else check(r.winner === 'person' || r.winner === 'computer', label + ' → ' + r.status);
      }
      // A screenshot of a game in progress, with a hint shown.
      await newGame(page, 'me');
      await movers[kind](page, false);
      await waitTurn(page);
      if ((await page.evaluate(() => document.body.dataset.status)) === 'person') await page.click('#hint');
      await page.screenshot({ path: path.join(dir, file.replace('.html', '.png')), fullPage: true });
      check(problems.length === 0, file + ': clean console' + (problems.length ? ': ' + problems.join('; ') : ''));
      await page.close();
    }
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  console.log(passed + ' passed, ' + failed + ' failed');
  process.exit(failed > 0 ? 1 : 0);
})().catch((e) => {
  console.log('FAIL ' + (e && e.stack ? e.stack : e));
  console.log(passed + ' passed, ' + (failed + 1) + ' failed');
  process.exit(1);
});
