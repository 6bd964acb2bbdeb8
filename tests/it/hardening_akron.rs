//! Akron's memory stays bounded in a very long game (it used to grow by the
//! size of the board's derived state, ~74 KB on 26x26, at every move).

use crate::common::engine::Engine;
use crate::common::{Rng, random_move};
use std::process::Stdio;

/// 2,000 moves of a random game on 26x26 (mostly steps, taking back a few
/// moves when the game ends), through `play` and `undo`: resident memory
/// grows by less than 30 MB (it grew by ~110 MB), and `clear_board` keeps
/// it there.
#[test]
fn long_akron_game_memory_is_bounded() {
    let mut e = Engine::start(&[], Stdio::null());
    assert_eq!(e.cmd("game akron"), "= ");
    assert_eq!(e.cmd("boardsize 26"), "= ");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut played = 0;
    let mut start_kb = 0;
    while played < 2_000 {
        if played == 100 {
            start_kb = e.rss_kb();
        }
        let legal = e.cmd("legal_moves");
        let moves: Vec<&str> = legal[1..].split_whitespace().collect();
        if moves.is_empty() {
            for _ in 0..3 {
                assert_eq!(e.cmd("undo"), "= ");
            }
            played -= 3;
            continue;
        }
        let mv = random_move(&mut rng, &moves, |m| m.contains('-'), 90);
        let side = e.cmd("gogui-rules_side_to_move");
        let a = e.cmd(&format!("play {} {mv}", &side[2..]));
        assert_eq!(a, "= ", "play {mv}");
        played += 1;
    }
    let end_kb = e.rss_kb();
    assert!(
        end_kb < start_kb + 30_000,
        "{start_kb} kB after 100 moves, {end_kb} kB after 2,000"
    );
    // Taking back every move still restores the start.
    let start_board = {
        let mut fresh = Engine::start(&["--game", "akron"], Stdio::null());
        assert_eq!(fresh.cmd("boardsize 26"), "= ");
        fresh.cmd("showboard")
    };
    while e.cmd("undo") == "= " {}
    assert_eq!(e.cmd("showboard"), start_board);
    assert_eq!(e.cmd("clear_board"), "= ");
    assert!(e.rss_kb() < start_kb + 30_000);
}
