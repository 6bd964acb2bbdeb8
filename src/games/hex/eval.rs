//! Hex evaluation: Queenbee's two-distance potential (van Rijswijck).
//!
//! For one colour the graph's nodes are the empty cells; the colour's own
//! stones are contracted (two empty cells are adjacent when they are
//! neighbours or both touch the same own group) and the opponent's stones
//! are walls. A cell's two-distance to an edge is 1 when it is on that
//! edge or touches an own group that reaches it, and otherwise 1 + the
//! second smallest two-distance among its neighbours. The potential of a
//! colour is the smallest `td(first edge) + td(second edge)` over the
//! cells, its mobility the number of cells reaching it; the score is the
//! opponent's potential minus the side to move's, scaled as Onyx's.
//!
//! The computation is the level-synchronous relaxation on bit sets that
//! Hex shares with Onyx ([`crate::games::two_distance`]: level d's cells
//! add their contracted neighbourhood to `once`, and to `twice` where
//! already in `once`; level d + 1 is the empty part of `twice` not yet
//! placed); this module labels Hex's groups into the contracted
//! neighbourhoods it reads. The cells that connect with one placement
//! (wins at once and threats) are found apart.

use std::cell::RefCell;

use super::board::{Hex, HexMove, edge_bits};
use super::geometry::{Bits, Geometry};
use crate::game::{Color, Game};
use crate::games::two_distance::{self, Td, label_groups, widen_all};
use crate::search::{Evaluator, Score, Tuning, WIN_NEXT_MOVE, loss_in};

/// Hex's evaluation: the two-distance potential of both colours.
#[derive(Clone, Copy, Debug, Default)]
pub struct TwoDistance;

/// The searcher's tuning with [`TwoDistance`]: no pruning margins yet (none
/// has been measured in Hex) and every rule decision exact (Hex has no
/// costly one).
pub const TUNING: Tuning = Tuning {
    futility_margin: None,
    razor_margin: None,
    late_move_limit: None,
    rule_effort: None,
    knowledge_depth: Some(KNOWLEDGE_DEPTH),
    costly_nodes: false,
};

/// Plies left from which the searcher asks the connections besides the
/// root: 6. With the H-search from scratch (13.6 ms on 11×11) this lost
/// to the root only, 15–25 at 0.5 s a move; updated from the parent's
/// search (5.5 ms) it won, 27–13 (docs/tuning-log.md).
pub const KNOWLEDGE_DEPTH: i32 = 6;

pub use crate::games::two_distance::{MAX_TD, TD_INFINITE};
/// Distance reported when a colour can no longer connect.
pub const UNREACHABLE: u16 = 999;

/// Score of one unit of potential.
const STEP: Score = 100;
/// Value of one unit of mobility.
const MOBILITY: Score = 3;
/// Bonus for having the move.
const TEMPO: Score = 30;

/// Calls `$f::<W>($args)` with `W` the smallest supported word count that
/// holds the board (1, 2, 4 or 6).
macro_rules! by_words {
    ($pos:expr, $f:ident($($arg:expr),*)) => {
        match $pos.geometry().words {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 | 4 => $f::<4>($($arg),*),
            _ => $f::<6>($($arg),*),
        }
    };
}

#[inline]
fn any<const W: usize>(a: &[u64; W]) -> bool {
    a.iter().fold(0, |x, &w| x | w) != 0
}

#[inline]
fn count<const W: usize>(a: &[u64; W]) -> u32 {
    a.iter().map(|w| w.count_ones()).sum()
}

#[inline]
fn first<const W: usize>(b: &Bits) -> [u64; W] {
    std::array::from_fn(|k| b[k])
}

/// ORs the neighbour sets of every cell of `set` into `nb`.
#[inline(always)]
fn add_neighbours<const W: usize>(geo: &Geometry, set: &[u64; W], nb: &mut [u64; W]) {
    for (wi, &word) in set.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            let p = wi * 64 + w.trailing_zeros() as usize;
            w &= w - 1;
            let m = &geo.neighbour_bits[p];
            for k in 0..W {
                nb[k] |= m[k];
            }
        }
    }
}

/// The cells where `color`, placing one stone, touches the edge `edge_bit`
/// (directly or through its own stones): the empty cells on that edge or
/// next to an own chain that reaches it.
fn one_step<const W: usize>(pos: &Hex, color: Color, edge_bit: u8) -> [u64; W] {
    let geo = pos.geometry();
    let own: [u64; W] = first(pos.bits(color));
    let edge: [u64; W] = first(geo.edge_set(edge_bit));
    // The own stones joined to the edge, and every cell they touch.
    let mut reached = [0u64; W];
    let mut frontier: [u64; W] = std::array::from_fn(|k| edge[k] & own[k]);
    let mut nb = edge;
    while any(&frontier) {
        for k in 0..W {
            reached[k] |= frontier[k];
        }
        add_neighbours(geo, &frontier, &mut nb);
        frontier = std::array::from_fn(|k| nb[k] & own[k] & !reached[k]);
    }
    let empty: [u64; W] = first(&pos.empty_bits());
    std::array::from_fn(|k| nb[k] & empty[k])
}

/// The cells where `color` connects its edges with one placement.
fn winning_cells<const W: usize>(pos: &Hex, color: Color) -> [u64; W] {
    let (ea, eb) = edge_bits(color);
    let a = one_step::<W>(pos, color, ea);
    let b = one_step::<W>(pos, color, eb);
    std::array::from_fn(|k| a[k] & b[k])
}

/// The cells where `color` connects its edges with one placement.
pub fn winning_cells_of(pos: &Hex, color: Color) -> Bits {
    fn go<const W: usize>(pos: &Hex, color: Color) -> Bits {
        let w = winning_cells::<W>(pos, color);
        let mut out = [0; super::geometry::WORDS];
        out[..W].copy_from_slice(&w);
        out
    }
    by_words!(pos, go(pos, color))
}

/// Number of cells where `color` connects its edges with one placement.
pub fn winning_cell_count(pos: &Hex, color: Color) -> u32 {
    fn go<const W: usize>(pos: &Hex, color: Color) -> u32 {
        count(&winning_cells::<W>(pos, color))
    }
    by_words!(pos, go(pos, color))
}

/// The fewest placements `color` needs to join its edges (own stones cost
/// nothing, empty cells one, opponent stones block), or [`UNREACHABLE`].
pub fn connection_distance(pos: &Hex, color: Color) -> u16 {
    fn go<const W: usize>(pos: &Hex, color: Color) -> u16 {
        let geo = pos.geometry();
        let (ea, eb) = edge_bits(color);
        let own: [u64; W] = first(pos.bits(color));
        let empty: [u64; W] = first(&pos.empty_bits());
        let to: [u64; W] = first(geo.edge_set(eb));
        let mut nb: [u64; W] = first(geo.edge_set(ea));
        let mut reached = [0u64; W];
        let close = |reached: &mut [u64; W], nb: &mut [u64; W]| loop {
            let add: [u64; W] = std::array::from_fn(|k| nb[k] & own[k] & !reached[k]);
            if !any(&add) {
                break;
            }
            for k in 0..W {
                reached[k] |= add[k];
            }
            add_neighbours(geo, &add, nb);
        };
        let meets = |r: &[u64; W]| (0..W).any(|k| r[k] & to[k] != 0);
        close(&mut reached, &mut nb);
        if meets(&reached) {
            return 0;
        }
        for level in 1..=geo.num_cells {
            let new: [u64; W] = std::array::from_fn(|k| nb[k] & empty[k] & !reached[k]);
            if !any(&new) {
                return UNREACHABLE;
            }
            for k in 0..W {
                reached[k] |= new[k];
            }
            add_neighbours(geo, &new, &mut nb);
            close(&mut reached, &mut nb);
            if meets(&reached) {
                return level as u16;
            }
        }
        UNREACHABLE
    }
    by_words!(pos, go(pos, color))
}

/// A thread's working memory: the contracted neighbourhoods (`W` words a
/// cell), the cells around each own group and the levels of two searches.
#[derive(Default)]
struct Scratch {
    contracted: Vec<u64>,
    around: Vec<u64>,
    gedge: Vec<u8>,
    levels: Vec<u64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Labels `own`'s groups into `s.around` / `s.gedge` and tables every
/// cell's contracted neighbourhood in `s.contracted`. Kept out of line:
/// inlined into [`potential`] it cost 1% more instructions (callgrind,
/// `bench 6 hex`).
#[inline(never)]
fn contract<const W: usize>(geo: &Geometry, own: &[u64; W], s: &mut Scratch) {
    s.around.clear();
    s.gedge.clear();
    s.contracted.clear();
    for nb in &geo.neighbour_bits[..geo.num_cells] {
        s.contracted.extend_from_slice(&nb[..W]);
    }
    let add = |set: &[u64; W], nb: &mut [u64; W]| add_neighbours(geo, set, nb);
    label_groups(own, &geo.edges, add, &mut s.around, &mut s.gedge);
    // Each cell next to a group reaches every cell around it.
    widen_all(&mut s.contracted, &s.around, own);
}

/// Two-distance potential and mobility of `color`: the shared kernel's
/// [`two_distance::potential`] over the contracted neighbourhoods of
/// `color`'s groups, the empty cells passable.
fn potential<const W: usize>(pos: &Hex, color: Color) -> (u16, u16) {
    let geo = pos.geometry();
    let (ea, eb) = edge_bits(color);
    let own: [u64; W] = first(pos.bits(color));
    let empty: [u64; W] = first(&pos.empty_bits());
    SCRATCH.with(|s| {
        let s = &mut *s.borrow_mut();
        contract(geo, &own, s);
        let from = |edge_bit| {
            let edge = first(geo.edge_set(edge_bit));
            Td::new(edge, &s.around, &s.gedge, edge_bit, empty)
        };
        let (a, b) = (from(ea), from(eb));
        two_distance::potential(&s.contracted, a, b, &mut s.levels)
    })
}

/// Two-distance potential and mobility of `color` ([`TD_INFINITE`] when no
/// cell has two finite two-distances).
pub fn potential_and_mobility(pos: &Hex, color: Color) -> (u16, u16) {
    by_words!(pos, potential(pos, color))
}

/// The potential the score counts: the two-distance potential, or, with no
/// two routes left, the single route counted twice, `2 × distance + 2`;
/// at most `4n`.
fn effective_potential(pos: &Hex, color: Color, potential: u16) -> u16 {
    two_distance::effective_potential(potential, 4 * pos.size() as u16, || {
        let d = connection_distance(pos, color);
        (d != UNREACHABLE).then_some(d)
    })
}

/// The evaluation from the side to move's view: [`WIN_NEXT_MOVE`] when it
/// connects with one placement, a loss in 2 when the opponent has two
/// such cells (one stone blocks one of them), else
/// `(their potential − my potential) × STEP + (my mobility − their
/// mobility) × MOBILITY + TEMPO`.
pub fn evaluate_two_distance(pos: &Hex) -> Score {
    fn go<const W: usize>(pos: &Hex, me: Color) -> Score {
        if any(&winning_cells::<W>(pos, me)) {
            return WIN_NEXT_MOVE;
        }
        let them = me.opponent();
        if count(&winning_cells::<W>(pos, them)) >= 2 {
            return loss_in(2);
        }
        let (mine, my_mob) = potential::<W>(pos, me);
        let (theirs, their_mob) = potential::<W>(pos, them);
        let mine = effective_potential(pos, me, mine);
        let theirs = effective_potential(pos, them, theirs);
        (theirs as Score - mine as Score) * STEP
            + (my_mob as Score - their_mob as Score) * MOBILITY
            + TEMPO
    }
    by_words!(pos, go(pos, pos.to_move()))
}

impl Evaluator<Hex> for TwoDistance {
    fn name(&self) -> &'static str {
        "two_distance"
    }

    fn tuning(&self) -> Tuning {
        TUNING
    }

    /// Forgets the connections kept from earlier positions.
    fn forget(&self) {
        super::vc::forget_knowledge();
    }

    fn evaluate(&self, pos: &Hex) -> Score {
        evaluate_two_distance(pos)
    }

    /// The legal moves but the dead cells of the ring pattern
    /// ([`super::inferior::ring_dead_cells`]; the flood of the cut-off
    /// cells cost a third of the node rate and changed no bench tree):
    /// a dead cell never wins at once nor stops a win at once (it is in no
    /// minimal winning set), and a move there is never better than another.
    fn candidate_moves(&self, pos: &Hex, out: &mut Vec<HexMove>) {
        pos.legal_moves(out);
        let dead = super::inferior::ring_dead_cells(pos);
        if dead.iter().any(|&w| w != 0) {
            let before = out.len();
            out.retain(|&mv| match mv {
                HexMove::Place(c) => dead[c as usize / 64] & (1 << (c % 64)) == 0,
                HexMove::Swap => true,
            });
            if out.is_empty() && before > 0 {
                pos.legal_moves(out);
            }
        }
    }

    /// The opponent connects with one placement.
    fn opponent_threatens(&self, pos: &Hex) -> bool {
        winning_cell_count(pos, pos.to_move().opponent()) > 0
    }

    /// Stones next to the cell (contact play), then closeness to the
    /// centre.
    fn move_order_hint(&self, pos: &Hex, mv: HexMove) -> Score {
        match mv {
            HexMove::Swap => 0,
            HexMove::Place(c) => {
                let geo = pos.geometry();
                let nb = &geo.neighbour_bits[c as usize];
                let stones: u32 = (0..geo.words)
                    .map(|k| {
                        (nb[k] & (pos.bits(Color::Black)[k] | pos.bits(Color::White)[k]))
                            .count_ones()
                    })
                    .sum();
                let n = geo.n as i32;
                let (x, y) = (c as i32 % n, c as i32 / n);
                // Hex distance from the centre.
                let (dx, dy) = (2 * x - (n - 1), 2 * y - (n - 1));
                let centre = (dx.abs() + dy.abs() + (dx + dy).abs()) / 2;
                stones as Score * 10 - centre
            }
        }
    }

    fn history_index(&self, _pos: &Hex, mv: HexMove) -> usize {
        match mv {
            HexMove::Place(c) => c as usize + 1,
            HexMove::Swap => 0,
        }
    }

    /// The virtual connections the solver uses ([`super::vc::proven_result`]).
    fn proven_result(&self, pos: &Hex) -> Option<(bool, u32)> {
        super::vc::proven_result(pos)
    }

    /// The must-play region, fill-in and dominated cells
    /// ([`super::vc::prune_by_knowledge`]).
    fn prune_by_knowledge(&self, pos: &Hex, moves: &mut Vec<HexMove>) {
        super::vc::prune_by_knowledge(pos, moves)
    }
}

#[cfg(test)]
mod tests {
    //! The bit-parallel two-distance against its definition iterated to a
    //! fixed point, and the one-placement wins against making every move.
    use super::*;
    use crate::game::Notation;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use crate::games::two_distance::reference::{best_of, contracted, fixed_point};

    /// Two-distances of `color` to `edge_bit` by the definition, iterated
    /// until nothing changes.
    fn naive(pos: &Hex, color: Color, edge_bit: u8) -> Vec<u16> {
        let geo = pos.geometry();
        let empty = |p: usize| pos.at(p as u16).is_none();
        let own = |p: usize| pos.at(p as u16) == Some(color);
        let edges = &geo.edges[..geo.num_cells];
        let (adj, edges) = contracted(edges, |p| geo.neighbours_of(p), own, empty);
        fixed_point(empty, &adj, &edges, edge_bit)
    }

    #[test]
    fn two_distance_matches_fixed_point_and_wins_match_moves() {
        let mut rng = SmallRng::seed_from_u64(3);
        for &(n, games) in &[(3, 30), (5, 30), (8, 20), (11, 10), (13, 3)] {
            for _ in 0..games {
                let mut pos = Hex::new(n).unwrap();
                let mut moves = Vec::new();
                while pos.outcome().is_none() {
                    for c in Color::ALL {
                        let (ea, eb) = edge_bits(c);
                        let want = best_of(&naive(&pos, c, ea), &naive(&pos, c, eb));
                        assert_eq!(
                            potential_and_mobility(&pos, c),
                            want,
                            "\n{}",
                            pos.showboard()
                        );
                        // Winning cells: placing there connects.
                        let mut wins = 0;
                        for p in 0..pos.geometry().num_cells {
                            if pos.at(p as u16).is_none() {
                                let mut q = pos.clone();
                                if q.to_move() != c {
                                    q.play_null();
                                }
                                q.play(HexMove::Place(p as u16));
                                if q.outcome() == Some(crate::game::Outcome::Win(c)) {
                                    wins += 1;
                                }
                            }
                        }
                        assert_eq!(winning_cell_count(&pos, c), wins);
                    }
                    moves.clear();
                    pos.legal_moves(&mut moves);
                    let m = moves[rng.random_range(0..moves.len())];
                    pos.play(m);
                }
            }
        }
    }
}
