// nimlab play, lines: the board as hexagon cells (one per lattice point),
// named as in the terminal (column letter, row number from the bottom).
// Click the cells of a run, then "Take". The replies come from the embedded
// P-position bitmap: bit x is set when the subset x of the pieces is a
// P-position (the player to move loses).
function nimlabGame(data) {
  'use strict';
  const SVG = 'http://www.w3.org/2000/svg';
  const raw = atob(data.p_bits);
  const bits = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bits[i] = raw.charCodeAt(i);
  const isP = (x) => ((bits[x >>> 3] >> (x & 7)) & 1) === 1;
  let selected = 0;

  function legal(s) {
    const out = [];
    for (const m of data.moves) {
      if ((s.x & m.mask) === m.mask && (s.x & m.blockers) === 0 && !out.some((o) => o.mask === m.mask)) {
        out.push(m);
      }
    }
    return out;
  }
  const count = (x) => {
    let n = 0;
    for (; x; x &= x - 1) n++;
    return n;
  };
  const names = (mask) => data.cells.filter((c, i) => (mask >> i) & 1).map((c) => c.name).join(' ');

  return {
    start: function (first) {
      selected = 0;
      return { x: data.start, n: 0 };
    },
    moves: legal,
    same: (a, b) => a.mask === b.mask,
    apply: function (s, m) {
      selected = 0;
      return { x: s.x & ~m.mask, n: s.n + 1 };
    },
    result: (s) => (legal(s).length > 0 ? null : data.misere),
    endReason: function (s, last) {
      if (s.x === 0) return (last === 'person' ? 'you' : 'the computer') + ' took the last piece';
      return 'no move is left';
    },
    winning: (s) => legal(s).filter((m) => isP(s.x & ~m.mask)),
    left: (s, m) => count(s.x & ~m.mask),
    name: (s, m) => m.name,
    effect: function (s, m) {
      const left = count(s.x & ~m.mask);
      return 'removes ' + m.cells.map((i) => data.cells[i].name).join(' ') + ' (' + left + ' piece' + (left === 1 ? '' : 's') + ' left)';
    },
    why: function (before, m, s) {
      const k = count(s.x);
      if (k === 0) return m.name + ' took the last piece.';
      if (isP(s.x)) {
        return m.name + ' leaves ' + k + ' pieces: a P-position (a "champion" of report 002): whoever moves next loses.';
      }
      const w = legal(s).filter((r) => isP(s.x & ~r.mask)).map((r) => r.name);
      return m.name + ' leaves ' + k + ' pieces: an N-position, the next player wins with ' + w.slice(0, 6).join(', ') + '.';
    },
    draw: function (el, s, ui) {
      const S = 24, W = Math.sqrt(3) * S;
      const px = (c) => [W * (c.q + c.r / 2), -1.5 * S * c.r];
      const xs = data.cells.map((c) => px(c)[0]), ys = data.cells.map((c) => px(c)[1]);
      const minX = Math.min(...xs) - W, minY = Math.min(...ys) - 1.2 * S;
      const w = Math.max(...xs) - minX + W, h = Math.max(...ys) - minY + 1.2 * S;
      const svg = document.createElementNS(SVG, 'svg');
      svg.setAttribute('viewBox', minX + ' ' + minY + ' ' + w + ' ' + h);
      svg.setAttribute('width', Math.round(w * 1.3));
      svg.setAttribute('height', Math.round(h * 1.3));
      const lastMask = ui.last ? ui.last.mask : 0;
      let hintMask = 0;
      for (const m of ui.hint) hintMask |= m.mask;
      data.cells.forEach((c, i) => {
        const [cx, cy] = px(c);
        const pts = [];
        for (let k = 0; k < 6; k++) {
          const a = Math.PI / 180 * (60 * k - 30);
          pts.push((cx + (S - 1.5) * Math.cos(a)).toFixed(2) + ',' + (cy + (S - 1.5) * Math.sin(a)).toFixed(2));
        }
        const poly = document.createElementNS(SVG, 'polygon');
        poly.setAttribute('points', pts.join(' '));
        const present = (s.x >> i) & 1;
        const inStart = (data.start >> i) & 1;
        let cls = 'cell';
        if (!present) cls += (lastMask >> i) & 1 ? ' gone last' : ' gone';
        else {
          if ((selected >> i) & 1) cls += ' selected';
          if ((hintMask >> i) & 1) cls += ' hint';
        }
        poly.setAttribute('class', cls);
        poly.dataset.cell = c.name;
        if (!inStart) poly.style.visibility = 'hidden';
        poly.addEventListener('click', function () {
          if (!ui.turn || !present) return;
          selected ^= 1 << i;
          ui.say(selected ? 'Selected: ' + names(selected) + '. Click "Take" to remove them.' : '');
          poly.classList.toggle('selected');
        });
        svg.appendChild(poly);
        const t = document.createElementNS(SVG, 'text');
        t.setAttribute('x', cx);
        t.setAttribute('y', cy + 4);
        t.setAttribute('text-anchor', 'middle');
        t.setAttribute('class', 'cell-label');
        t.textContent = inStart ? c.name : '';
        svg.appendChild(t);
      });
      const bar = document.createElement('div');
      bar.className = 'takes';
      const take = document.createElement('button');
      take.type = 'button';
      take.id = 'take';
      take.textContent = 'Take';
      take.disabled = !ui.turn;
      take.addEventListener('click', function () {
        if (!selected) {
          ui.say('Click the cells of a run first (' + data.take + ').');
          return;
        }
        const m = legal(s).find((mv) => mv.mask === selected);
        if (!m) {
          ui.say(names(selected) + ' is not a move: the rule is to remove ' + data.take + '.');
          return;
        }
        ui.play(m);
      });
      const clear = document.createElement('button');
      clear.type = 'button';
      clear.textContent = 'Clear selection';
      clear.disabled = !ui.turn;
      clear.addEventListener('click', function () {
        selected = 0;
        ui.say('');
        svg.querySelectorAll('.selected').forEach((e) => e.classList.remove('selected'));
      });
      bar.append(take, clear);
      const left = document.createElement('p');
      const k = count(s.x);
      left.textContent = k + ' piece' + (k === 1 ? '' : 's') + ' left. Remove ' + data.take + '.';
      el.replaceChildren(svg, bar, left);
    },
  };
}
