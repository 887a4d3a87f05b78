use nimlab::family::lines::chords::chordtab::ChordTable;
use std::time::Instant;
fn main() {
    let a: Vec<u32> = std::env::args()
        .skip(1)
        .map(|s| s.parse().unwrap())
        .collect();
    let (r, q, s, th) = (a[0], a[1], a[2], a[3] as usize);
    let t = Instant::now();
    let c = std::sync::atomic::AtomicU64::new(0);
    let _tab = ChordTable::build(r, q, s, th, &|n| {
        c.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    });
    println!(
        "built ({r},{q},{s}) on {th} threads in {:.2} s, {} classes, {:.0} MB",
        t.elapsed().as_secs_f64(),
        c.into_inner(),
        ChordTable::bytes(r, q, s) as f64 / 1e6
    );
}
