// nimlab play, heap games (takeaway, octal): what their pages share. Heaps
// are drawn as rows of stones, one letter and one count per row; a move is
// explained the same way in both. Included before the family's script.
const nimlabHeaps = (function () {
  'use strict';
  const SVG = 'http://www.w3.org/2000/svg';
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

  function label(x, y, text) {
    const t = document.createElementNS(SVG, 'text');
    t.setAttribute('x', x);
    t.setAttribute('y', y + 5);
    t.setAttribute('class', 'heap-label');
    t.textContent = text;
    return t;
  }

  return {
    letters: letters,
    // Heaps as text: `3 5 7`, `(nothing)` when none is left.
    text: (h) => (h.length ? h.join(' ') : '(nothing)'),
    // The end of a move's explanation: no move left, a safe position, or
    // the opponent's winning replies (`winning`: the replies leaving P).
    verdict: function (t, legal, safe, winning, name) {
      if (legal.length === 0) return t + 'No move is left.';
      if (safe) return t + 'A safe position (P): every reply leaves a winning answer.';
      return t + 'Not safe: the opponent can win with ' + winning.map(name).join(', ') + '.';
    },
    // An SVG of `heaps`, one row each. o = {r, gap, widest (stones a row
    // has room for), rows (rows there is room for), label(i) (the row's
    // letter), stones(i, size) (circles drawn: size, or more to show stones
    // just taken), stone(c, i, j, size) (sets the circle's class and click)}.
    svg: function (heaps, o) {
      const rowH = 40, left = 50;
      const svg = document.createElementNS(SVG, 'svg');
      const w = left + o.widest * o.gap + 70, h = o.rows * rowH + 10;
      svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
      svg.setAttribute('width', w);
      svg.setAttribute('height', h);
      heaps.forEach((size, i) => {
        const y = 25 + i * rowH;
        svg.appendChild(label(10, y, o.label(i)));
        for (let j = 0; j < o.stones(i, size); j++) {
          const c = document.createElementNS(SVG, 'circle');
          c.setAttribute('cx', left + j * o.gap);
          c.setAttribute('cy', y);
          c.setAttribute('r', o.r);
          o.stone(c, i, j, size);
          svg.appendChild(c);
        }
        svg.appendChild(label(left + o.widest * o.gap + 10, y, String(size)));
      });
      return svg;
    },
  };
})();
