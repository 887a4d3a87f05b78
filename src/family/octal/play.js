// nimlab play, octal: heaps drawn as rows of tokens. Choose how many tokens
// to take (the buttons), then click the first token of the run to remove:
// what is left of the heap on either side stays (two heaps when both sides
// have tokens, as the code allows). The replies come from the embedded
// data: normal play, the nim-values (the nim-sum of the heaps' values);
// misère play, the P-positions nimlab's search found among every position
// the game can reach (live heaps, ascending, as `1,4,4`). Drawing and the
// end of an explanation: nimlabHeaps (src/family/heaps/heaps.js).
function nimlabGame(data) {
  'use strict';
  const H = nimlabHeaps;
  const several = data.heaps.length > 1;
  const digit = (i) => (i < data.digits.length ? data.digits[i] : 0);
  let chosen = null;

  // Is taking t tokens from a heap of h, leaving a and b, a move of the code?
  function allowed(h, t, a, b) {
    if (a < 0 || b < 0 || a + b + t !== h) return false;
    const d = digit(t);
    if (a === 0 && b === 0) return t > 0 && (d & 1) !== 0;
    if (a === 0 || b === 0) return t > 0 && (d & 2) !== 0;
    return (d & 4) !== 0;
  }
  function legal(s) {
    const out = [];
    s.heaps.forEach((h, i) => {
      for (let t = 0; t <= Math.min(h, data.digits.length - 1); t++) {
        for (let a = 0; a <= (h - t) / 2; a++) {
          const b = h - t - a;
          if (allowed(h, t, a, b)) out.push({ heap: i, take: t, left: a, right: b });
        }
      }
    });
    return out;
  }
  function after(s, m) {
    const h = s.heaps.slice(0, m.heap);
    if (m.left > 0) h.push(m.left);
    if (m.right > 0) h.push(m.right);
    return h.concat(s.heaps.slice(m.heap + 1));
  }
  const value = (n) => data.values[n];
  const live = (h) => legal({ heaps: [h] }).length > 0;
  const pSet = new Set(data.p_positions);
  // The position as the search keys it: live heaps, ascending.
  const key = (heaps) => heaps.filter(live).sort((a, b) => a - b).join(',');
  const isP = (heaps) => (data.misere ? pSet.has(key(heaps)) : heaps.reduce((x, h) => x ^ value(h), 0) === 0);
  const name = (m) => (several ? H.letters[m.heap] : '') + m.take + (m.left > 0 ? ':' + m.left + '+' + m.right : '');
  const text = H.text;
  const takes = [];
  for (let t = 0; t < data.digits.length; t++) if (digit(t) !== 0) takes.push(t);

  return {
    start: (first) => ({ heaps: data.heaps.slice(), first: first, n: 0 }),
    moves: legal,
    same: (a, b) => a.heap === b.heap && a.take === b.take && a.left === b.left,
    apply: (s, m) => ({ heaps: after(s, m), first: s.first, n: s.n + 1 }),
    // No move left: the player to move loses, or wins in misère play.
    result: (s) => (legal(s).length > 0 ? null : data.misere),
    endReason: (s, last) =>
      (last === 'person' ? 'the computer' : 'you') + ' cannot move' + (data.misere ? ': in misère play that wins' : ''),
    winning: (s) => legal(s).filter((m) => isP(after(s, m))),
    left: (s, m) => after(s, m).reduce((a, b) => a + b, 0),
    name: (s, m) => name(m),
    effect: (s, m) => text(s.heaps) + ' → ' + text(after(s, m)),
    why: function (before, m, s) {
      let t = text(before.heaps) + ' → ' + text(s.heaps) + '. ';
      if (data.misere) {
        t += 'Misère play: nim-values do not add up; the position is looked up among the safe ones. ';
      } else {
        const g = s.heaps.map(value);
        t += 'Nim-values after the move: ' + (g.length ? g.join(' ⊕ ') : '0') + ' = ' + g.reduce((a, b) => a ^ b, 0) + '. ';
      }
      const replies = legal(s);
      const w = replies.filter((r) => isP(after(s, r)));
      return H.verdict(t, replies, isP(s.heaps), w, name);
    },
    draw: function (el, s, ui) {
      if (chosen === null || !takes.includes(chosen)) chosen = takes[takes.length > 1 && takes[0] === 0 ? 1 : 0];
      // A hint chooses its take, and marks the tokens to click with it.
      if (ui.hint.length > 0) chosen = ui.hint[0].take;
      const hinted = ui.hint.filter((m) => m.take === chosen);
      const bar = document.createElement('p');
      takes.forEach((t) => {
        const b = document.createElement('button');
        b.textContent = t === 0 ? 'split (take 0)' : 'take ' + t;
        if (t === chosen) b.className = 'chosen';
        b.addEventListener('click', () => { chosen = t; ui.say('Now click the first token to take (or where to split).'); });
        bar.appendChild(b);
      });
      const svg = H.svg(s.heaps, {
        r: 12,
        gap: 30,
        widest: Math.max(1, ...s.heaps, ...data.heaps),
        rows: Math.max(1, s.heaps.length),
        label: (i) => H.letters[i],
        stones: (i, size) => size,
        stone: function (c, i, j, size) {
          let cls = 'stone';
          if (ui.turn) cls += ' pickable';
          if (hinted.some((m) => m.heap === i && (m.left === j || (m.left === 0 && j === size - m.take)))) cls += ' hint';
          c.setAttribute('class', cls);
          c.addEventListener('click', function () {
            if (!ui.turn) return;
            const t = chosen;
            const a = j, b = size - j - t;
            const m = { heap: i, take: t, left: Math.min(a, b), right: Math.max(a, b) };
            if (b < 0 || !allowed(size, t, m.left, m.right)) {
              ui.say('Not a move of code ' + data.rule + ': taking ' + t + ' here would leave ' + a + ' and ' + Math.max(b, 0) + '.');
            } else {
              ui.play(m);
            }
          });
        },
      });
      el.replaceChildren(bar, svg);
    },
  };
}
