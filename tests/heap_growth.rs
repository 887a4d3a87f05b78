//! The heap's growth counted by nimlab's allocator (`nimlab::mem::heap`),
//! in a test binary of its own: the count is the whole process's, and the
//! library's tests allocate beside one another.

use nimlab::mem::heap::{counting, growth_during};

/// A vector of 3 MiB held, then one of 1 MiB after it was freed: the heap
/// grew by 3 MiB (what was held at once), give or take this test's own
/// few KiB. Memory held before and freed inside counts as no growth.
#[test]
fn the_most_held_at_once_is_counted() {
    let mib = 1usize << 20;
    let ((), grown) = growth_during(|| {
        let a = vec![1u8; 3 * mib];
        std::hint::black_box(&a);
        drop(a);
        let b = vec![1u8; mib];
        std::hint::black_box(&b);
    });
    assert!(grown >= 3 * mib as u64, "{grown}");
    assert!(grown < 3 * mib as u64 + (64 << 10), "{grown}");

    let held = vec![1u8; 2 * mib];
    std::hint::black_box(&held);
    let ((), grown) = growth_during(move || drop(held));
    assert!(grown < 64 << 10, "{grown}");

    // A vector grown by pushes is reallocated as it doubles: its final 1
    // MiB is counted (nothing but a few bytes, were reallocations not),
    // and where a block moves the old and the new at once, at most 1.5
    // MiB.
    let (v, grown) = growth_during(|| {
        let mut v = Vec::new();
        for i in 0..mib as u32 / 4 {
            v.push(std::hint::black_box(i));
        }
        v
    });
    std::hint::black_box(&v);
    assert!(grown >= mib as u64, "{grown}");
    assert!(grown <= (3 * mib as u64) / 2 + (64 << 10), "{grown}");
    drop(v);

    // A panic inside stops the count (every allocation after would be
    // counted) and leaves the next count working (its lock poisoned).
    let caught = std::panic::catch_unwind(|| growth_during(|| panic!("inside")));
    assert!(caught.is_err());
    assert!(!counting());
    let ((), grown) = growth_during(|| {});
    assert!(grown < 64 << 10, "{grown}");
}
