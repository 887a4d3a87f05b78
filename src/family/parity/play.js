// nimlab play, parity: one pile, stones kept in hand. The buttons take 1..k
// stones (or a click on the pile's stones: the n-th stone from the right
// takes n). The replies come from the embedded outcome table, one byte per
// pile size (as nimlab's solver stores it), repeated with the proven period.
function nimlabGame(data) {
  'use strict';
  const SVG = 'http://www.w3.org/2000/svg';
  const sides = data.variant === 'sides';

  function byte(r) {
    const v = data.bits;
    return r < v.length ? v[r] : v[data.pre + ((r - data.pre) % data.per)];
  }
  // Does the player to move (holding hand 'A' or 'B') win at (a, b, r)?
  function wins(a, b, r, mover) {
    const y = byte(r);
    a &= 1;
    b &= 1;
    if (sides) {
      const i = 2 * a + b;
      return mover === 'A' ? ((y >> (4 + i)) & 1) === 1 : ((y >> i) & 1) === 0;
    }
    const i = mover === 'A' ? 2 * a + b : 2 * b + a;
    return ((y >> i) & 1) === 1;
  }
  const other = (m) => (m === 'A' ? 'B' : 'A');
  // The state records who holds hand A; the player to move alternates.
  function moverHand(s) {
    const p = s.n % 2 === 0 ? s.first : s.first === 'person' ? 'computer' : 'person';
    return p === s.aHolder ? 'A' : 'B';
  }
  function next(s, t) {
    const m = moverHand(s);
    return {
      a: s.a + (m === 'A' ? t : 0),
      b: s.b + (m === 'B' ? t : 0),
      r: s.r - t,
      first: s.first,
      aHolder: s.aHolder,
      n: s.n + 1,
    };
  }
  const legal = (s) => data.takes.filter((t) => t <= s.r);
  const hand = (s, p) => (p === s.aHolder ? s.a : s.b);
  const side = (s, p) => (sides ? ((p === s.aHolder) ? ' (Odd)' : ' (Even)') : '');
  const parity = (x) => (x % 2 === 1 ? 'odd' : 'even');

  return {
    start: function (first) {
      const aHolder = sides
        ? (data.person_side === 'odd' ? 'person' : 'computer')
        : first;
      return { a: data.a, b: data.b, r: data.r, first: first, aHolder: aHolder, n: 0 };
    },
    moves: legal,
    same: (x, y) => x === y,
    apply: next,
    result: (s) => (s.r > 0 ? null : wins(s.a, s.b, 0, moverHand(s))),
    endReason: function (s) {
      const you = hand(s, 'person'), cpu = hand(s, 'computer');
      return 'the pile is empty: your hand ' + you + ' (' + parity(you) + '), the computer\'s ' +
        cpu + ' (' + parity(cpu) + ')';
    },
    winning: function (s) {
      if (s.r === 0) return [];
      const m = moverHand(s);
      return legal(s).filter((t) => {
        const c = next(s, t);
        return !wins(c.a, c.b, c.r, other(m));
      });
    },
    left: (s, t) => s.r - t,
    name: (s, t) => String(t),
    effect: function (s, t) {
      const c = next(s, t);
      const m = moverHand(s);
      const who = (m === 'A') === (s.aHolder === 'person') ? 'your' : "the computer's";
      return 'pile ' + s.r + ' → ' + c.r + ', ' + who + ' hand ' + (m === 'A' ? s.a : s.b) +
        ' → ' + (m === 'A' ? c.a : c.b);
    },
    why: function (before, t, s) {
      if (s.r === 0) return 'Took ' + t + ': the pile is empty.';
      const moved = moverHand(before);
      const safe = !wins(s.a, s.b, s.r, other(moved));
      const M = data.per > 0 ? data.per : null;
      let t2 = 'Took ' + t + ': hands (' + s.a + ', ' + s.b + '), pile ' + s.r;
      if (M) t2 += ' ≡ ' + ((s.r - 0) % M) + ' (mod ' + M + ')';
      return t2 + (safe ? ': a safe state for the player who moved (they win with perfect play).'
        : ': not a safe state: the other player can win.');
    },
    draw: function (el, s, ui) {
      const r = 11, gap = 26, left = 250, rowH = 36;
      const widest = Math.max(data.r, 1);
      const svg = document.createElementNS(SVG, 'svg');
      const w = left + widest * gap + 60, h = 3 * rowH + 10;
      svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
      svg.setAttribute('width', w);
      svg.setAttribute('height', h);
      const label = (y, text) => {
        const e = document.createElementNS(SVG, 'text');
        e.setAttribute('x', 8);
        e.setAttribute('y', y + 5);
        e.setAttribute('class', 'heap-label');
        e.textContent = text;
        svg.appendChild(e);
      };
      const row = (y, n, cls, click) => {
        for (let j = 0; j < n; j++) {
          const c = document.createElementNS(SVG, 'circle');
          c.setAttribute('cx', left + j * gap);
          c.setAttribute('cy', y);
          c.setAttribute('r', r);
          c.setAttribute('class', cls);
          if (click) click(c, n - j);
          svg.appendChild(c);
        }
      };
      const y0 = 22;
      label(y0, 'pile: ' + s.r);
      const last = ui.last;
      row(y0, s.r, 'stone' + (ui.turn ? ' pickable' : ''), function (c, take) {
        c.dataset.take = take;
        if (ui.hint.includes(take)) c.setAttribute('class', c.getAttribute('class') + ' hint');
        c.addEventListener('click', function () {
          if (!ui.turn) return;
          if (!data.takes.includes(take)) ui.say('You may take ' + data.take_text + ' stones.');
          else ui.play(take);
        });
      });
      if (last) {
        for (let j = 0; j < last; j++) {
          const c = document.createElementNS(SVG, 'circle');
          c.setAttribute('cx', left + (s.r + j) * gap);
          c.setAttribute('cy', y0);
          c.setAttribute('r', r);
          c.setAttribute('class', 'stone taken last');
          svg.appendChild(c);
        }
      }
      ['person', 'computer'].forEach((p, i) => {
        const y = y0 + (i + 1) * rowH;
        const n = hand(s, p);
        label(y, (p === 'person' ? 'your hand' : "computer's hand") + side(s, p) + ': ' + n + ' (' + parity(n) + ')');
        const g = document.createElementNS(SVG, 'g');
        g.setAttribute('class', 'hand');
        svg.appendChild(g);
        for (let j = 0; j < n; j++) {
          const c = document.createElementNS(SVG, 'circle');
          c.setAttribute('cx', left + j * gap);
          c.setAttribute('cy', y);
          c.setAttribute('r', r - 2);
          c.setAttribute('class', 'stone');
          g.appendChild(c);
        }
      });
      const buttons = document.createElement('div');
      buttons.className = 'takes';
      for (const t of data.takes) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = 'take ' + t;
        b.dataset.take = t;
        b.disabled = !ui.turn || t > s.r;
        if (ui.hint.includes(t)) b.style.borderColor = '#1b8a2f';
        b.addEventListener('click', () => ui.play(t));
        buttons.appendChild(b);
      }
      const goal = document.createElement('p');
      goal.textContent = data.goal.charAt(0).toUpperCase() + data.goal.slice(1) + '.';
      el.replaceChildren(svg, buttons, goal);
    },
  };
}
