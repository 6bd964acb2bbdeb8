//! Fastest wins: a full-width search for a forced win within a number of
//! plies, with no evaluation and no pruning but alpha-beta's own.
//!
//! The alpha-beta searcher is selective (late-move reductions and pruning,
//! candidate moves, proven scores from the evaluation), so the first win it
//! proves may be a win in 7 plies where a win in 5 exists. Before it plays
//! a win in `k` plies, [`fastest_win`] asks, for n = 1, 3, …, k − 2 in
//! turn, whether the side to move can force a win within n plies, trying
//! every move of both sides: the first n that succeeds gives the fastest
//! win; when none does, no faster win exists and the searcher's own win
//! stands.
//!
//! A forced win within n plies is a finite winning strategy whatever the
//! history, so repetitions play no part (a draw the rules declare from the
//! history, Akron's threefold repetition, is simply not a win). A side
//! that is not finished but has no legal move loses, as in the searcher.
//! A swap (after which the same colour moves again) is never part of a
//! win found here: the search stays on the safe side.

use super::SearchLimits;
use crate::game::{Color, Effort, Game, Outcome};

/// How often (in moves made) the limits are read.
const CHECK_EVERY: u64 = 1024;

/// The limits ran out before the answer was known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unfinished;

/// The state of one fastest-win search.
struct MateSearch<'a, G: Game> {
    limits: &'a SearchLimits,
    /// Moves made so far.
    made: u64,
    stopped: bool,
    /// By ply, the defender's reply that last refuted an attacking move:
    /// tried first at that ply (one block often refutes many attacks).
    killers: Vec<Option<G::Move>>,
    /// Move lists by ply, reused.
    lists: Vec<Vec<G::Move>>,
}

impl<G: Game> MateSearch<'_, G> {
    fn play(&mut self, game: &mut G, mv: G::Move) {
        game.play_with(mv, Effort::Exact);
        self.made += 1;
        if self.made.is_multiple_of(CHECK_EVERY) && self.limits.expired() {
            self.stopped = true;
        }
    }

    /// The moves of the side to move at `ply`, `first` (when legal) first.
    fn moves(&mut self, game: &G, ply: usize, first: Option<G::Move>) -> Vec<G::Move> {
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        game.legal_moves(&mut moves);
        if let Some(f) = first
            && let Some(i) = moves.iter().position(|&m| m == f)
        {
            moves[..=i].rotate_right(1);
        }
        moves
    }

    /// A move with which the side to move (the attacker) wins within
    /// `plies` plies (odd, at least 1), if there is one.
    fn attack(
        &mut self,
        game: &mut G,
        plies: u32,
        ply: usize,
        first: Option<G::Move>,
    ) -> Option<G::Move> {
        let me = game.to_move();
        let moves = self.moves(game, ply, first);
        let mut found = None;
        // Wins at once first: they need no reply.
        for &mv in &moves {
            self.play(game, mv);
            let won = game.outcome() == Some(Outcome::Win(me));
            game.undo();
            if won {
                found = Some(mv);
                break;
            }
        }
        if found.is_none() && plies >= 3 {
            for &mv in &moves {
                if self.stopped {
                    break;
                }
                self.play(game, mv);
                // A move after which the same colour moves again (a swap)
                // is left out: this search counts strict alternation.
                let wins = game.outcome().is_none()
                    && game.to_move() != me
                    && self.defend(game, me, plies - 1, ply + 1);
                game.undo();
                if wins {
                    found = Some(mv);
                    break;
                }
            }
        }
        self.lists[ply] = moves;
        found
    }

    /// Whether `attacker`, not to move, wins within `plies` plies (even, at
    /// least 2) whatever the side to move replies.
    fn defend(&mut self, game: &mut G, attacker: Color, plies: u32, ply: usize) -> bool {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, None);
        }
        let moves = self.moves(game, ply, self.killers[ply]);
        // No move: the side to move has lost.
        let mut all_lose = true;
        for &mv in &moves {
            if self.stopped {
                all_lose = false;
                break;
            }
            self.play(game, mv);
            let lost = match game.outcome() {
                Some(o) => o == Outcome::Win(attacker),
                // A reply after which the same colour moves again (a swap)
                // counts as a defence: never claim a win through it.
                None if game.to_move() != attacker => false,
                None => self.attack(game, plies - 1, ply + 1, None).is_some(),
            };
            game.undo();
            if !lost {
                self.killers[ply] = Some(mv);
                all_lose = false;
                break;
            }
        }
        self.lists[ply] = moves;
        all_lose && !self.stopped
    }
}

/// The fastest forced win of the side to move within `max_plies` plies:
/// `Ok(Some((move, plies)))` with the fewest plies, `Ok(None)` when there
/// is none that fast, `Err(Unfinished)` when the limits (deadline,
/// interrupt) ran out first. `first` is tried first at the root (the
/// searcher's move). The game is left as it was.
pub fn fastest_win<G: Game>(
    game: &mut G,
    max_plies: u32,
    limits: &SearchLimits,
    first: Option<G::Move>,
) -> Result<Option<(G::Move, u32)>, Unfinished> {
    if game.outcome().is_some() {
        return Ok(None);
    }
    let mut search = MateSearch {
        limits,
        made: 0,
        stopped: false,
        killers: Vec::new(),
        lists: Vec::new(),
    };
    let mut plies = 1;
    while plies <= max_plies {
        let found = search.attack(game, plies, 0, first);
        if search.stopped {
            return Err(Unfinished);
        }
        if let Some(mv) = found {
            return Ok(Some((mv, plies)));
        }
        plies += 2;
    }
    Ok(None)
}
