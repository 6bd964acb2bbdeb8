//! Vectors recycled per thread for the connection searches (`vc.rs`).
//!
//! A solver node asks for some ten connection graphs (both colours, and
//! each candidate move of a semi-connection or threat), each of a dozen
//! vectors. Allocating them afresh cost about a seventh of the solver's
//! time on 6×6 (`perf`: `malloc`, `free` and `realloc` under
//! `Graph::from_groups`, `wins_in_one` and the path search). Taken from
//! here and given back when done, they keep their capacity, so a warm
//! thread allocates nothing for them. Graphs nest (a colour's groups stay
//! while the other colour's graph is searched), so each element type has a
//! stack of spare vectors, not a single one.

use std::cell::RefCell;
use std::thread::LocalKey;

/// One thread's spare vectors of one element type.
pub(super) type Spares<T> = LocalKey<RefCell<Vec<Vec<T>>>>;

/// Most spare vectors kept of one type (more than the searches ever hold
/// at once).
const KEEP: usize = 32;

thread_local! {
    /// Spare vectors of bytes.
    pub(super) static BYTES: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
    /// Spare vectors of 16-bit words (points, nodes).
    pub(super) static WORDS: RefCell<Vec<Vec<u16>>> = const { RefCell::new(Vec::new()) };
    /// Spare vectors of 32-bit words (link indices).
    pub(super) static INDICES: RefCell<Vec<Vec<u32>>> = const { RefCell::new(Vec::new()) };
    /// Spare vectors of 64-bit words (bitsets).
    pub(super) static BITS: RefCell<Vec<Vec<u64>>> = const { RefCell::new(Vec::new()) };
    /// Spare vectors of flags.
    pub(super) static FLAGS: RefCell<Vec<Vec<bool>>> = const { RefCell::new(Vec::new()) };
}

/// An empty vector from `spares` (with the capacity it had), or a new one.
pub(super) fn take<T: 'static>(spares: &'static Spares<T>) -> Vec<T> {
    spares
        .try_with(|s| s.borrow_mut().pop())
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// `len` copies of `value` in a vector from `spares`.
pub(super) fn filled<T: Clone + 'static>(
    spares: &'static Spares<T>,
    len: usize,
    value: T,
) -> Vec<T> {
    let mut v = take(spares);
    v.resize(len, value);
    v
}

/// Gives `v` back to `spares`, emptied (a vector that never allocated is
/// dropped).
pub(super) fn give<T: 'static>(spares: &'static Spares<T>, mut v: Vec<T>) {
    if v.capacity() == 0 {
        return;
    }
    v.clear();
    let _ = spares.try_with(|s| {
        let mut s = s.borrow_mut();
        if s.len() < KEEP {
            s.push(v);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_given_back_comes_again_empty_with_its_capacity() {
        let mut v = filled(&WORDS, 100, 7u16);
        assert_eq!(v, vec![7; 100]);
        v.push(1);
        let capacity = v.capacity();
        let address = v.as_ptr();
        give(&WORDS, v);
        let again = take(&WORDS);
        assert!(again.is_empty());
        assert_eq!((again.capacity(), again.as_ptr()), (capacity, address));
        // A vector that never allocated is not kept.
        give(&WORDS, again);
        give(&WORDS, Vec::new());
        assert_eq!(take(&WORDS).capacity(), capacity);
        assert_eq!(take(&WORDS).capacity(), 0);
    }

    #[test]
    fn at_most_keep_spares_are_kept() {
        for _ in 0..KEEP + 5 {
            give(&BYTES, vec![0u8; 4]);
        }
        assert_eq!(BYTES.with(|s| s.borrow().len()), KEEP);
    }
}
