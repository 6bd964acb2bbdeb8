//! A match between two players of the engine on Orcoon, in process, at
//! equal time per move (ignored by default; run with
//! `ORCOON_GAMES=10 ORCOON_SIZE=11 ORCOON_TIME=0.5 cargo test --release \
//!  --test orcoon_match -- --ignored --nocapture`).
//! Players: `param player alphabeta` against `param player mcts` (or
//! ORCOON_B=... for another `param player` value). ORCOON_OPENING=k plays
//! k random placements first, the same for both games of a pair.

mod common;

use common::Session;

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

/// Plays one game; `a_black` says whether engine A takes Black. Returns
/// Some(true) when A wins, Some(false) when B wins, None when unfinished.
fn play_game(
    a: &mut Session,
    b: &mut Session,
    size: &str,
    a_black: bool,
    opening_seed: u64,
    log: &mut String,
) -> Option<bool> {
    let mut referee = Session::with("orcoon", &[&format!("boardsize {size}")]);
    for s in [&mut *a, &mut *b] {
        s.ok(&format!("boardsize {size}"));
    }
    // Random opening placements (ORCOON_OPENING, default 0), the same for
    // the two games of a pair, so that the games differ.
    let opening: usize = env("ORCOON_OPENING", "0").parse().unwrap();
    let mut seed = opening_seed;
    for i in 0..opening {
        let colour = if i % 2 == 0 { "b" } else { "w" };
        let legal = referee.ok("legal_moves");
        let places: Vec<&str> = legal
            .split(' ')
            .filter(|m| *m != "pass" && *m != "swap")
            .collect();
        let mv = places[(crosscut::game::splitmix64(&mut seed) % places.len() as u64) as usize]
            .to_string();
        log.push_str(&format!(" {mv}"));
        for s in [&mut referee, &mut *a, &mut *b] {
            s.ok(&format!("play {colour} {mv}"));
        }
    }
    if opening > 0 {
        log.push_str(" |");
    }
    // black_is_a: which engine plays the Black colour now.
    let mut black_is_a = a_black;
    for _ in 0..400 {
        let side = referee.ok("gogui-rules_side_to_move");
        let colour = if side == "black" { "b" } else { "w" };
        let mover_is_a = (colour == "b") == black_is_a;
        let (mover, other) = if mover_is_a {
            (&mut *a, &mut *b)
        } else {
            (&mut *b, &mut *a)
        };
        let mv = mover.ok(&format!("genmove {colour}"));
        if mv == "resign" {
            log.push_str(&format!(" {colour}:resign"));
            return Some(!mover_is_a);
        }
        log.push_str(&format!(" {mv}"));
        other.ok(&format!("play {colour} {mv}"));
        referee.ok(&format!("play {colour} {mv}"));
        if mv == "swap" {
            black_is_a = !black_is_a;
        }
        if let Some(result) = referee.raw("final_score").strip_prefix("= ") {
            let black_won = result.trim() == "B+";
            log.push_str(&format!(" {}", result.trim()));
            return Some(black_won == black_is_a);
        }
    }
    None
}

#[test]
#[ignore]
fn alphabeta_against_mcts() {
    let games: usize = env("ORCOON_GAMES", "10").parse().unwrap();
    let size = env("ORCOON_SIZE", "11");
    let time = env("ORCOON_TIME", "0.5");
    let b_player = env("ORCOON_B", "mcts");
    let mut a = Session::with(
        "orcoon",
        &[
            &format!("param move_time {time}"),
            "param player alphabeta",
            "param verbose false",
        ],
    );
    let mut b = Session::with(
        "orcoon",
        &[
            &format!("param move_time {time}"),
            &format!("param player {b_player}"),
            "param verbose false",
        ],
    );
    let (mut a_wins, mut b_wins, mut unfinished) = (0, 0, 0);
    for g in 0..games {
        let a_black = g % 2 == 0;
        let mut log = String::new();
        let r = play_game(
            &mut a,
            &mut b,
            &size,
            a_black,
            1000 + (g / 2) as u64,
            &mut log,
        );
        match r {
            Some(true) => a_wins += 1,
            Some(false) => b_wins += 1,
            None => unfinished += 1,
        }
        println!(
            "game {} (alphabeta {}): {}:{}",
            g + 1,
            if a_black { "black" } else { "white" },
            match r {
                Some(true) => "alphabeta wins",
                Some(false) => "opponent wins",
                None => "unfinished",
            },
            log
        );
    }
    println!(
        "{size}x{size}, {time} s/move: alphabeta {a_wins}, {b_player} {b_wins}, unfinished {unfinished}"
    );
}
