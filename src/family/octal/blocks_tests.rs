//! Every kernel on two threads, in blocks ([`super::blocks`]), against the
//! same kernel on one thread and the naive kernel: the same values on
//! random codes (normal play; misère play is a search over positions, not
//! a kernel, and has no threaded path), and the new moves of a block
//! against every move listed by the rules.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use super::adaptive::{self, AdaptiveWork};
use super::blocks::{Par, Scratch, new_move_reaches, run_blocks};
use super::code::Code;
use super::kernel;
use super::tests::Rng;

static NO: AtomicBool = AtomicBool::new(false);

/// Two threads, blocks from `from` on (small, so that heap sizes up to
/// 2000 see many blocks).
fn two(from: usize, block: usize) -> Par {
    Par {
        threads: 2,
        from,
        block,
    }
}

fn pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
}

fn wide(g: Vec<u16>) -> Vec<u32> {
    g.into_iter().map(u32::from).collect()
}

#[test]
fn the_naive_kernel_in_blocks_equals_it_on_one_thread() {
    let mut rng = Rng(0x0b10_c4ed);
    let pool = pool();
    for k in 0..60 {
        // Octal and hexadecimal (three heaps: one thread), some with `!`.
        let c = rng.hex_code(4, k % 4 == 0);
        let one = kernel::naive(&c, 2000, &NO).unwrap();
        for par in [two(40, 8), two(200, 32)] {
            let mut g = Vec::new();
            pool.install(|| kernel::naive_extend_with(&c, &mut g, 2000, par, &NO));
            assert_eq!(g, one, "{} {par:?}", c.text());
        }
    }
}

#[test]
fn the_adaptive_kernel_in_blocks_equals_the_naive_one() {
    let mut rng = Rng(0xada9_7172);
    let pool = pool();
    let mut tested = 0;
    while tested < 60 {
        let c = rng.hex_code(4, false);
        if !c.splits() || c.triples() {
            continue;
        }
        let g = kernel::naive(&c, 2000, &NO).unwrap();
        if g.iter().any(|&v| v > u16::MAX as u32) {
            continue;
        }
        tested += 1;
        let start = [1, 40, 300][tested % 3];
        for par in [two(40, 8), two(200, 32)] {
            let mut a: Vec<u16> = g[..start].iter().map(|&v| v as u16).collect();
            let mut work = AdaptiveWork::default();
            pool.install(|| adaptive::extend_with(&c, &mut a, 2000, (&mut work, par), &NO))
                .unwrap();
            assert_eq!(wide(a), g, "{} from {start} {par:?}", c.text());
        }
    }
    // 0.6 rebuilds its split inside blocks.
    let g = kernel::naive(&Code::parse("0.6").unwrap(), 9000, &NO).unwrap();
    let mut a = vec![0u16];
    let mut work = AdaptiveWork::default();
    let c = Code::parse("0.6").unwrap();
    pool.install(|| adaptive::extend_with(&c, &mut a, 9000, (&mut work, two(64, 32)), &NO))
        .unwrap();
    assert!(work.rebuilds > 0, "{work:?}");
    assert_eq!(wide(a), g);
}

#[test]
fn the_sparse_kernel_in_blocks_equals_the_naive_one() {
    let mut rng = Rng(0x5ba2_5e00);
    let pool = pool();
    let mut tested = 0;
    while tested < 60 {
        let c = rng.hex_code(3, false);
        if !c.splits() || c.triples() {
            continue;
        }
        let g = kernel::naive(&c, 1500, &NO).unwrap();
        if g.iter().any(|&v| v > u16::MAX as u32) {
            continue;
        }
        tested += 1;
        let mask = match tested % 3 {
            0 => kernel::best_mask(&g[..500]).0,
            1 => 1,
            _ => 1 + (rng.next() % 63) as u32,
        };
        for par in [two(40, 8), two(200, 32)] {
            let mut s = vec![0u16];
            pool.install(|| kernel::sparse_extend_with(&c, &mut s, (1500, mask), par, &NO))
                .unwrap();
            assert_eq!(wide(s), g, "{} mask {mask} {par:?}", c.text());
        }
    }
    // Grundy's game with Flammenkamp's mask, to 20000.
    let c = Code::parse("grundy").unwrap();
    let g = kernel::naive(&c, 20_000, &NO).unwrap();
    let mut s: Vec<u16> = g[..2049].iter().map(|&v| v as u16).collect();
    pool.install(|| kernel::sparse_extend_with(&c, &mut s, (20_000, !1), two(2049, 32), &NO))
        .unwrap();
    assert_eq!(wide(s), g);
}

/// The values of the moves of `n` that leave a heap of `old` or more, by
/// the rules (one heap, or two `a ≤ b`, `a < b` under `!`).
fn new_moves(c: &Code, g: &[u32], n: usize, old: usize) -> Vec<u32> {
    let mut out = Vec::new();
    // Take 0 (a leading digit 4) splits without taking.
    for i in 0..n {
        let (d, r) = (c.digit(i), n - i);
        if d & 2 != 0 && r >= old {
            out.push(g[r]);
        }
        for a in 1..=r / 2 {
            let b = r - a;
            if d & 4 != 0 && b >= old && (a < b || !c.unequal(i)) {
                out.push(g[a] ^ g[b]);
            }
        }
    }
    out
}

#[test]
fn a_blocks_new_moves_are_those_leaving_a_heap_past_its_start() {
    let mut rng = Rng(0x4e3f_11aa);
    for _ in 0..40 {
        let c = rng.hex_code(4, false);
        if c.triples() {
            continue;
        }
        let takes: Vec<(usize, bool)> = c
            .split_takes()
            .into_iter()
            .map(|i| (i, c.unequal(i)))
            .collect();
        let g = kernel::naive(&c, 400, &NO).unwrap();
        for n in (100..400).step_by(7) {
            for old in [n - 20, n - 3, n] {
                let want = new_moves(&c, &g, n, old);
                for v in 0..=g.iter().copied().max().unwrap() + 1 {
                    let got = new_move_reaches(&c, &takes, &g, (n, old), v);
                    assert_eq!(got, want.contains(&v), "{} n {n} old {old} v {v}", c.text());
                }
            }
        }
    }
}

/// Waits up to 10 s for `flag` (a test fails rather than hangs).
fn wait_until(flag: &AtomicBool) -> bool {
    let t = std::time::Instant::now();
    while !flag.load(Ordering::Acquire) {
        if t.elapsed().as_secs() >= 10 {
            return false;
        }
        std::thread::yield_now();
    }
    true
}

#[test]
fn a_block_run_computes_each_heap_size_once_in_order_on_both_threads() {
    let pool = pool();
    let scratch = Scratch::new(2, || 0u64);
    let threads = Mutex::new(HashSet::new());
    let other = AtomicBool::new(false);
    let mut got: Vec<(usize, usize)> = Vec::new();
    // 100..=1000 in blocks of 8: the last block is short (901 = 112·8 + 5).
    let run = pool.install(|| {
        let first_thread = std::thread::current().id();
        run_blocks(
            &mut got,
            &scratch,
            (100, 1000, 8),
            |got, s, (m, n0)| {
                // Every heap size before the block is settled.
                assert_eq!(got.len(), n0 - 100);
                let me = std::thread::current().id();
                threads.lock().unwrap().insert(me);
                if me != first_thread {
                    other.store(true, Ordering::Release);
                } else if m == 100 {
                    // The other thread takes a heap size of the first block.
                    assert!(wait_until(&other), "no other thread took a heap size");
                }
                *s += 1;
                (m, n0)
            },
            |got, n0, firsts| {
                assert!(firsts.iter().all(|&(_, b)| b == n0));
                got.extend_from_slice(firsts);
                Ok::<(), ()>(())
            },
        )
    });
    assert_eq!(run, Ok(()));
    assert_eq!(threads.lock().unwrap().len(), 2);
    let heaps: Vec<usize> = got.iter().map(|&(m, _)| m).collect();
    assert_eq!(heaps, (100..=1000).collect::<Vec<_>>());
    assert_eq!(got[900].1, 1000 - 4);
    assert_eq!(scratch.into_inner().sum::<u64>(), 901);
}

#[test]
fn a_block_run_ends_on_an_error() {
    let pool = pool();
    let scratch = Scratch::new(2, || ());
    let mut settled = Vec::new();
    let run = pool.install(|| {
        run_blocks(
            &mut settled,
            &scratch,
            (100, 1000, 8),
            |_, _, (m, _)| m,
            |settled, n0, firsts| {
                if n0 >= 116 {
                    return Err(n0);
                }
                settled.extend_from_slice(firsts);
                Ok(())
            },
        )
    });
    assert_eq!(run, Err(116));
    assert_eq!(settled, (100..116).collect::<Vec<_>>());
}

#[test]
fn a_panic_on_either_thread_reaches_the_caller() {
    let pool = pool();
    let scratch = Scratch::new(2, || ());
    // On the calling thread (its settling), then on the other one: the
    // calling thread takes no heap size of the second block until the
    // other has taken one, and panicked.
    for on_caller in [true, false] {
        let (taken, caller) = (AtomicBool::new(false), Mutex::new(None));
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.install(|| {
                run_blocks(
                    &mut (),
                    &scratch,
                    (0, 99, 8),
                    |_, _, (_, n0)| {
                        let me = std::thread::current().id();
                        if n0 == 0 || on_caller {
                            return;
                        }
                        if Some(me) == *caller.lock().unwrap() {
                            assert!(wait_until(&taken), "no other thread took a heap size");
                        } else {
                            taken.store(true, Ordering::Release);
                            panic!("a kernel's bug on the other thread");
                        }
                    },
                    |_, n0, _| {
                        *caller.lock().unwrap() = Some(std::thread::current().id());
                        assert!(!on_caller || n0 < 16, "a bug in the settling");
                        Ok::<(), ()>(())
                    },
                )
            })
        }));
        let message = caught.expect_err("the panic reaches the caller");
        let text = message
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| message.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let expected = if on_caller { "settling" } else { "thread" };
        assert!(text.contains(expected), "{text}");
        if !on_caller {
            assert!(taken.load(Ordering::Acquire));
        }
    }
}
