// nimlab play, takeaway: heaps drawn as rows of stones; a click on a stone
// takes it and every stone to its right. The replies come from the embedded
// data: Nim (take any, normal play), the Grundy sequence of one heap (as a
// preperiod and a period when that is shorter than the heaps), or the joint
// state table of misère / no-repeat games (0: no winning take, t: the one
// winning take, -1: several), read as nimlab's solver reads it.
function nimlabGame(data) {
  'use strict';
  const E = data.engine;
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const one = data.heaps.length === 1;
  const SVG = 'http://www.w3.org/2000/svg';

  function takesFor(h) {
    return data.any ? Array.from({ length: h }, (_, i) => i + 1) : data.takes.filter((t) => t <= h);
  }
  function legal(s) {
    const out = [];
    s.heaps.forEach((h, i) => {
      for (const t of takesFor(h)) {
        if (!(data.no_repeat && s.last === t)) out.push({ heap: i, take: t });
      }
    });
    return out;
  }
  function grundy(n) {
    if (E.kind === 'nim') return n;
    const v = E.values;
    return n < v.length ? v[n] : v[E.pre + ((n - E.pre) % E.per)];
  }
  function hasLegal(heaps, last) {
    const m = Math.max(...heaps);
    const s1 = data.takes[0];
    if (m < s1) return false;
    if (!data.no_repeat || last === null || last !== s1) return true;
    return data.takes.length > 1 && m >= data.takes[1];
  }
  // Is (heaps, last) a P-position?
  function isP(heaps, last) {
    if (E.kind === 'nim' || E.kind === 'grundy') {
      return heaps.reduce((x, h) => x ^ grundy(h), 0) === 0;
    }
    const idx = heaps.reduce((a, h, i) => a + h * E.strides[i], 0);
    const c = E.codes[idx];
    const noWin = data.no_repeat ? c === 0 || (last !== null && c === last) : c === 0;
    return data.misere ? noWin && hasLegal(heaps, last) : noWin;
  }
  function after(s, m) {
    const h = s.heaps.slice();
    h[m.heap] -= m.take;
    return h;
  }
  const name = (m) => (one ? String(m.take) : letters[m.heap] + m.take);
  const text = (h) => h.join(' ');

  return {
    start: function (first) {
      return { heaps: data.heaps.slice(), last: null, first: first, n: 0 };
    },
    moves: legal,
    same: (a, b) => a.heap === b.heap && a.take === b.take,
    apply: function (s, m) {
      return { heaps: after(s, m), last: m.take, first: s.first, n: s.n + 1 };
    },
    result: function (s) {
      return legal(s).length > 0 ? null : data.misere;
    },
    endReason: function (s, last) {
      const who = last === 'person' ? 'you' : 'the computer';
      if (s.heaps.every((h) => h === 0)) return who + ' took the last stone';
      return (last === 'person' ? 'the computer' : 'you') + ' cannot move';
    },
    winning: function (s) {
      if (legal(s).length === 0) return [];
      return legal(s).filter((m) => isP(after(s, m), m.take));
    },
    left: (s, m) => s.heaps.reduce((a, b) => a + b, 0) - m.take,
    name: (s, m) => name(m),
    effect: (s, m) => text(s.heaps) + ' → ' + text(after(s, m)),
    why: function (before, m, s) {
      let t = text(before.heaps) + ' → ' + text(s.heaps) + '. ';
      if (E.kind !== 'table') {
        const g = s.heaps.map(grundy);
        const x = g.reduce((a, b) => a ^ b, 0);
        t += (E.kind === 'nim' ? 'Nim sum of the heaps' : 'Nim sum of the Grundy values ' + g.join(', ')) +
          ' after the move: ' + g.join(' ⊕ ') + ' = ' + x + '. ';
      }
      if (legal(s).length === 0) return t + 'No move is left.';
      if (isP(s.heaps, m.take)) return t + 'A safe position (P): every reply leaves a winning answer.';
      const w = legal(s).filter((r) => isP(after(s, r), r.take)).map(name);
      return t + 'Not safe: the opponent can win with ' + w.join(', ') + '.';
    },
    draw: function (el, s, ui) {
      const r = 13, gap = 32, rowH = 40, left = 50;
      const widest = Math.max(...data.heaps);
      const svg = document.createElementNS(SVG, 'svg');
      const w = left + widest * gap + 70, h = data.heaps.length * rowH + 10;
      svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
      svg.setAttribute('width', w);
      svg.setAttribute('height', h);
      const last = ui.last;
      s.heaps.forEach((size, i) => {
        const y = 25 + i * rowH;
        const label = document.createElementNS(SVG, 'text');
        label.setAttribute('x', 10);
        label.setAttribute('y', y + 5);
        label.setAttribute('class', 'heap-label');
        label.textContent = one ? '' : letters[i];
        svg.appendChild(label);
        const taken = last && last.heap === i ? last.take : 0;
        for (let j = 0; j < size + taken; j++) {
          const c = document.createElementNS(SVG, 'circle');
          c.setAttribute('cx', left + j * gap);
          c.setAttribute('cy', y);
          c.setAttribute('r', r);
          const take = size - j;
          let cls = 'stone';
          if (j >= size) cls += ' taken last';
          else {
            c.dataset.heap = i;
            c.dataset.take = take;
            if (ui.turn) cls += ' pickable';
            if (ui.hint.some((m) => m.heap === i && m.take === take)) cls += ' hint';
            c.addEventListener('click', function () {
              if (!ui.turn) return;
              const m = { heap: i, take: take };
              if (!takesFor(size).includes(take)) {
                ui.say('The rule: ' + data.rule + '.');
              } else if (data.no_repeat && s.last === take) {
                ui.say('No repeat: your opponent just took ' + take + ', so you may not take ' + take + ' now.');
              } else {
                ui.play(m);
              }
            });
          }
          c.setAttribute('class', cls);
          svg.appendChild(c);
        }
        const count = document.createElementNS(SVG, 'text');
        count.setAttribute('x', left + widest * gap + 10);
        count.setAttribute('y', y + 5);
        count.setAttribute('class', 'heap-label');
        count.textContent = String(size);
        svg.appendChild(count);
      });
      el.replaceChildren(svg);
      if (data.no_repeat && s.last !== null) {
        const p = document.createElement('p');
        p.textContent = 'Last take: ' + s.last + ' (the next player may not take ' + s.last + ').';
        el.appendChild(p);
      }
    },
  };
}
