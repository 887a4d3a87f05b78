//! The structure of each plane `N3 = c` of three-heap loss sets, next to
//! the two-heap one: `cargo run --release --example plane_lattices -- 100 2,5 4,9 1,4`
//! (heaps `0..=N`, rules `m,n` for take m..n with no repeat; add `misere`).
use nimlab::family::takeaway::planes::{three_heap_planes, two_heap_grid};
use nimlab::family::takeaway::{Rule, TakeForm};
use nimlab::game::Play;
use nimlab::lattice::{Model, analyse};
use std::time::Instant;

fn describe(m: Option<Model>) -> String {
    match m {
        None => "none".into(),
        Some(m) => m
            .parts()
            .iter()
            .map(|s| {
                let l = s.lattice_xy();
                format!(
                    "{} ({},{},{}) {} members {}",
                    s.frame.as_str(),
                    l.p,
                    l.a,
                    l.q,
                    s.frame.region(s.corner),
                    s.members()
                )
            })
            .collect::<Vec<_>>()
            .join("; "),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args[0].parse().unwrap();
    let play = if args.iter().any(|a| a == "misere") {
        Play::Misere
    } else {
        Play::Normal
    };
    for r in args[1..].iter().filter(|a| a.contains(',')) {
        let v: Vec<u32> = r.split(',').map(|x| x.parse().unwrap()).collect();
        let rule = Rule {
            take: TakeForm::Range(v[0], v[1]),
            play,
            no_repeat: true,
        };
        println!(
            "## take {}..{} no repeat ({:?}), heaps 0..={n}",
            v[0], v[1], play
        );
        println!("two heaps: {}", describe(analyse(&two_heap_grid(&rule, n))));
        let t = Instant::now();
        let planes = three_heap_planes(&rule, n);
        let solve = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut last = String::new();
        let mut from = 0;
        for (c, g) in planes.iter().enumerate() {
            let d = describe(analyse(g));
            if d != last {
                if c > 0 {
                    println!("  N3 = {from}..{}: {last}", c - 1);
                }
                last = d;
                from = c;
            }
        }
        println!("  N3 = {from}..{n}: {last}");
        println!(
            "  (three-heap solve {solve:.2} s, {} planes analysed in {:.2} s)",
            planes.len(),
            t.elapsed().as_secs_f64()
        );
    }
}
