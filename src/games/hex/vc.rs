//! Connection knowledge for the solver and the searcher: what the
//! virtual connections of [`super::hsearch`] (built incrementally along
//! the positions asked about) prove on boards up to
//! [`MAX_VC_SIZE`]×[`MAX_VC_SIZE`], on the position with its fill-in
//! ([`super::inferior`]) placed.
//!
//! # What the solver is told
//!
//! For the side to move M and its opponent O, from their connections
//! between their own two edges:
//!
//! - M has a full or semi connection: M wins (play the key, then answer).
//! - Otherwise (and only when swap is not available: with swap pending, a
//!   win of the colour not to move is no win of the *player* holding it)
//!   O has a full connection: O wins.
//! - The intersection of the carriers of all O's full and semi
//!   connections is the *must-play* region: a move p outside the carrier
//!   of one of them leaves it untouched, so O wins (a full at once, a semi
//!   by its key). Such a p cannot win for M either: a filled untouched
//!   carrier would join O's edges too, and Hex has one winner. When the
//!   region is empty, every move of M loses, so O wins; otherwise
//!   [`Knowledge::prune_losing`] keeps only the moves in the region (and
//!   swap).
//!
//! The solver derives these from the proof's connections, or
//! from play's when asked ([`Knowledge::use_play_knowledge`]); the
//! searcher always from play's.
//!
//! All of this is computed on the position with its fill-in placed (dead
//! cells and captured pairs, [`super::inferior`]), which has the same
//! value: a win there is a win in the original, and a move outside the
//! filled position's must-play region loses in the original too (the
//! fill-in stays valid after it). A move into the fill-in outside the
//! region also loses, except one into the opponent's captured pair while
//! the opponent has only a semi-connection (the partner answers it and
//! the mover is to move again): those stay for
//! [`Knowledge::prune_inferior`], which drops every filled cell and the
//! dominated cells (a winning move always stays), except where a swap may
//! follow the move (the patterns count by colour), then the moves the
//! board's symmetries make redundant or losing ([`super::symmetry`]). Each
//! claim is checked against exhaustive minimax in `tests/it/hex_vc.rs`.

use std::cell::RefCell;

use super::board::{Hex, HexMove};
use super::geometry::{Bits, WORDS};
use super::hsearch::{Carrier, Mode, carrier, side};
pub use super::hsearch::{
    MAX_FULL, MAX_SEMI, MAX_VC_SIZE, SearchCounts, WORK_LIMIT, search_counts,
};
use super::inferior;
use crate::game::{Color, Game};
use crate::solve::Knowledge;

/// Whether the connection knowledge applies to `pos`.
fn applies(pos: &Hex) -> bool {
    pos.geometry().n <= MAX_VC_SIZE && pos.outcome().is_none()
}

/// A win in one for the side to move (the solver's default knowledge,
/// for boards past [`MAX_VC_SIZE`]).
fn win_in_one(pos: &mut Hex) -> Option<Color> {
    let mover = pos.to_move();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    for mv in moves {
        pos.play(mv);
        let won = pos.outcome() == Some(crate::game::Outcome::Win(mover));
        pos.undo();
        if won {
            return Some(mover);
        }
    }
    None
}

/// A position asked about (its stones) and the fill-in used for it.
struct Filled {
    n: usize,
    stones: [Bits; 2],
    fill: [Bits; 2],
    /// The carriers of the permanently inferior cells of `fill` (by the
    /// filling colour's index): the fill holds in a position with more
    /// stones only while the other colour has no stone on them.
    carrier: [Bits; 2],
}

/// Fill-ins kept along the positions asked about last.
const FILL_LEVELS: usize = 128;

thread_local! {
    static FILL: RefCell<Vec<Filled>> = const { RefCell::new(Vec::new()) };
}

/// The fill-in of `pos`: that of the deepest position kept that `pos`
/// extends (its stones and more, none on its fill-in, and none of the
/// other colour on the carrier of a permanently inferior cell), with what
/// [`inferior::fill_in`] finds after it is placed; from scratch when there
/// is none. Dead and captured cells stay so when stones are added, and a
/// permanently inferior cell while the other colour stays off its carrier
/// ([`inferior`]'s pattern P),
/// so an ancestor's fill-in holds in `pos` (and the next pass is found
/// on top of it): a position of the same value, and the connections
/// built on the ancestor's filled position carry over
/// ([`super::hsearch`]). The same stones get the same fill-in while they
/// are kept.
fn fill_and_carrier_of(pos: &Hex) -> ([Bits; 2], [Bits; 2]) {
    let n = pos.geometry().n;
    let stones = [*pos.bits(Color::Black), *pos.bits(Color::White)];
    FILL.with(|f| {
        let mut path = f.borrow_mut();
        while let Some(top) = path.last() {
            let extends = top.n == n
                && (0..WORDS).all(|k| {
                    top.stones[0][k] & !stones[0][k] == 0
                        && top.stones[1][k] & !stones[1][k] == 0
                        && (top.fill[0][k] | top.fill[1][k]) & (stones[0][k] | stones[1][k]) == 0
                        && top.carrier[0][k] & stones[1][k] == 0
                        && top.carrier[1][k] & stones[0][k] == 0
                });
            if extends {
                break;
            }
            path.pop();
        }
        if let Some(top) = path.last()
            && top.stones == stones
        {
            return (top.fill, top.carrier);
        }
        let (base, base_carrier) = path
            .last()
            .map_or(([[0; WORDS]; 2], [[0; WORDS]; 2]), |top| {
                (top.fill, top.carrier)
            });
        let mut filled = pos.clone();
        let (more, more_carrier) =
            on_filled(&mut filled, &base, |p| inferior::fill_in_with_carrier(p));
        let fill = [0, 1].map(|c| std::array::from_fn(|k| base[c][k] | more[c][k]));
        let carrier =
            [0, 1].map(|c| std::array::from_fn(|k| base_carrier[c][k] | more_carrier[c][k]));
        if path.len() == FILL_LEVELS {
            path.remove(0);
        }
        path.push(Filled {
            n,
            stones,
            fill,
            carrier,
        });
        (fill, carrier)
    })
}

/// The fill-in of `pos` ([`fill_and_carrier_of`]).
fn fill_of(pos: &Hex) -> [Bits; 2] {
    fill_and_carrier_of(pos).0
}

/// Runs `f` on `pos` with its fill-in placed (the stones taken back
/// after): a position of the same value.
fn on_filled<R>(pos: &mut Hex, fill: &[Bits; 2], f: impl FnOnce(&mut Hex) -> R) -> R {
    pos.put_stones(&fill[0], Color::Black);
    pos.put_stones(&fill[1], Color::White);
    let r = f(pos);
    pos.take_stones(&std::array::from_fn(|k| fill[0][k] | fill[1][k]));
    r
}

/// Forgets the knowledge this thread keeps between positions (the
/// connection searches, their summaries, the fill-in along the path):
/// what an evaluation's [`crate::search::Evaluator::forget`] calls, so
/// that a search depends only on its position.
pub fn forget_knowledge() {
    FILL.with(|f| f.borrow_mut().clear());
    super::hsearch::forget();
}

/// Runs `f` on `pos` with its fill-in placed as stones (the dead and
/// captured cells, inherited along the path as the knowledge finds them):
/// the position the connections are asked about.
pub(super) fn with_fill_in<R>(pos: &mut Hex, f: impl FnOnce(&mut Hex) -> R) -> R {
    let fill = fill_of(pos);
    on_filled(pos, &fill, f)
}

/// Runs `f` on `pos` with its fill-in placed and then, while either
/// colour has a decomposition ([`inferior::decomposition`], found with
/// the connections of play), its carrier and the fill-in that follows:
/// the position the player's evaluation reads.
pub(super) fn with_decomposed_fill_in<R>(pos: &mut Hex, f: impl FnOnce(&mut Hex) -> R) -> R {
    with_fill_in(pos, |p| {
        let added = decompose(p);
        let r = f(p);
        p.take_stones(&std::array::from_fn(|k| added[0][k] | added[1][k]));
        r
    })
}

/// Places the carriers of `pos`'s decompositions, one at a time with the
/// fill-in after each, until none is left; returns the stones placed by
/// colour index (the connections of play, [`Mode::Play`]).
fn decompose(pos: &mut Hex) -> [Bits; 2] {
    let mut added = [[0u64; WORDS]; 2];
    let mut found = Vec::new();
    'next: loop {
        for color in Color::ALL {
            let carrier = inferior::decomposition(pos, color, |a, b, out| {
                super::hsearch::full_carriers(pos, color, Mode::Play, (a, b), &mut found);
                out.clear();
                out.extend(found.iter().map(|c| c.bits()));
            });
            if let Some(carrier) = carrier {
                pos.put_stones(&carrier, color);
                let more = inferior::fill_in(pos);
                for c in Color::ALL {
                    pos.put_stones(&more[c.index()], c);
                }
                for k in 0..WORDS {
                    added[color.index()][k] |= carrier[k];
                    added[0][k] |= more[0][k];
                    added[1][k] |= more[1][k];
                }
                continue 'next;
            }
        }
        return added;
    }
}

/// The cells the player's evaluation fills on `pos` (by colour index):
/// the fill-in, then each decomposition's carrier with its colour and the
/// fill-in that follows ([`with_decomposed_fill_in`]). Nothing above
/// [`MAX_VC_SIZE`] or when the game is over.
pub fn decomposed_fill_in(pos: &Hex) -> [Bits; 2] {
    if !applies(pos) {
        return [[0; WORDS]; 2];
    }
    let fill = fill_of(pos);
    let added = on_filled(&mut pos.clone(), &fill, decompose);
    [0, 1].map(|c| std::array::from_fn(|k| fill[c][k] | added[c][k]))
}

thread_local! {
    /// Whether this thread's solver asks play's connections
    /// ([`Knowledge::use_play_knowledge`]).
    static SOLVE_WITH_PLAY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The connections the solver's knowledge derives: the proof's, or play's
/// when [`Knowledge::use_play_knowledge`] asked for them.
pub(super) fn solver_mode() -> Mode {
    if SOLVE_WITH_PLAY.with(|p| p.get()) {
        Mode::Play
    } else {
        Mode::Proof
    }
}

/// See the module documentation.
impl Knowledge for Hex {
    const LAZY: bool = true;
    const ORDERS: bool = true;

    fn forced_winner(&mut self) -> Option<Color> {
        self.forced_winner_in(solver_mode())
    }

    fn estimate(&mut self) -> (u32, u32) {
        if !applies(self) {
            return (1, 1);
        }
        super::estimate::estimate(self)
    }

    /// Play's connections ([`Mode::Play`]: captured sets, ladders) for
    /// the solver instead of the proof's, when `on`: both sound (their
    /// claims are checked against minimax in `tests/it/hex_vc.rs`).
    fn use_play_knowledge(on: bool) {
        SOLVE_WITH_PLAY.with(|p| p.set(on));
    }

    fn order_moves(&mut self, moves: &mut [HexMove]) {
        if applies(self) {
            super::estimate::order_moves(self, moves);
        }
    }

    fn prune_losing(&mut self, moves: &mut Vec<HexMove>) {
        self.prune_losing_in(moves, solver_mode());
    }

    /// Drops the moves onto the carriers of the opponent's permanently
    /// inferior cells outside its must-play region, the filled cells and
    /// the dominated ones ([`inferior::dominated`]), except where a swap
    /// may follow (the patterns count by colour); then the moves the
    /// board's symmetries make redundant or losing
    /// ([`super::symmetry::prune`]).
    fn prune_inferior(&mut self, moves: &mut Vec<HexMove>) {
        self.prune_inferior_in(moves, solver_mode());
    }
}

impl Hex {
    /// [`Knowledge::forced_winner`] from the connections `mode` derives.
    fn forced_winner_in(&mut self, mode: Mode) -> Option<Color> {
        if self.outcome().is_some() {
            return None;
        }
        if !applies(self) {
            return win_in_one(self);
        }
        let fill = fill_of(self);
        let swap = self.swap_available();
        on_filled(self, &fill, |pos| {
            let mover = pos.to_move();
            let other = mover.opponent();
            let me = side(pos, mover, mode, true);
            if me.full || me.semi {
                return Some(mover);
            }
            if swap {
                return None;
            }
            let them = side(pos, other, mode, false);
            if them.full || (them.semi && them.must.is_empty()) {
                return Some(other);
            }
            None
        })
    }

    /// [`Knowledge::prune_losing`] from the connections `mode` derives.
    fn prune_losing_in(&mut self, moves: &mut Vec<HexMove>, mode: Mode) {
        if !applies(self) {
            return;
        }
        let (fill, pinf_carrier) = fill_and_carrier_of(self);
        let other = self.to_move().opponent();
        let them = on_filled(self, &fill, |pos| side(pos, other, mode, false));
        if !(them.full || them.semi) {
            return;
        }
        // A move into the fill-in outside the region loses too (a dead
        // cell or the mover's own captured pair leaves the filled position
        // with the opponent to move), except in the opponent's captured
        // pair when it has only a semi-connection: its partner answers it
        // and the mover is to move in the filled position again (so too
        // in its permanently inferior cell, answered at the middle of its
        // carrier); nor need a move onto that carrier lose: it ends the
        // pattern, and with it the filled position's verdict on the move.
        // Those (with the dead cells filled in the opponent's colour) are
        // left to `prune_inferior`.
        let other_fill = if them.full {
            Carrier::default()
        } else {
            let o = other.index();
            carrier(&std::array::from_fn(|k| fill[o][k] | pinf_carrier[o][k]))
        };
        let keep = them.must | other_fill;
        moves.retain(|&mv| match mv {
            HexMove::Swap => true,
            HexMove::Place(c) => keep.has(c as usize),
        });
    }

    /// [`Knowledge::prune_inferior`] with the connections `mode` derives:
    /// the moves onto the carriers of the opponent's permanently inferior
    /// cells outside its must-play region, the filled and dominated cells,
    /// the moves the board's symmetries make redundant or losing
    /// ([`super::symmetry::prune`]).
    fn prune_inferior_in(&mut self, moves: &mut Vec<HexMove>, mode: Mode) {
        if !applies(self) {
            return;
        }
        self.prune_opponent_carriers(moves, mode);
        self.prune_filled_and_dominated(moves);
        super::symmetry::prune(self, moves);
    }

    /// Drops the moves onto the carriers of the opponent's permanently
    /// inferior cells that lie outside its must-play region, when it holds
    /// a semi-connection (and no full one: [`Knowledge::prune_losing`] has
    /// then kept the region alone) on the filled position F, except where
    /// a swap may follow. They need not lose, since they end the pattern,
    /// but they are no better than the region's: if the side to move wins,
    /// it wins F (the same value), with a move of F's region (every other
    /// move of F loses), which wins here too (F has only more of the
    /// opponent's stones).
    fn prune_opponent_carriers(&mut self, moves: &mut Vec<HexMove>, mode: Mode) {
        if self.moves_played() == 0 && self.to_move() == Color::Black {
            return;
        }
        let (fill, pinf_carrier) = fill_and_carrier_of(self);
        let other = self.to_move().opponent();
        let theirs = &pinf_carrier[other.index()];
        if theirs.iter().all(|&w| w == 0) {
            return;
        }
        let them = on_filled(self, &fill, |pos| side(pos, other, mode, false));
        if them.full || !them.semi {
            return;
        }
        let theirs = carrier(theirs);
        moves.retain(|&mv| match mv {
            HexMove::Swap => true,
            HexMove::Place(c) => !theirs.has(c as usize) || them.must.has(c as usize),
        });
    }

    /// [`Knowledge::prune_inferior`]'s step after the carriers: the filled
    /// cells and the dominated ones, except where a swap may follow.
    fn prune_filled_and_dominated(&mut self, moves: &mut Vec<HexMove>) {
        // A swap may follow Black's first move.
        if self.moves_played() == 0 && self.to_move() == Color::Black {
            return;
        }
        let fill = fill_of(self);
        let empty = self.empty_bits();
        if (0..WORDS).all(|k| empty[k] & !(fill[0][k] | fill[1][k]) == 0) {
            // The fill-in covers the board: its winner may need one of
            // the filled cells.
            return;
        }
        let me = self.to_move();
        let dominated = inferior::dominated(self, &fill, me);
        let out: Bits = std::array::from_fn(|k| fill[0][k] | fill[1][k] | dominated[k]);
        let drop = |moves: &mut Vec<HexMove>, out: &Bits| {
            moves.retain(|&mv| match mv {
                HexMove::Swap => true,
                HexMove::Place(c) => out[c as usize / 64] & (1 << (c % 64)) == 0,
            })
        };
        drop(moves, &out);
        let mut left = [0u64; WORDS];
        for mv in moves.iter() {
            if let HexMove::Place(c) = *mv {
                left[c as usize / 64] |= 1 << (c % 64);
            }
        }
        let vulnerable = inferior::vulnerable(self, &fill, me, &left, &dominated);
        drop(moves, &vulnerable);
    }
}

/// The searcher's question ([`crate::search::Evaluator::proven_result`]):
/// the side to move's result as [`Knowledge::forced_winner`] proves it
/// from the player's connections ([`Mode::Play`], with captured sets)
/// (whether it wins), the game ending within the empty cells' number of
/// plies (one more for a pending swap); `None` when nothing is proven or
/// the board is past [`MAX_VC_SIZE`].
pub fn proven_result(pos: &Hex) -> Option<(bool, u32)> {
    if !applies(pos) {
        return None;
    }
    let mut p = pos.clone();
    let winner = p.forced_winner_in(Mode::Play)?;
    let empty = pos.empty_bits();
    let plies = empty.iter().map(|w| w.count_ones()).sum::<u32>() + 1;
    Some((winner == pos.to_move(), plies))
}

/// The searcher's pruning ([`crate::search::Evaluator::prune_by_knowledge`]):
/// [`Knowledge::prune_losing`] (the opponent's must-play region, from the
/// player's connections: [`Mode::Play`]), then
/// [`Knowledge::prune_inferior`] (fill-in and dominated cells) unless
/// nothing is left; nothing on boards past [`MAX_VC_SIZE`].
pub fn prune_by_knowledge(pos: &Hex, moves: &mut Vec<HexMove>) {
    if !applies(pos) || moves.is_empty() {
        return;
    }
    keep_moves(&mut pos.clone(), moves, Mode::Play);
}

/// Cuts `moves` (not empty) with [`Knowledge::prune_losing`] (from the
/// connections `mode` derives), then
/// [`Knowledge::prune_inferior`] unless nothing is left: the moves the
/// knowledge leaves the side to move (the searcher's pruning and the
/// solver's estimates).
pub(super) fn keep_moves(pos: &mut Hex, moves: &mut Vec<HexMove>, mode: Mode) {
    pos.prune_losing_in(moves, mode);
    if !moves.is_empty() {
        pos.prune_inferior_in(moves, mode);
    }
}
