//! The transposition table: a fixed array of two-entry buckets indexed by the
//! Zobrist hash. In each bucket the first slot keeps the deepest result (or
//! any result of an older search), the second always takes the newest.

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

/// A transposition table for moves of type `M`.
pub struct Table<M> {
    buckets: Vec<[Option<Entry<M>>; 2]>,
    age: u8,
}

impl<M: Copy> Table<M> {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Self {
        let bucket = std::mem::size_of::<[Option<Entry<M>>; 2]>().max(1);
        let count = (mb.max(1) * 1024 * 1024 / bucket).next_power_of_two() / 2;
        Table {
            buckets: vec![[None, None]; count.max(1)],
            age: 0,
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = [None, None]);
    }

    /// Marks the start of a new search (older entries become replaceable).
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.buckets.len() - 1)
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let b = &self.buckets[self.index(key)];
        b.iter().flatten().find(|e| e.key == key).copied()
    }

    /// Stores a result.
    pub fn store(&mut self, key: u64, depth: i16, score: Score, bound: Bound, best: Option<M>) {
        let age = self.age;
        let i = self.index(key);
        let bucket = &mut self.buckets[i];
        let entry = Entry {
            key,
            depth,
            age,
            bound,
            score,
            best,
        };
        let keep_best = |old: &Entry<M>| match best {
            Some(_) => best,
            None => old.best,
        };
        match &mut bucket[0] {
            Some(old) if old.key == key => {
                if depth >= old.depth || bound == Bound::Exact {
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
        bucket[1] = Some(entry);
    }

    /// Number of buckets (for tests and reports).
    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    /// Whether the table has no buckets (never: kept for API symmetry).
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }
}
