// nimlab play, rules: heaps drawn as rows of tokens; a click on a token
// takes it and every token to its right (a two-heap move is a button). No
// condition is evaluated here: the data holds every position reachable from
// the start (keyed `h1,h2|last|mine`, the history as the solver keys it),
// each with its legal moves [heap, heap2 (-1: none), take, winning (0/1)]
// as nimlab's solver found them. Drawing and the end of an explanation:
// nimlabHeaps (src/family/heaps/heaps.js).
function nimlabGame(data) {
  'use strict';
  const H = nimlabHeaps;
  const one = data.heaps.length === 1 && !data.both;
  const K = data.key;

  function key(s) {
    const last = K.last === 2 ? s.last : K.last === 1 ? Math.min(s.last, 1) : 0;
    const mine = K.mine ? s.mine : 0;
    return s.heaps.join(',') + '|' + last + '|' + mine;
  }
  function rows(s) {
    return data.states[key(s)] || [];
  }
  const toMove = (r) => ({ heap: r[0], heap2: r[1], take: r[2] });
  function legal(s) {
    return rows(s).map(toMove);
  }
  function after(s, m) {
    const h = s.heaps.slice();
    h[m.heap] -= m.take;
    if (m.heap2 >= 0) h[m.heap2] -= m.take;
    return h;
  }
  function apply(s, m) {
    return { heaps: after(s, m), last: m.take, mine: s.last, first: s.first, n: s.n + 1 };
  }
  const winning = (s) => rows(s).filter((r) => r[3] === 1).map(toMove);
  const name = (m) =>
    (one ? '' : H.letters[m.heap] + (m.heap2 >= 0 ? H.letters[m.heap2] : '')) + m.take;
  const same = (a, b) => a.heap === b.heap && a.heap2 === b.heap2 && a.take === b.take;
  const text = H.text;

  return {
    start: function (first) {
      return { heaps: data.heaps.slice(), last: 0, mine: 0, first: first, n: 0 };
    },
    moves: legal,
    same: same,
    apply: apply,
    result: function (s) {
      return legal(s).length > 0 ? null : data.misere;
    },
    endReason: function (s, last) {
      const who = last === 'person' ? 'you' : 'the computer';
      if (s.heaps.every((h) => h === 0)) return who + ' took the last token';
      return (last === 'person' ? 'the computer' : 'you') + ' cannot move (the rule allows no take here)';
    },
    winning: winning,
    left: (s, m) => s.heaps.reduce((a, b) => a + b, 0) - m.take * (m.heap2 >= 0 ? 2 : 1),
    name: (s, m) => name(m),
    effect: (s, m) => text(s.heaps) + ' → ' + text(after(s, m)),
    why: function (before, m, s) {
      let t = text(before.heaps) + ' → ' + text(s.heaps) + '. ';
      if (data.history) t += 'The next player moves after a take of ' + m.take + '. ';
      const replies = legal(s);
      const w = winning(s);
      return H.verdict(t, replies, w.length === 0, w, name);
    },
    draw: function (el, s, ui) {
      const last = ui.last;
      const moves = legal(s);
      const taken = (i) => (last && (last.heap === i || last.heap2 === i) ? last.take : 0);
      const svg = H.svg(s.heaps, {
        r: 13,
        gap: 32,
        widest: Math.max(...data.heaps),
        rows: data.heaps.length,
        label: (i) => (data.heaps.length === 1 ? '' : H.letters[i]),
        stones: (i, size) => size + taken(i),
        stone: function (c, i, j, size) {
          const take = size - j;
          let cls = 'stone';
          if (j >= size) cls += ' taken last';
          else {
            const m = { heap: i, heap2: -1, take: take };
            if (ui.turn) cls += ' pickable';
            if (ui.hint.some((h) => same(h, m))) cls += ' hint';
            c.addEventListener('click', function () {
              if (!ui.turn) return;
              if (!moves.some((x) => same(x, m))) ui.say('Not allowed here. The rule: ' + data.rule + '.');
              else ui.play(m);
            });
          }
          c.setAttribute('class', cls);
        },
      });
      el.replaceChildren(svg);
      const pairs = moves.filter((m) => m.heap2 >= 0);
      if (pairs.length > 0 && ui.turn) {
        const p = document.createElement('p');
        p.textContent = 'From two heaps: ';
        for (const m of pairs) {
          const b = document.createElement('button');
          b.textContent = name(m);
          if (ui.hint.some((h) => same(h, m))) b.className = 'hint';
          b.addEventListener('click', () => ui.play(m));
          p.appendChild(b);
        }
        el.appendChild(p);
      }
      if (data.history && s.n > 0) {
        const p = document.createElement('p');
        p.textContent = 'last = ' + s.last + ' (the opponent\'s take), mine = ' + (s.mine || 'none') + '.';
        el.appendChild(p);
      }
    },
  };
}
