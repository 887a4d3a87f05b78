// nimlab play: the page's game loop (family-neutral).
//
// The family script defines nimlabGame(data), which returns an object with:
//   start(first)           the starting state; first is 'person' or 'computer'
//   moves(s)               the legal moves of the player to move (plain values)
//   same(m1, m2)           are two moves the same?
//   apply(s, m)            the state after m (a new object; s is left as it was)
//   result(s)              null while the game goes on, else true when the
//                          player to move wins
//   endReason(s, last)     why the game ended; last = 'person' | 'computer'
//   winning(s)             the winning moves, from the embedded data
//   left(s, m)             stones or pieces left after m (a lost game is kept long)
//   name(s, m)             a move as nimlab's terminal game spells it
//   effect(s, m)           what the move does
//   why(before, m, after)  the move explained in the family's terms
//   draw(el, s, ui)        draws s into el; ui = {turn, last, hint, play(m), say(text)}
// The computer chooses as `nimlab play` does: a winning move whenever one
// exists (the easy level slips with probability `mistakes`), otherwise the
// move that leaves the most on the table.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('nimlab-data').textContent);
  const settings = JSON.parse(document.getElementById('nimlab-settings').textContent);
  const G = nimlabGame(data);
  const $ = (id) => document.getElementById(id);

  // A small seeded generator (mulberry32); seeded from the clock, so games vary.
  let seed = (settings.seed ^ Date.now()) >>> 0;
  function rnd() {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  const pick = (v) => v[Math.floor(rnd() * v.length)];

  $('first').value = settings.first;
  $('level').value = settings.level;

  let first = 'person';
  let states = [];
  let moves = []; // {m, who, slip: winning moves or null}
  let winner = null;
  let hint = [];
  let busy = false;
  const score = { person: 0, computer: 0 };

  const other = (p) => (p === 'person' ? 'computer' : 'person');
  const cur = () => states[states.length - 1];
  const toMove = () => (moves.length % 2 === 0 ? first : other(first));

  function say(text) {
    $('message').textContent = text;
  }

  function choose(s) {
    const legal = G.moves(s);
    const wins = G.winning(s);
    if (wins.length > 0) {
      if ($('level').value === 'easy' && rnd() < settings.mistakes) {
        const others = legal.filter((m) => !wins.some((w) => G.same(w, m)));
        if (others.length > 0) return { m: pick(others), slip: wins };
      }
      return { m: pick(wins), slip: null };
    }
    if (settings.stall === 'random') return { m: pick(legal), slip: null };
    const most = Math.max(...legal.map((m) => G.left(s, m)));
    return { m: pick(legal.filter((m) => G.left(s, m) === most)), slip: null };
  }

  function log(who, s, m) {
    const li = document.createElement('li');
    li.className = who;
    li.textContent = (who === 'person' ? 'you: ' : 'computer: ') + G.name(s, m) + ' — ' + G.effect(s, m);
    $('log').appendChild(li);
  }

  function play(m, who, slip) {
    const s = cur();
    log(who, s, m);
    states.push(G.apply(s, m));
    moves.push({ m: m, who: who, slip: slip });
    hint = [];
    const r = G.result(cur());
    if (r !== null) {
      winner = r ? toMove() : other(toMove());
      score[winner] += 1;
      say('');
    }
    render();
    schedule();
  }

  function schedule() {
    if (winner === null && toMove() === 'computer') {
      busy = true;
      render();
      setTimeout(function () {
        busy = false;
        const c = choose(cur());
        play(c.m, 'computer', c.slip);
      }, 300);
    }
  }

  function render() {
    const over = winner !== null;
    document.body.dataset.status = over ? 'over' : busy ? 'thinking' : toMove();
    document.body.dataset.winner = over ? winner : '';
    let status;
    if (over) {
      const last = moves.length ? moves[moves.length - 1].who : first;
      status = (winner === 'person' ? 'Game over: you win' : 'Game over: the computer wins') +
        ' (' + G.endReason(cur(), last) + ').';
    } else if (toMove() === 'computer') {
      status = 'The computer is thinking…';
    } else {
      status = 'Your move.';
    }
    $('status').textContent = status;
    $('score').textContent = '(you ' + score.person + ', computer ' + score.computer + ')';
    const last = moves.length ? moves[moves.length - 1].m : null;
    G.draw($('board'), cur(), {
      turn: !over && !busy && toMove() === 'person',
      last: last,
      hint: hint,
      play: function (m) {
        if (winner !== null || busy || toMove() !== 'person') return;
        if (!G.moves(cur()).some((x) => G.same(x, m))) {
          say('That move is not allowed here.');
          return;
        }
        say('');
        play(m, 'person', null);
      },
      say: say,
    });
    $('undo').disabled = busy || !moves.some((x) => x.who === 'person');
    $('hint').disabled = over || busy || toMove() !== 'person';
    $('why').disabled = moves.length === 0;
  }

  function newGame() {
    if (busy) return;
    const f = $('first').value;
    first = f === 'me' ? 'person' : f === 'computer' ? 'computer' : rnd() < 0.5 ? 'person' : 'computer';
    states = [G.start(first)];
    moves = [];
    winner = null;
    hint = [];
    $('log').textContent = '';
    say(first === 'person' ? 'You move first.' : 'The computer moves first.');
    const r = G.result(cur());
    if (r !== null) {
      winner = r ? first : other(first);
      score[winner] += 1;
    }
    render();
    schedule();
  }

  $('new').addEventListener('click', newGame);
  $('first').addEventListener('change', newGame);
  $('hint').addEventListener('click', function () {
    const s = cur();
    hint = G.winning(s);
    if (hint.length === 0) {
      say('No winning move: every move loses against perfect play. Keep the game long and hope for a slip.');
    } else {
      say('Winning move' + (hint.length > 1 ? 's' : '') + ': ' +
        hint.map((m) => G.name(s, m) + ' (' + G.effect(s, m) + ')').join(', '));
    }
    render();
  });
  $('why').addEventListener('click', function () {
    if (moves.length === 0) return;
    const last = moves[moves.length - 1];
    const before = states[states.length - 2];
    let text = (last.who === 'person' ? 'Your move: ' : "The computer's move: ") +
      G.why(before, last.m, cur());
    if (last.slip) {
      text += '\n(Level easy: that was a deliberate slip; the winning move' +
        (last.slip.length > 1 ? 's were ' : ' was ') +
        last.slip.map((m) => G.name(before, m)).join(', ') + '.)';
    }
    say(text);
  });
  $('undo').addEventListener('click', function () {
    if (busy || !moves.some((x) => x.who === 'person')) return;
    if (winner !== null) score[winner] -= 1;
    winner = null;
    for (;;) {
      const x = moves.pop();
      states.pop();
      $('log').removeChild($('log').lastChild);
      if (x.who === 'person') break;
    }
    hint = [];
    say('Took back your last move.');
    render();
  });

  newGame();
})();
