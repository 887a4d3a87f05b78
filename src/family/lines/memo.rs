//! A concurrent memo: a hash map split into shards, each behind its own lock,
//! so two threads rarely wait for each other.

use std::hash::{BuildHasher, Hash};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rustc_hash::{FxBuildHasher, FxHashMap};

const SHARDS: usize = 64;

/// Key → value, shared between threads.
pub struct Sharded<K, V = u8> {
    shards: Vec<Mutex<FxHashMap<K, V>>>,
    len: AtomicU64,
}

impl<K: Hash + Eq, V> Default for Sharded<K, V> {
    fn default() -> Self {
        Sharded {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(FxHashMap::default()))
                .collect(),
            len: AtomicU64::new(0),
        }
    }
}

impl<K: Hash + Eq, V: Copy> Sharded<K, V> {
    fn shard<Q: Hash + ?Sized>(&self, k: &Q) -> &Mutex<FxHashMap<K, V>> {
        let h = FxBuildHasher.hash_one(k);
        // Bits 40..46: neither the bucket index (low bits) nor hashbrown's tag (top 7 bits).
        &self.shards[(h >> 40) as usize % SHARDS]
    }
    /// The value stored for `k`.
    pub fn get<Q>(&self, k: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.shard(k).lock().unwrap().get(k).copied()
    }
    /// Stores a value (the first one stored wins; all are equal anyway).
    pub fn insert(&self, k: K, v: V) {
        let mut s = self.shard(&k).lock().unwrap();
        if s.insert(k, v).is_none() {
            self.len.fetch_add(1, Ordering::Relaxed);
        }
    }
    /// Number of entries.
    pub fn len(&self) -> u64 {
        self.len.load(Ordering::Relaxed)
    }
    /// Bytes the shards' hash tables have allocated (buckets of one entry
    /// and one control byte each, whether used or not; heap data the keys
    /// own is not included). A table doubles when it is 7/8 full, so this is
    /// 1.1 to 2.3 times the entries' own size.
    pub fn table_bytes(&self) -> u64 {
        let slot = std::mem::size_of::<(K, V)>() as u64 + 1;
        self.shards
            .iter()
            .map(|s| {
                let cap = s.lock().unwrap().capacity() as u64;
                let buckets = if cap == 0 {
                    0
                } else {
                    (cap * 8).div_ceil(7).next_power_of_two()
                };
                buckets * slot
            })
            .sum()
    }
}
