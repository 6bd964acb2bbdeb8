//! What a game may tell the solver about its positions without search:
//! the connection knowledge (virtual connections, must-play regions) that
//! makes proof search fast where it is sound.
//!
//! Every method has a default that knows nothing, so a game implements
//! only what it can prove. The contract is strict, because the solver
//! trusts these answers as it trusts the rules: a wrong answer is a wrong
//! solution. Each game's implementation is checked against brute force in
//! the tests.

use crate::game::{Color, Effort, Game, Notation, Outcome};

/// Knowledge about a game's positions, used by the df-pn solver.
pub trait Knowledge: Game {
    /// Whether [`Knowledge::forced_winner`] is costly: the solver then
    /// asks it once for a position it expands rather than for every
    /// child it creates (a node has a child per move).
    const LAZY: bool = false;

    /// Whether the knowledge's answers (`forced_winner`, the pruning, the
    /// order) depend on the position alone, not on the positions asked
    /// before (as an H-search updated from an ancestor's may). The solver
    /// of a [`Knowledge::LAZY`] game then remembers how it expanded a node
    /// and expands it from memory when df-pn enters it again: the same
    /// tree, faster. The default makes no such promise.
    const ANSWERS_BY_POSITION: bool = false;

    /// A colour that can force a win from this position, whoever moves,
    /// whatever the other side does (a virtual connection of the colour
    /// not to move; a virtual connection or a semi-connection of the side
    /// to move), when the game can see it without search. `None` says
    /// nothing. The position is not over.
    ///
    /// Sound: when this answers `Some(c)`, `c` has a strategy that wins
    /// in a finite number of moves against every defence.
    ///
    /// The default sees a win in one: a move of the side to move that ends
    /// the game in its favour.
    fn forced_winner(&mut self) -> Option<Color> {
        let mover = self.to_move();
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        for mv in moves {
            self.play_with(mv, Effort::Exact);
            let won = self.outcome() == Some(Outcome::Win(mover));
            self.undo();
            if won {
                return Some(mover);
            }
        }
        None
    }

    /// Removes from `moves` (the legal moves of the side to move, not
    /// empty, the position not over and without a `forced_winner`) moves
    /// after which the opponent can force a win: when the opponent holds
    /// a virtual connection, every move outside its carrier (the
    /// must-play region). It may remove them all: the side to move then
    /// loses.
    ///
    /// Sound: every removed move loses by force for the side to move.
    fn prune_losing(&mut self, moves: &mut Vec<Self::Move>) {
        let _ = moves;
    }

    /// Removes from `moves` (as [`Knowledge::prune_losing`] left them,
    /// not empty) moves that are no better than a kept one: inferior
    /// moves (a dead cell, a cell a pattern shows another move to
    /// dominate). It never needs to remove a winning move while a winning
    /// move stays.
    ///
    /// Sound: if the side to move can force a win (by colour, and by
    /// player), some kept move does; so an empty result is a loss.
    fn prune_inferior(&mut self, moves: &mut Vec<Self::Move>) {
        let _ = moves;
    }

    /// An estimate of the proof and disproof numbers (φ, δ) of the side to
    /// move here, for a position the solver meets for the first time (not
    /// over, nothing stored, no `forced_winner` asked when the game is
    /// [`Knowledge::LAZY`]): how hard it looks for the side to move to get
    /// what it wants, and for the other side to stop it, in units of one
    /// node (df-pn+: the numbers initialised from knowledge rather than 1).
    /// The solver keeps each within 1 ..= [`MAX_ESTIMATE`].
    ///
    /// An estimate steers the search only: it never decides a position,
    /// so any answer is sound (only the nodes searched change). The default
    /// (1, 1) is plain df-pn's.
    fn estimate(&mut self) -> (u32, u32) {
        (1, 1)
    }

    /// Whether [`Knowledge::order_moves`] sorts moves best first: the
    /// solver then widens progressively (a node's φ looks at its first
    /// children only; see `Solver::widening`). The default keeps the
    /// game's order, which says nothing.
    const ORDERS: bool = false;

    /// Orders `moves` (as the pruning left them) best first for the side
    /// to move: among children of equal proof numbers the solver tries
    /// the first. Any order is sound; the default keeps the game's.
    fn order_moves(&mut self, moves: &mut [Self::Move]) {
        let _ = moves;
    }
    /// Whether this thread's knowledge answers from here on in the form
    /// the game's player uses, where the game has one richer (and dearer)
    /// than its proofs' (Hex: the connections of play, with captured sets
    /// and ladders; Onyx: H-search's combined connections beside the single
    /// paths); the solver sets it at the start of every search from
    /// [`SolveLimits::play_knowledge`](crate::solve::SolveLimits). Both
    /// forms obey this trait's contract, so any answer stays sound; only
    /// the nodes searched and their cost change. The default has one form.
    fn use_play_knowledge(on: bool) {
        let _ = on;
    }
}

/// The largest proof or disproof number an estimate
/// ([`Knowledge::estimate`]) may give.
pub const MAX_ESTIMATE: u32 = 1 << 16;

/// Sorts `moves` best first for the side to move of `pos` by an
/// evaluation `score` of the position after each move, from the
/// opponent's view (lowest first; a move that wins at once first of all,
/// one that ends the game otherwise last); stable. What a game's
/// [`Knowledge::order_moves`] does with its evaluation (Hex's and Onyx's
/// two-distance, Orcoon's connection distance).
pub fn order_by_evaluation<G: Game>(pos: &mut G, moves: &mut [G::Move], score: impl Fn(&G) -> i64) {
    let me = pos.to_move();
    moves.sort_by_cached_key(|&mv| {
        pos.play(mv);
        let s = match pos.outcome() {
            Some(Outcome::Win(c)) if c == me => i64::MIN,
            Some(_) => i64::MAX,
            None => score(pos),
        };
        pos.undo();
        s
    });
}

/// Removes from `moves` the later in board order of each pair of twins
/// both in the list: moves that the position's symmetry
/// ([`Notation::symmetric_move`]) maps to each other lead to positions of
/// equal value, so whenever a dropped move wins, its kept twin wins too.
/// A move that is its own image (the swap) stays. Nothing changes on a
/// position the game names no symmetry for. What Hex's and Onyx's
/// [`Knowledge::prune_inferior`] do with the half-turn.
pub fn keep_one_of_twins<G: Notation>(pos: &G, moves: &mut Vec<G::Move>) {
    if moves.len() < 2 || pos.symmetric_move(moves[0]).is_none() {
        return;
    }
    let listed: Vec<G::Move> = moves.clone();
    moves.retain(|&mv| match pos.symmetric_move(mv) {
        Some(twin) if twin != mv => {
            !(pos.move_order(twin) < pos.move_order(mv) && listed.contains(&twin))
        }
        _ => true,
    });
}
