//! The transposition table: what earlier searches learned about a position, keyed by Zobrist
//! key, shared by every search thread.
//!
//! The table is an array of buckets of any length (so any size in MB works: the bucket index
//! is the high half of `key * bucket_count`), each bucket one 64-byte cache line of four
//! entries.
//! An entry is two `AtomicU64` words:
//!
//! ```text
//!   word 0: check = key ^ data        (a torn write by another thread fails the key test)
//!   word 1: data
//!     63 | 62 .. 58 | 57 56 | 55 .. 48 | 47 .. 32    | 31 .. 16 | 15 .. 0
//!     pv | age (5)  | bound | depth+8  | static eval | score    | move
//!             (2)     (u8)       (i16)        (i16)      (u16)
//! ```
//! The pv bit says the position was on a principal variation when stored (a PV node, or a
//! node whose own table entry had the bit): such positions are searched with less reduction.
//! Readers and writers use relaxed loads and stores of whole words, so reading and writing
//! need no `unsafe` (the two `unsafe` blocks here are hints to the hardware: `prefetch` and
//! `advise_huge_pages`) and no lock: an entry torn by a concurrent writer decodes to a key
//! that does not match and is treated as a miss.
//! The empty entry (both words zero) is never a hit: its bound bits are 0, which decode to no
//! bound at all.
//!
//! Replacement inside a bucket: the entry with the same key if any, else the one with the
//! lowest `depth - 8 * age distance`, so deep entries of the current search survive and
//! entries of older searches go first. Mate scores are stored relative to the node
//! ("mate in 3 from here") and turned back into root-relative scores on probe.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::moves::Move;
use crate::search::params::{MAX_PLY, TB_WIN_BOUND};

/// Kind of score a search result is; also a transposition table field.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

impl Bound {
    fn encode(self) -> u64 {
        match self {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        }
    }

    fn decode(bits: u64) -> Option<Bound> {
        match bits & 3 {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// What a probe finds. `score` is already adjusted to the probing node's ply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The position was on a principal variation when stored.
    pub pv: bool,
}

/// Stored depths are offset so that quiescence depths (down to -8) fit an unsigned byte.
const DEPTH_OFFSET: i32 = 8;
const AGE_BITS: u32 = 5;
const PV_BIT: u64 = 1 << 63;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;
const ENTRIES_PER_BUCKET: usize = 4;

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);
const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8, pv: bool) -> u64 {
    let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    (mv.0 as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (depth << 48)
        | (bound.encode() << 56)
        | ((age as u64) << 58)
        | if pv { PV_BIT } else { 0 }
}

fn unpack_depth(data: u64) -> i32 {
    ((data >> 48) & 0xFF) as i32 - DEPTH_OFFSET
}

fn unpack_age(data: u64) -> u8 {
    (data >> 58) as u8 & AGE_MASK
}

/// Turns a root-relative mate (or table win) score into a node-relative one, for storing.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Turns a stored node-relative mate (or table win) score back into a root-relative one.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// Bumped once per search; entries of older searches are replaced first.
    age: AtomicU8,
}

impl TranspositionTable {
    pub const DEFAULT_MB: usize = 16;

    /// A cleared table of about `mb` megabytes (at least one bucket).
    /// Panics only if even that cannot be allocated; use `try_new` for sizes from users.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).expect("memory for the transposition table")
    }

    /// Like `new`, but reports a failed allocation (a `Hash` value larger than the memory the
    /// system will give) instead of aborting.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, String> {
        let cannot = || format!("cannot allocate {mb} MB for the hash table");
        // Checked: a size from the command line may not fit in a byte count at all.
        let bytes = mb.max(1).checked_mul(1024 * 1024).ok_or_else(cannot)?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets: Vec<Bucket> = Vec::new();
        buckets.try_reserve_exact(count).map_err(|_| cannot())?;
        advise_huge_pages(
            buckets.as_ptr().cast(),
            count * std::mem::size_of::<Bucket>(),
        );
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::default();
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation.
    pub fn new_search(&self) {
        let next = (self.age.load(Ordering::Relaxed) + 1) & AGE_MASK;
        self.age.store(next, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Asks the CPU to start loading `key`'s bucket into the cache, so that the probe made a
    /// little later does not wait for memory. The search calls it with
    /// `Position::key_after(mv)` as soon as a move is picked, so the load overlaps the
    /// pruning decisions, `make_move` and the child's draw checks instead of only the child's
    /// own work (measured against prefetching after `make_move`: README, "Search"). On targets
    /// without a prefetch instruction this does nothing.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: `_mm_prefetch` is `unsafe` only because it is an SSE intrinsic, and SSE is
            // part of the x86_64 baseline, so the instruction exists on every CPU this code
            // runs on. A prefetch is a hint: it never faults and never changes memory, and
            // the pointer comes from a live reference anyway. Why `unsafe` at all: a probe
            // lands on a random bucket and would otherwise wait for memory (measured: README,
            // "Search").
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up; mate scores come back relative to the root, given the node's `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        for entry in &self.bucket(key).entries {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.check.load(Ordering::Relaxed) ^ data != key {
                continue;
            }
            let bound = Bound::decode(data >> 56)?;
            return Some(TtHit {
                mv: Move(data as u16),
                score: score_from_tt((data >> 16) as u16 as i16 as i32, ply.min(MAX_PLY)),
                eval: (data >> 32) as u16 as i16 as i32,
                depth: unpack_depth(data),
                bound,
                pv: data & PV_BIT != 0,
            });
        }
        None
    }

    /// Records a search result. A null `mv` keeps the move already stored for this key.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for entry in &bucket.entries {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.check.load(Ordering::Relaxed);
            if check ^ data == key && Bound::decode(data >> 56).is_some() {
                // Same position: keep a deeper result of this search unless the new one is
                // exact, and keep the old move when the new result has none.
                let old_depth = unpack_depth(data);
                if bound != Bound::Exact && unpack_age(data) == age && depth + 3 < old_depth {
                    return;
                }
                let mv = if mv.is_null() { Move(data as u16) } else { mv };
                write(
                    entry,
                    key,
                    pack(mv, score_to_tt(score, ply), eval, depth, bound, age, pv),
                );
                return;
            }
            let age_distance = (age.wrapping_sub(unpack_age(data)) & AGE_MASK) as i32;
            let worth = if Bound::decode(data >> 56).is_none() {
                i32::MIN
            } else {
                unpack_depth(data) - 8 * age_distance
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = entry;
            }
        }
        write(
            victim,
            key,
            pack(mv, score_to_tt(score, ply), eval, depth, bound, age, pv),
        );
    }

    /// Occupancy in per mille, sampled over the first 1000 entries (current search only).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let mut used: u32 = 0;
        let mut seen: u32 = 0;
        'buckets: for bucket in &self.buckets {
            for entry in &bucket.entries {
                if seen == 1000 {
                    break 'buckets;
                }
                seen += 1;
                let data = entry.data.load(Ordering::Relaxed);
                if Bound::decode(data >> 56).is_some() && unpack_age(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

/// Asks Linux to back the table with 2 MB pages (transparent huge pages, which this kernel
/// setting gives only to memory that asks for them). A probe lands on a random bucket, so
/// with 4 KB pages nearly every probe also misses the TLB; with 2 MB pages a 16 MB table
/// needs 8 TLB entries. Must run before the memory is first touched. A refusal (no THP
/// support, `never` mode) changes nothing but speed (measured: README, "Search").
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *const u8, len: usize) {
    // The C library's `madvise(2)`; the standard library links it on Linux anyway.
    unsafe extern "C" {
        fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    const PAGE: usize = 4096;
    // madvise wants page-aligned bounds: advise the whole pages inside the allocation.
    let begin = (start as usize).next_multiple_of(PAGE);
    let end = (start as usize + len) / PAGE * PAGE;
    if end > begin {
        // SAFETY: [begin, end) lies inside a live allocation this table owns, and
        // MADV_HUGEPAGE is only advice about how to back it: it neither frees, moves nor
        // changes the memory's contents, so no Rust reference can observe it. The result is
        // ignored on purpose (failure means 4 KB pages, as without the call).
        unsafe { madvise(begin as *mut u8, end - begin, MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *const u8, _len: usize) {}

#[inline(always)]
fn write(entry: &Entry, key: u64, data: u64) {
    entry.check.store(key ^ data, Ordering::Relaxed);
    entry.data.store(data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_mate_adjustment() {
        let table = TranspositionTable::new(1);
        let key = 0x1234_5678_9ABC_DEF0;
        let mate_in_3_from_root = crate::search::MATE - 5;
        table.store(
            key,
            2,
            Move(777),
            mate_in_3_from_root,
            -42,
            7,
            Bound::Lower,
            true,
        );
        let hit = table.probe(key, 2).expect("stored");
        assert!(hit.pv);
        assert_eq!(hit.mv, Move(777));
        assert_eq!(hit.score, mate_in_3_from_root);
        assert_eq!(hit.eval, -42);
        assert_eq!(hit.depth, 7);
        assert_eq!(hit.bound, Bound::Lower);
        // Seen from a node two plies deeper, the same mate is two plies closer to the root.
        assert_eq!(
            table.probe(key, 4).expect("stored").score,
            mate_in_3_from_root - 2
        );
        assert!(table.probe(key ^ 1, 2).is_none());
    }

    #[test]
    fn the_pv_bit_is_kept_apart_from_the_age() {
        let table = TranspositionTable::new(1);
        let key = 0x0F0F_0F0F_1234_5678;
        for _ in 0..(AGE_MASK as usize + 3) {
            table.new_search();
        }
        table.store(key, 0, Move(5), 10, 20, 3, Bound::Exact, true);
        assert!(table.probe(key, 0).expect("stored").pv);
        // The same generation replaces it (exact result), now off the PV.
        table.store(key, 0, Move(5), 11, 20, 4, Bound::Exact, false);
        let hit = table.probe(key, 0).expect("stored");
        assert!(!hit.pv);
        assert_eq!((hit.score, hit.depth), (11, 4));
        // The pv bit does not leak into the age: the entry counts as this search's.
        table.store(key ^ 1, 0, Move(6), 10, 20, 3, Bound::Exact, true);
        let ages: Vec<u8> = table
            .bucket(key)
            .entries
            .iter()
            .map(|entry| entry.data.load(Ordering::Relaxed))
            .filter(|&data| data != 0)
            .map(unpack_age)
            .collect();
        assert_eq!(ages.len(), 2);
        assert!(
            ages.iter()
                .all(|&age| age == table.age.load(Ordering::Relaxed))
        );
    }
}
