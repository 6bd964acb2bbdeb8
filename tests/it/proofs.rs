//! Every win in docs/solutions.md is backed by a proof that a simple,
//! independent checker replays: the solver hands over a strategy (the
//! winner's move wherever it is to move), and the checker below, which
//! knows nothing of proof numbers or tables, plays it against every reply
//! of the loser, by the rules, to the end. A line that goes round (a
//! position repeated on it) is not a win.
//!
//! The small boards run by default; the longer proofs are `#[ignore]`d
//! (`cargo test --release --test it proofs:: -- --ignored`).

use std::collections::HashSet;

use crosscut::game::{Color, Effort, Game, Notation, Outcome};
use crosscut::games::akron::Akron;
use crosscut::games::hex::Hex;
use crosscut::games::onyx::{Onyx, Start};
use crosscut::games::orcoon::Orcoon;
use crosscut::solve::{Knowledge, SolveLimits, Solver, Strategy};

/// The replay: whether `attacker`'s strategy wins from `game` against
/// every defence, counting the positions it visits.
struct Checker<'a, M> {
    strategy: &'a Strategy<M>,
    by_player: bool,
    /// Positions already shown won (a won position is won from any path:
    /// its lines were checked to end without going round).
    won: HashSet<(u64, Color)>,
    line: HashSet<u64>,
    visited: u64,
}

impl<M: Copy + PartialEq> Checker<'_, M> {
    fn wins<G: Game<Move = M>>(&mut self, game: &mut G, attacker: Color) -> bool {
        self.visited += 1;
        if let Some(o) = game.outcome() {
            return o == Outcome::Win(attacker);
        }
        let hash = game.hash();
        if self.won.contains(&(hash, attacker)) {
            return true;
        }
        if !self.line.insert(hash) {
            return false;
        }
        let mover = game.to_move();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let replies: Vec<M> = if mover == attacker {
            match self.strategy.get(&(hash, attacker)) {
                Some(&mv) if moves.contains(&mv) => vec![mv],
                _ => Vec::new(),
            }
        } else {
            moves
        };
        let mut all = !replies.is_empty();
        for mv in replies {
            game.play_with(mv, Effort::Exact);
            // Counted by player, a swap (the same colour moves again)
            // hands the attacker's cause to the other colour.
            let a = if self.by_player && game.to_move() == mover {
                attacker.opponent()
            } else {
                attacker
            };
            all = self.wins(game, a);
            game.undo();
            if !all {
                break;
            }
        }
        self.line.remove(&hash);
        if all {
            self.won.insert((hash, attacker));
        }
        all
    }
}

/// Plays `moves`, asks the solver for `attacker`'s strategy (wins counted
/// by player or by colour) and replays it; returns (strategy size,
/// positions visited by the replay).
fn proven<G: Notation + Knowledge>(
    mut game: G,
    moves: &str,
    by_player: bool,
    attacker: Color,
) -> (usize, u64) {
    for m in moves.split_whitespace() {
        let mv = game.parse_move(m).expect("a move");
        assert!(game.is_legal(mv), "{m}");
        game.play(mv);
    }
    let mut solver = Solver::new(64);
    let limits = SolveLimits {
        by_player,
        ..SolveLimits::unlimited()
    };
    let strategy = solver
        .strategy(&mut game, attacker, &limits)
        .unwrap_or_else(|| panic!("{} wins after '{moves}'", attacker.name()));
    let mut checker = Checker {
        strategy: &strategy,
        by_player,
        won: HashSet::new(),
        line: HashSet::new(),
        visited: 0,
    };
    assert!(
        checker.wins(&mut game, attacker),
        "the replay of {}'s strategy after '{moves}' holds",
        attacker.name()
    );
    println!(
        "after '{moves}': {} wins; strategy {} positions, replay {} positions",
        attacker.name(),
        strategy.len(),
        checker.visited
    );
    (strategy.len(), checker.visited)
}

/// The checker refuses a strategy with a hole in it.
#[test]
fn the_checker_refuses_a_broken_strategy() {
    let mut game = Hex::new(3).unwrap();
    let mut solver = Solver::new(4);
    let limits = SolveLimits {
        by_player: false,
        ..SolveLimits::unlimited()
    };
    let mut strategy = solver
        .strategy(&mut game, Color::Black, &limits)
        .expect("Black wins 3x3 without swap");
    let root = (game.hash(), Color::Black);
    // A losing first move (a1) instead of the strategy's.
    let a1 = game.parse_move("a1").unwrap();
    strategy.insert(root, a1);
    let mut checker = Checker {
        strategy: &strategy,
        by_player: false,
        won: HashSet::new(),
        line: HashSet::new(),
        visited: 0,
    };
    assert!(!checker.wins(&mut game, Color::Black));
    // And one with a position left out.
    strategy.clear();
    let mut checker = Checker {
        strategy: &strategy,
        by_player: false,
        won: HashSet::new(),
        line: HashSet::new(),
        visited: 0,
    };
    assert!(!checker.wins(&mut game, Color::Black));
}

#[test]
fn hex_3x3_and_4x4_wins_replay() {
    let (b, w) = (Color::Black, Color::White);
    proven(Hex::new(3).unwrap(), "", false, b);
    proven(Hex::new(3).unwrap(), "", true, w);
    for m in ["c1", "a2", "b2", "c2", "a3"] {
        proven(Hex::new(3).unwrap(), m, false, b);
    }
    for m in ["a1", "b1", "b3", "c3"] {
        proven(Hex::new(3).unwrap(), m, false, w);
    }
    proven(Hex::new(4).unwrap(), "", false, b);
    proven(Hex::new(4).unwrap(), "", true, w);
    for m in ["d1", "c2", "b3", "a4"] {
        proven(Hex::new(4).unwrap(), m, false, b);
    }
}

#[test]
fn orcoon_3x3_wins_replay() {
    let (b, w) = (Color::Black, Color::White);
    proven(Orcoon::new(3).unwrap(), "", true, w);
    proven(Orcoon::new(3).unwrap(), "", false, b);
    for m in ["A2", "C2"] {
        proven(Orcoon::new(3).unwrap(), m, false, b);
    }
}

#[test]
fn akron_3x3_wins_replay() {
    proven(Akron::new(3).unwrap(), "", false, Color::Black);
    // With swap, the second player wins (found once the solver saw wins in
    // one at its leaves).
    proven(Akron::new(3).unwrap(), "", true, Color::White);
}

#[test]
fn onyx_blank_4x4_win_replays() {
    proven(Onyx::new(4, Start::Blank).unwrap(), "", false, Color::Black);
}

#[test]
#[ignore]
fn hex_4x4_losing_openings_replay() {
    for m in [
        "a1", "b1", "c1", "a2", "b2", "d2", "a3", "c3", "d3", "b4", "c4", "d4",
    ] {
        proven(Hex::new(4).unwrap(), m, false, Color::White);
    }
}

#[test]
#[ignore]
fn onyx_blank_4x4_openings_replay() {
    let blank = || Onyx::new(4, Start::Blank).unwrap();
    for m in ["A2", "C2", "D2", "A3", "B3", "D3"] {
        proven(blank(), m, false, Color::Black);
    }
    for m in [
        "A1", "B1", "C1", "D1", "B2", "C3", "A4", "B4", "C4", "D4", "BC12", "AB23", "CD23", "BC34",
    ] {
        proven(blank(), m, false, Color::White);
    }
}

#[test]
#[ignore]
fn onyx_blank_4x4_with_swap_replays() {
    proven(Onyx::new(4, Start::Blank).unwrap(), "", true, Color::White);
}

#[test]
#[ignore]
fn orcoon_4x4_and_akron_4x4_replay() {
    proven(Orcoon::new(4).unwrap(), "", false, Color::White);
    proven(Orcoon::new(4).unwrap(), "", true, Color::White);
    proven(Akron::new(4).unwrap(), "", false, Color::Black);
}
