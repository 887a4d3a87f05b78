// nimlab play, takeaway: heaps drawn as rows of stones; a click on a stone
// takes it and every stone to its right. The replies come from the embedded
// data: Nim (take any, normal play), the Grundy sequence of one heap (as a
// preperiod and a period when that is shorter than the heaps), or the joint
// state table of misère / no-repeat games (0: no winning take, t: the one
// winning take, -1: several), read as nimlab's solver reads it. Drawing and
// the end of an explanation: nimlabHeaps (src/family/heaps/heaps.js).
function nimlabGame(data) {
  'use strict';
  const E = data.engine;
  const H = nimlabHeaps;
  const one = data.heaps.length === 1;

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
  const name = (m) => (one ? String(m.take) : H.letters[m.heap] + m.take);
  const text = H.text;

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
      const replies = legal(s);
      const w = replies.filter((r) => isP(after(s, r), r.take));
      return H.verdict(t, replies, isP(s.heaps, m.take), w, name);
    },
    draw: function (el, s, ui) {
      const last = ui.last;
      const svg = H.svg(s.heaps, {
        r: 13,
        gap: 32,
        widest: Math.max(...data.heaps),
        rows: data.heaps.length,
        label: (i) => (one ? '' : H.letters[i]),
        stones: (i, size) => size + (last && last.heap === i ? last.take : 0),
        stone: function (c, i, j, size) {
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
        },
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
