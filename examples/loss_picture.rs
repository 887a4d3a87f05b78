//! Prints the two-heap loss set of take m..n (no repeat) as a picture:
//! `cargo run --release --example loss_picture -- M N SIZE [misere]`.
use nimlab::family::takeaway::planes::two_heap_grid;
use nimlab::family::takeaway::{Rule, TakeForm};
use nimlab::game::Play;
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let (m, n, size): (u32, u32, usize) = (
        a[0].parse().unwrap(),
        a[1].parse().unwrap(),
        a[2].parse().unwrap(),
    );
    let play = if a.iter().any(|x| x == "misere") {
        Play::Misere
    } else {
        Play::Normal
    };
    let g = two_heap_grid(
        &Rule {
            take: TakeForm::Range(m, n),
            play,
            no_repeat: true,
        },
        size,
    );
    for y in (0..=size).rev() {
        let line: String = (0..=size)
            .map(|x| if g.get(x, y) { '#' } else { '.' })
            .collect();
        println!("{y:4} {line}");
    }
}
