//! The heap's growth while something runs, counted by the allocator: the
//! dry run measures the stages after solving on tables of a few hundred
//! KiB, where the process's resident memory moves by whole pages and by
//! what the allocator keeps, not by what the stage holds. Counting is off
//! outside [`growth_during`]: an allocation then costs one relaxed load
//! more than the system allocator's.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

/// The system allocator, counting the bytes allocated less those freed
/// while [`COUNTING`] is set.
pub struct Counting;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Whether allocations are counted now.
static COUNTING: AtomicBool = AtomicBool::new(false);
/// Bytes allocated less bytes freed since counting started (negative when
/// more was freed than allocated: memory held before).
static NET: AtomicI64 = AtomicI64::new(0);
/// The most [`NET`] has been since counting started.
static PEAK: AtomicI64 = AtomicI64::new(0);
/// One count at a time (tests run side by side in one process).
static ONE: Mutex<()> = Mutex::new(());

fn grew(bytes: usize) {
    let now = NET.fetch_add(bytes as i64, Ordering::Relaxed) + bytes as i64;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

fn shrank(bytes: usize) {
    NET.fetch_sub(bytes as i64, Ordering::Relaxed);
}

// SAFETY: every call goes to `System` with the caller's arguments; the
// counting touches only atomics and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() && COUNTING.load(Ordering::Relaxed) {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() && COUNTING.load(Ordering::Relaxed) {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        if COUNTING.load(Ordering::Relaxed) {
            shrank(layout.size());
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() && COUNTING.load(Ordering::Relaxed) {
            let old = layout.size();
            if p == ptr {
                // Grown or shrunk where it lies.
                grew(new_size.saturating_sub(old));
                shrank(old.saturating_sub(new_size));
            } else {
                // Moved: a new block beside the old, then the old freed.
                grew(new_size);
                shrank(old);
            }
        }
        p
    }
}

/// Runs `f` and returns what it returned and the most the heap grew
/// while it ran (every thread's allocations), in bytes, beyond what the
/// process held before: 0 where it only freed.
pub fn growth_during<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    NET.store(0, Ordering::Relaxed);
    PEAK.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::SeqCst);
    let counting = Counted;
    let out = f();
    drop(counting);
    (out, PEAK.load(Ordering::Relaxed).max(0) as u64)
}

/// Whether allocations are counted now (outside [`growth_during`], never:
/// not even after a closure counted panicked).
pub fn counting() -> bool {
    COUNTING.load(Ordering::SeqCst)
}

/// Stops the count when dropped, also where the closure counted panics.
struct Counted;

impl Drop for Counted {
    fn drop(&mut self) {
        COUNTING.store(false, Ordering::SeqCst);
    }
}
