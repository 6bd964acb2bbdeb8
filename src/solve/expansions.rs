//! The solver's memory of how it expanded a node: for a game whose
//! knowledge is asked once a node ([`Knowledge::LAZY`](super::Knowledge))
//! and answers by the position alone
//! ([`Knowledge::ANSWERS_BY_POSITION`](super::Knowledge)),
//! the answer of `forced_winner` and the moves left after the pruning and
//! the ordering. Df-pn enters a node many times (each time its parent
//! picks it again with larger thresholds), and without this memory each
//! entry asks the knowledge anew (on Onyx 6×6, the knowledge is most of
//! a node's time).
//!
//! The answers are then functions of the position alone (the table trusts
//! the same 64-bit hash), so a node expanded from here is expanded exactly
//! as it was the first time: the solver searches the same tree, faster.
//! (Hex's connections are updated from an ancestor's, so its answers
//! depend on the path; there the memory changed the trees and was not
//! faster, docs/solutions.md.) An entry is kept only for a complete
//! expansion (never one a limit cut short) and only within one proof
//! ([`Expansions::forget`] at the start of each), since the knowledge's
//! settings may change between proofs.

use crate::game::Color;

/// The fewest and the most entries of the memory (a slot each by the
/// hash's high bits, the newest expansion taking the slot).
const MIN_ENTRIES: usize = 1 << 10;
const MAX_ENTRIES: usize = 1 << 22;

/// The memory's entries for a table of `table_entries` entries: the
/// largest power of two at most a sixteenth of them, within
/// [`MIN_ENTRIES`]`..=`[`MAX_ENTRIES`]. Long proofs enter more distinct
/// nodes again, so the memory grows with the table (on Onyx 6×6, 150 s:
/// 2^22 entries searched 17% more nodes a second than 2^16,
/// docs/solutions.md). An entry takes some 40 bytes and its moves about
/// 200 more once filled, so a full memory is at most about half the
/// table's size, and at most about 1 GB.
pub(super) fn entries_for(table_entries: usize) -> usize {
    let target = (table_entries / 16).clamp(MIN_ENTRIES, MAX_ENTRIES);
    1 << target.ilog2()
}

/// One remembered expansion.
struct Expansion<M> {
    /// The position's hash (0 with `generation` 0: never written).
    hash: u64,
    /// The proof it belongs to.
    generation: u32,
    /// What `forced_winner` answered.
    forced: Option<Color>,
    /// The moves as the pruning and the ordering left them.
    moves: Vec<M>,
}

/// A direct-mapped memory of expansions (allocated at the first store).
pub(super) struct Expansions<M> {
    entries: Vec<Expansion<M>>,
    /// The current proof's number (entries of other proofs are stale);
    /// from 1.
    generation: u32,
    /// The number of slots (a power of two; `entries` holds them once
    /// allocated).
    slots: usize,
}

impl<M: Copy> Default for Expansions<M> {
    fn default() -> Self {
        Expansions {
            entries: Vec::new(),
            generation: 1,
            slots: MIN_ENTRIES,
        }
    }
}

impl<M: Copy> Expansions<M> {
    /// Forgets every entry (a new proof; O(1)), and makes the memory
    /// `slots` entries (a power of two; freed when it changes, allocated
    /// again at the first store).
    pub(super) fn forget(&mut self, slots: usize) {
        debug_assert!(slots.is_power_of_two());
        if slots != self.slots {
            self.slots = slots;
            self.entries = Vec::new();
        }
        self.generation = self.generation.wrapping_add(1).max(1);
        if self.generation == 1 {
            // Wrapped around: old entries could look current.
            self.entries.clear();
        }
    }

    /// The remembered expansion of the position `hash`: its
    /// `forced_winner`, with its moves copied into `moves` (cleared
    /// first). `None` when it is not remembered (`moves` left as it was).
    pub(super) fn get(&self, hash: u64, moves: &mut Vec<M>) -> Option<Option<Color>> {
        let e = self.entries.get(self.slot(hash))?;
        if e.generation != self.generation || e.hash != hash {
            return None;
        }
        moves.clear();
        moves.extend_from_slice(&e.moves);
        Some(e.forced)
    }

    /// The slot of a hash: its high bits (the table's buckets take the
    /// low ones).
    fn slot(&self, hash: u64) -> usize {
        (hash >> (64 - self.slots.trailing_zeros())) as usize
    }

    /// Remembers the complete expansion of the position `hash`.
    pub(super) fn put(&mut self, hash: u64, forced: Option<Color>, moves: &[M]) {
        if self.entries.is_empty() {
            self.entries.resize_with(self.slots, || Expansion {
                hash: 0,
                generation: 0,
                forced: None,
                moves: Vec::new(),
            });
        }
        let generation = self.generation;
        let slot = self.slot(hash);
        let e = &mut self.entries[slot];
        e.hash = hash;
        e.generation = generation;
        e.forced = forced;
        e.moves.clear();
        e.moves.extend_from_slice(moves);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_expansion_is_remembered_within_one_proof_only() {
        let mut x: Expansions<u16> = Expansions::default();
        x.forget(1 << 12);
        let mut moves = vec![9];
        assert_eq!(x.get(42, &mut moves), None);
        assert_eq!(moves, [9], "a miss leaves the moves alone");
        x.put(42, Some(Color::White), &[3, 1, 2]);
        assert_eq!(x.get(42, &mut moves), Some(Some(Color::White)));
        assert_eq!(moves, [3, 1, 2]);
        // Another hash in the same slot is not this one.
        assert_eq!(x.get(42 ^ 1 << 20, &mut moves), None);
        // Hashes differing in the high bits take other slots.
        x.put(42 | 1 << 63, None, &[5]);
        assert_eq!(x.get(42, &mut moves), Some(Some(Color::White)));
        x.put(7, None, &[]);
        assert_eq!(x.get(7, &mut moves), Some(None));
        assert!(moves.is_empty());
        x.forget(1 << 12);
        assert_eq!(x.get(42, &mut moves), None);
        assert_eq!(x.get(7, &mut moves), None);
        // Resized: nothing is kept.
        x.put(42, None, &[1]);
        x.forget(1 << 13);
        assert_eq!(x.get(42, &mut moves), None);
    }

    #[test]
    fn the_memory_grows_with_the_table() {
        assert_eq!(entries_for(0), MIN_ENTRIES);
        assert_eq!(entries_for(usize::MAX), MAX_ENTRIES);
        // The default 64 MB table: 4,194,304 entries of 16 bytes.
        assert_eq!(entries_for((64 << 20) / 16), 1 << 18);
        assert_eq!(entries_for((2048 << 20) / 16), 1 << 22);
        for n in [5_000, 1 << 20, 3 << 22] {
            let e = entries_for(n);
            assert!(e.is_power_of_two() && e <= (n / 16).max(MIN_ENTRIES));
        }
    }
}
