//! Memory helpers shared by the solvers.

/// A zeroed vector whose pages the kernel may back with 2 MiB huge pages
/// (Linux transparent huge pages, on request): a 10^8-value Grundy sequence
/// otherwise spends a third of its time in page faults, and a 2^28-position
/// bit table on two threads more than half of it (page faults and TLB
/// shootdowns serialise the threads).
pub fn zeroed_huge<T: Copy + Default>(len: usize) -> Vec<T> {
    let v = vec![T::default(); len];
    #[cfg(target_os = "linux")]
    {
        let bytes = len * std::mem::size_of::<T>();
        if bytes >= 8 << 20 {
            let start = v.as_ptr() as usize;
            let page = 4096;
            let aligned = start.div_ceil(page) * page;
            let end = start + bytes;
            if end > aligned {
                // SAFETY: the range lies inside the vector's allocation, which is
                // page-aligned here; MADV_HUGEPAGE is only advice (it never changes
                // the contents) and a failure is harmless, so the result is ignored.
                unsafe {
                    libc::madvise(
                        aligned as *mut libc::c_void,
                        end - aligned,
                        libc::MADV_HUGEPAGE,
                    );
                }
            }
        }
    }
    v
}
