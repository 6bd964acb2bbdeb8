//! The transposition table, shared by all search threads: a fixed array of
//! two-entry buckets indexed by the Zobrist hash, each behind its own
//! one-byte spin lock (uncontended locks cost little next to a node's work).
//! In each bucket the first slot keeps the deepest result of the current
//! search, the second always takes the newest.
//!
//! Memory: the table is allocated zeroed, and an all-zero bucket is an
//! empty one, so the operating system hands out its pages only as searches
//! touch them (a 16 GB table costs nothing until it fills, and a new game's
//! table does not double the memory while the old one is freed). Clearing
//! is free too: each clear starts a new *epoch*, whose salt is mixed into
//! the stored keys, so earlier entries never match again and count as
//! empty.

use std::alloc::Layout;
use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU8, Ordering};

use super::Score;

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The value itself.
    Exact,
    /// The value is at least the score (a cutoff).
    Lower,
    /// The value is at most the score (no move raised alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    /// Full hash of the position.
    pub key: u64,
    /// Depth searched.
    pub depth: i16,
    /// Which search stored it.
    pub age: u8,
    /// Kind of score.
    pub bound: Bound,
    /// The score (wins relative to this node).
    pub score: Score,
    /// The best move found.
    pub best: Option<M>,
}

/// A slot as stored: all zero is empty. `meta` holds the bound (1 to 3; 0
/// for an empty slot) and, in bit 2, whether `best` holds a move.
struct Slot<M> {
    /// The position's key, salted with the epoch it was stored in.
    key: u64,
    score: Score,
    depth: i16,
    age: u8,
    meta: u8,
    best: MaybeUninit<M>,
}

const HAS_BEST: u8 = 4;

impl<M: Copy> Slot<M> {
    fn read(&self, salt: u64) -> Option<Entry<M>> {
        let bound = match self.meta & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            key: self.key ^ salt,
            depth: self.depth,
            age: self.age,
            bound,
            score: self.score,
            // SAFETY: `best` is written whenever HAS_BEST is set.
            best: (self.meta & HAS_BEST != 0).then(|| unsafe { self.best.assume_init() }),
        })
    }

    fn write(e: &Entry<M>, salt: u64) -> Self {
        let bound = match e.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        Slot {
            key: e.key ^ salt,
            score: e.score,
            depth: e.depth,
            age: e.age,
            meta: bound | if e.best.is_some() { HAS_BEST } else { 0 },
            best: e.best.map_or(MaybeUninit::uninit(), MaybeUninit::new),
        }
    }
}

/// Two slots and their lock; all zero is an unlocked, empty bucket.
struct Bucket<M> {
    lock: AtomicU8,
    slots: UnsafeCell<[Slot<M>; 2]>,
}

// SAFETY: the slots are only reached while `lock` is held.
unsafe impl<M: Send> Sync for Bucket<M> {}

/// A locked bucket; unlocks when dropped.
struct Guard<'a, M> {
    bucket: &'a Bucket<M>,
}

impl<M> Guard<'_, M> {
    fn slots(&mut self) -> &mut [Slot<M>; 2] {
        // SAFETY: the lock is held for the guard's life.
        unsafe { &mut *self.bucket.slots.get() }
    }
}

impl<M> Drop for Guard<'_, M> {
    fn drop(&mut self) {
        self.bucket.lock.store(0, Ordering::Release);
    }
}

/// A transposition table for moves of type `M`.
pub struct Table<M> {
    buckets: Box<[Bucket<M>]>,
    age: u8,
    /// Mixed into every stored key: a new epoch (a clear) makes every
    /// earlier entry unreachable. Zero in the first epoch.
    salt: u64,
}

/// Megabytes of memory the system can still give (`MemAvailable` of
/// `/proc/meminfo`), where the system says.
pub fn available_memory_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Whether a table of `mb` megabytes fits in `available` megabytes of
/// memory: a table that would fill more than the memory the machine can
/// give would end with the process killed, so it is refused with a reason.
pub fn table_fits(mb: usize, available: usize) -> Result<(), String> {
    if mb > available {
        Err(format!(
            "a {mb} MB table does not fit: {available} MB of memory are available"
        ))
    } else {
        Ok(())
    }
}

/// Whether the machine can hold a table of `mb` megabytes that replaces
/// tables of `held_mb` megabytes, checked before any table is allocated
/// (the searcher's and the solver's, by `param hash` and `param
/// solve_hash`): refused with a reason when larger than the memory
/// available ([`available_memory_mb`], where the system says, with the
/// replaced tables' counted as freed), or when the process cannot have
/// that much address space (`ulimit -v`, overcommit limits). The second
/// check allocates the size and frees it at once, touching nothing, so a
/// later allocation of the table cannot fail where an allocation failure
/// would abort the process.
pub fn check_table_size(mb: usize, held_mb: usize) -> Result<(), String> {
    if let Some(available) = available_memory_mb() {
        table_fits(mb, available.saturating_add(held_mb))?;
    }
    let cannot = || format!("cannot allocate a {mb} MB table");
    let bytes = mb.checked_mul(1024 * 1024).ok_or_else(cannot)?;
    let layout = Layout::from_size_align(bytes.max(1), 4096).map_err(|_| cannot())?;
    // SAFETY: the layout has a non-zero size; the memory, never read or
    // written, is freed with the same layout. (`black_box`: an allocation
    // freed unused may otherwise be optimised away, and the check with it.)
    unsafe {
        let ptr = std::hint::black_box(std::alloc::alloc(layout));
        if ptr.is_null() {
            return Err(cannot());
        }
        std::alloc::dealloc(ptr, layout);
    }
    Ok(())
}

/// Asks the processor to bring the bytes `[at, at + len)` of a large
/// table into its cache, for a read soon after (a hint: never a fault,
/// nothing on processors other than x86-64).
#[inline]
pub fn prefetch<T>(at: *const T, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        let start = at as usize & !63;
        let end = at as usize + len.max(1);
        for line in (start..end).step_by(64) {
            // SAFETY: a prefetch is a hint and never accesses memory in a
            // way that can fault, whatever the address.
            unsafe {
                std::arch::x86_64::_mm_prefetch(line as *const i8, std::arch::x86_64::_MM_HINT_T0);
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (at, len);
}

/// The size of a huge page ([`advise_huge_pages`]).
const HUGE_PAGE: usize = 2 << 20;

/// Asks the system to back `memory`, a large table not yet touched, with
/// huge pages (Linux's transparent huge pages, `madvise(MADV_HUGEPAGE)`,
/// on the whole 2 MB pages inside it): a table read at random misses the
/// TLB on nearly every read with 4 KB pages, far less with 2 MB ones. The
/// contents are unchanged; on other systems, where the system refuses, or
/// where transparent huge pages are off, nothing happens.
pub fn advise_huge_pages<T>(memory: &[T]) {
    let start = memory.as_ptr() as usize;
    let end = start + std::mem::size_of_val(memory);
    let first = start.next_multiple_of(HUGE_PAGE);
    let last = end / HUGE_PAGE * HUGE_PAGE;
    if last <= first {
        return;
    }
    #[cfg(target_os = "linux")]
    // SAFETY: the range lies inside `memory`, which this process owns;
    // the advice changes how pages are backed, never what they hold.
    unsafe {
        libc::madvise(
            first as *mut libc::c_void,
            last - first,
            libc::MADV_HUGEPAGE,
        );
    }
}

impl<M: Copy> Table<M> {
    /// A table of about `mb` megabytes (at least one bucket).
    ///
    /// # Panics
    /// When the memory cannot be had; [`Table::try_new`] reports it instead.
    pub fn new(mb: usize) -> Self {
        Self::try_new(mb).expect("transposition table allocation")
    }

    /// A table of about `mb` megabytes, or an error when the address space
    /// cannot be had. The memory is committed only as it is used.
    pub fn try_new(mb: usize) -> Result<Self, String> {
        let count = Self::buckets_for(mb);
        let layout = Layout::array::<Bucket<M>>(count)
            .map_err(|_| format!("a {mb} MB table is too large"))?;
        // SAFETY: the layout has a non-zero size (at least one bucket of
        // non-zero size); an all-zero `Bucket` is valid (an unlocked lock,
        // integers, and `MaybeUninit` moves), so the zeroed memory holds
        // `count` initialised buckets, owned by the box from here on.
        let buckets = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout) as *mut Bucket<M>;
            if ptr.is_null() {
                return Err(format!("cannot allocate a {mb} MB table"));
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, count))
        };
        advise_huge_pages(&buckets);
        Ok(Table {
            buckets,
            age: 0,
            salt: 0,
        })
    }

    /// The number of buckets of an `mb` megabyte table: a power of two.
    fn buckets_for(mb: usize) -> usize {
        let bucket = std::mem::size_of::<Bucket<M>>().max(1);
        ((mb.max(1) * 1024 * 1024 / bucket).next_power_of_two() / 2).max(1)
    }

    /// Empties the table, at no cost: a new epoch begins.
    pub fn clear(&mut self) {
        self.salt = self.salt.wrapping_add(0x9E37_79B9_7F4A_7C15);
        // Entries of the last epoch count as another search's, so they
        // never keep a slot from the new ones.
        self.age = self.age.wrapping_add(1);
    }

    /// Marks the start of a new search (older entries become replaceable).
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn bucket(&self, key: u64) -> Guard<'_, M> {
        let bucket = &self.buckets[(key as usize) & (self.buckets.len() - 1)];
        while bucket
            .lock
            .compare_exchange_weak(0, 1, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            std::hint::spin_loop();
        }
        Guard { bucket }
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let salt = self.salt;
        let mut guard = self.bucket(key);
        guard
            .slots()
            .iter()
            .filter_map(|s| s.read(salt))
            .find(|e| e.key == key)
    }

    /// Stores a result.
    pub fn store(&self, key: u64, depth: i16, score: Score, bound: Bound, best: Option<M>) {
        let (age, salt) = (self.age, self.salt);
        let mut guard = self.bucket(key);
        let slots = guard.slots();
        let entry = Entry {
            key,
            depth,
            age,
            bound,
            score,
            best,
        };
        let keep_best = |old: &Entry<M>| best.or(old.best);
        match slots[0].read(salt) {
            Some(old) if old.key == key => {
                if depth >= old.depth || bound == Bound::Exact || old.age != age {
                    let b = keep_best(&old);
                    slots[0] = Slot::write(&Entry { best: b, ..entry }, salt);
                }
                return;
            }
            Some(old) if old.age == age && old.depth > depth => {}
            _ => {
                slots[0] = Slot::write(&entry, salt);
                return;
            }
        }
        slots[1] = match slots[1].read(salt) {
            Some(old) if old.key == key => {
                let b = keep_best(&old);
                Slot::write(&Entry { best: b, ..entry }, salt)
            }
            _ => Slot::write(&entry, salt),
        };
    }

    /// Number of buckets.
    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    /// Whether the table has no buckets (never: kept for API symmetry).
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(&*self.buckets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The advice never changes what memory holds, whatever its size and
    /// alignment (empty, smaller than a huge page, unaligned, several).
    #[test]
    fn huge_page_advice_keeps_the_contents() {
        advise_huge_pages::<u64>(&[]);
        advise_huge_pages(&[7u8; 3]);
        let mut big = vec![0u64; 3 * HUGE_PAGE / 8 + 5];
        big[1] = 9;
        advise_huge_pages(&big[1..]);
        for (i, w) in big.iter_mut().enumerate() {
            assert_eq!(*w, if i == 1 { 9 } else { 0 });
            *w = i as u64;
        }
        assert!(big.iter().enumerate().all(|(i, &w)| w == i as u64));
        // A table is advised as it is made, and still fits its size.
        let t = Table::<u16>::new(8);
        assert!(t.bytes() > HUGE_PAGE && t.bytes() <= 8 << 20);
    }

    #[test]
    fn a_table_larger_than_the_memory_is_refused() {
        assert!(table_fits(1024, 2048).is_ok());
        let e = table_fits(16384, 8000).unwrap_err();
        assert!(e.contains("16384 MB") && e.contains("8000 MB"), "{e}");
    }

    /// A size no machine holds is refused, by the memory available where
    /// the system says, else by the allocation; a small one passes.
    #[test]
    fn a_table_size_beyond_any_machine_is_refused_before_allocation() {
        assert_eq!(check_table_size(1, 0), Ok(()));
        for mb in [usize::MAX >> 20, usize::MAX] {
            let e = check_table_size(mb, 0).unwrap_err();
            assert!(
                e.contains("does not fit") || e.contains("cannot allocate"),
                "{e}"
            );
        }
    }

    #[test]
    fn store_and_probe() {
        let t: Table<u16> = Table::new(1);
        t.store(42, 3, 17, Bound::Exact, Some(5));
        let e = t.probe(42).unwrap();
        assert_eq!((e.depth, e.score, e.best), (3, 17, Some(5)));
        assert!(t.probe(43).is_none());
        // A shallower result for the same position keeps the deeper one.
        t.store(42, 1, 3, Bound::Lower, None);
        assert_eq!(t.probe(42).unwrap().depth, 3);
        // Another position in the same bucket goes to the second slot.
        let other = 42 + t.len() as u64;
        t.store(other, 1, 9, Bound::Upper, Some(1));
        assert_eq!(t.probe(other).unwrap().score, 9);
        assert_eq!(t.probe(42).unwrap().score, 17);
        // A result without a move keeps the move stored before.
        t.store(42, 5, 4, Bound::Upper, None);
        let e = t.probe(42).unwrap();
        assert_eq!((e.depth, e.bound, e.best), (5, Bound::Upper, Some(5)));
    }

    #[test]
    fn clearing_forgets_everything_and_the_table_works_on() {
        let mut t: Table<u16> = Table::new(1);
        for k in 0..1000u64 {
            t.store(k * 7919, 4, k as Score, Bound::Exact, Some(k as u16));
        }
        assert!(t.probe(7919).is_some());
        t.clear();
        for k in 0..1000u64 {
            assert!(t.probe(k * 7919).is_none(), "key {k} survived the clear");
        }
        t.store(7919, 1, 8, Bound::Lower, Some(3));
        let e = t.probe(7919).unwrap();
        assert_eq!(
            (e.depth, e.score, e.bound, e.best),
            (1, 8, Bound::Lower, Some(3))
        );
    }

    /// The bucket stays within 64 bytes, so a table of a given size keeps
    /// the number of buckets (and the searcher its trees) it had with the
    /// locked buckets before.
    #[test]
    fn buckets_keep_their_size() {
        assert!(std::mem::size_of::<Bucket<(u16, u16, u16)>>() <= 64);
        assert_eq!(Table::<(u16, u16)>::buckets_for(16), 1 << 18);
    }

    /// A table far larger than what it holds costs no memory up front.
    #[test]
    fn a_large_table_is_committed_lazily() {
        let rss = || -> usize {
            let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
                .unwrap_or(0)
        };
        let before = rss();
        let t: Table<u16> = Table::new(2048);
        t.store(1, 1, 1, Bound::Exact, None);
        let after = rss();
        assert!(t.bytes() >= 1 << 30);
        assert!(
            after < before + 256 * 1024,
            "a 2 GB table took {} kB at once",
            after - before
        );
    }
}
