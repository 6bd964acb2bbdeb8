//! The transposition table, shared by all search threads: a fixed array of
//! two-entry buckets indexed by the Zobrist hash, each behind its own lock
//! (uncontended locks cost little next to a node's work). In each bucket the
//! first slot keeps the deepest result of the current search, the second
//! always takes the newest.

use std::sync::Mutex;

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

type Bucket<M> = [Option<Entry<M>>; 2];

/// A transposition table for moves of type `M`.
pub struct Table<M> {
    buckets: Vec<Mutex<Bucket<M>>>,
    age: u8,
}

impl<M: Copy> Table<M> {
    /// A table of about `mb` megabytes (at least one bucket).
    ///
    /// # Panics
    /// When the memory cannot be had; [`Table::try_new`] reports it instead.
    pub fn new(mb: usize) -> Self {
        Self::try_new(mb).expect("transposition table allocation")
    }

    /// A table of about `mb` megabytes, or an error when the memory cannot
    /// be had.
    pub fn try_new(mb: usize) -> Result<Self, String> {
        let bucket = std::mem::size_of::<Mutex<Bucket<M>>>().max(1);
        let count = (mb.max(1) * 1024 * 1024 / bucket).next_power_of_two() / 2;
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count.max(1))
            .map_err(|_| format!("cannot allocate a {mb} MB table"))?;
        buckets.extend((0..count.max(1)).map(|_| Mutex::new([None, None])));
        Ok(Table { buckets, age: 0 })
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            *b.get_mut().unwrap_or_else(|e| e.into_inner()) = [None, None];
        }
    }

    /// Marks the start of a new search (older entries become replaceable).
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn bucket(&self, key: u64) -> std::sync::MutexGuard<'_, Bucket<M>> {
        let i = (key as usize) & (self.buckets.len() - 1);
        self.buckets[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.bucket(key)
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .copied()
    }

    /// Stores a result.
    pub fn store(&self, key: u64, depth: i16, score: Score, bound: Bound, best: Option<M>) {
        let age = self.age;
        let mut bucket = self.bucket(key);
        let entry = Entry {
            key,
            depth,
            age,
            bound,
            score,
            best,
        };
        let keep_best = |old: &Entry<M>| best.or(old.best);
        match &mut bucket[0] {
            Some(old) if old.key == key => {
                if depth >= old.depth || bound == Bound::Exact || old.age != age {
                    let b = keep_best(old);
                    *old = Entry { best: b, ..entry };
                }
                return;
            }
            Some(old) if old.age == age && old.depth > depth => {}
            slot => {
                *slot = Some(entry);
                return;
            }
        }
        if let Some(old) = &bucket[1]
            && old.key == key
        {
            let b = keep_best(old);
            bucket[1] = Some(Entry { best: b, ..entry });
        } else {
            bucket[1] = Some(entry);
        }
    }

    /// Number of buckets.
    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    /// Whether the table has no buckets (never: kept for API symmetry).
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
