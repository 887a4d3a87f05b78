// nimlab play, octal: heaps drawn as rows of tokens. Choose how many tokens
// to take (the buttons), then click the first token of the run to remove:
// what is left of the heap on either side stays (two heaps when both sides
// have tokens, as the code allows). The replies come from the embedded
// nim-values (normal play: the nim-sum of the heaps' values).
function nimlabGame(data) {
  'use strict';
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const SVG = 'http://www.w3.org/2000/svg';
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
  const isP = (heaps) => heaps.reduce((x, h) => x ^ value(h), 0) === 0;
  const name = (m) => (several ? letters[m.heap] : '') + m.take + (m.left > 0 ? ':' + m.left + '+' + m.right : '');
  const text = (h) => (h.length ? h.join(' ') : '(nothing)');
  const takes = [];
  for (let t = 0; t < data.digits.length; t++) if (digit(t) !== 0) takes.push(t);

  return {
    start: (first) => ({ heaps: data.heaps.slice(), first: first, n: 0 }),
    moves: legal,
    same: (a, b) => a.heap === b.heap && a.take === b.take && a.left === b.left,
    apply: (s, m) => ({ heaps: after(s, m), first: s.first, n: s.n + 1 }),
    result: (s) => (legal(s).length > 0 ? null : false),
    endReason: (s, last) => (last === 'person' ? 'the computer' : 'you') + ' cannot move',
    winning: (s) => legal(s).filter((m) => isP(after(s, m))),
    left: (s, m) => after(s, m).reduce((a, b) => a + b, 0),
    name: (s, m) => name(m),
    effect: (s, m) => text(s.heaps) + ' → ' + text(after(s, m)),
    why: function (before, m, s) {
      const g = s.heaps.map(value);
      let t = text(before.heaps) + ' → ' + text(s.heaps) + '. Nim-values after the move: ' +
        (g.length ? g.join(' ⊕ ') : '0') + ' = ' + g.reduce((a, b) => a ^ b, 0) + '. ';
      if (legal(s).length === 0) return t + 'No move is left.';
      if (isP(s.heaps)) return t + 'A safe position (P): every reply leaves a winning answer.';
      return t + 'Not safe: the opponent can win with ' + legal(s).filter((r) => isP(after(s, r))).map(name).join(', ') + '.';
    },
    draw: function (el, s, ui) {
      if (chosen === null || !takes.includes(chosen)) chosen = takes[takes.length > 1 && takes[0] === 0 ? 1 : 0];
      const bar = document.createElement('p');
      takes.forEach((t) => {
        const b = document.createElement('button');
        b.textContent = t === 0 ? 'split (take 0)' : 'take ' + t;
        if (t === chosen) b.className = 'chosen';
        b.addEventListener('click', () => { chosen = t; ui.say('Now click the first token to take (or where to split).'); });
        bar.appendChild(b);
      });
      const r = 12, gap = 30, rowH = 40, left = 50;
      const widest = Math.max(1, ...s.heaps, ...data.heaps);
      const svg = document.createElementNS(SVG, 'svg');
      const w = left + widest * gap + 70, h = Math.max(1, s.heaps.length) * rowH + 10;
      svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
      svg.setAttribute('width', w);
      svg.setAttribute('height', h);
      s.heaps.forEach((size, i) => {
        const y = 25 + i * rowH;
        const label = document.createElementNS(SVG, 'text');
        label.setAttribute('x', 10);
        label.setAttribute('y', y + 5);
        label.setAttribute('class', 'heap-label');
        label.textContent = letters[i];
        svg.appendChild(label);
        for (let j = 0; j < size; j++) {
          const c = document.createElementNS(SVG, 'circle');
          c.setAttribute('cx', left + j * gap);
          c.setAttribute('cy', y);
          c.setAttribute('r', r);
          let cls = 'stone';
          if (ui.turn) cls += ' pickable';
          if (ui.hint.some((m) => m.heap === i && (m.left === j || (m.left === 0 && j === size - m.take)))) cls += ' hint';
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
          svg.appendChild(c);
        }
        const count = document.createElementNS(SVG, 'text');
        count.setAttribute('x', left + widest * gap + 10);
        count.setAttribute('y', y + 5);
        count.setAttribute('class', 'heap-label');
        count.textContent = String(size);
        svg.appendChild(count);
      });
      el.replaceChildren(bar, svg);
    },
  };
}
