//! Crosscut's Onyx rules against the independent reference implementation
//! of `common/onyx_ref.rs`: perft, full legal move sets, captures and
//! outcomes over random games.

use crate::common::onyx_ref::{BLACK, RefGeo, RefMove, RefPos, WHITE};
use crate::common::{Rng, Session};
use crosscut::game::{Color, Game, Notation, Outcome, perft};
use crosscut::games::onyx::{Onyx, Start};

/// Whether the tests run optimised (the long loops are shortened otherwise).
const RELEASE: bool = !cfg!(debug_assertions);

fn crosscut_listed(pos: &Onyx) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut v: Vec<String> = moves.iter().map(|&m| pos.format_listed_move(m)).collect();
    v.sort();
    v
}

fn color_code(c: Option<Color>) -> u8 {
    match c {
        None => 0,
        Some(Color::Black) => BLACK,
        Some(Color::White) => WHITE,
    }
}

fn outcome_code(o: Option<Outcome>) -> Option<u8> {
    match o {
        None => None,
        Some(Outcome::Win(c)) => Some(color_code(Some(c))),
        Some(Outcome::Draw) => Some(99),
    }
}

/// Compares every point of the two boards, by name.
fn assert_same_board(pos: &Onyx, r: &RefPos, context: &str) {
    let geo = pos.geometry();
    assert_eq!(geo.num_points, r.geo.names.len(), "{context}: point count");
    for (i, name) in r.geo.names.iter().enumerate() {
        let p = geo
            .parse_point(name)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            color_code(pos.at(p)),
            r.cells[i],
            "{context}: point {name} differs"
        );
    }
    assert_eq!(
        color_code(Some(pos.to_move())),
        r.to_move,
        "{context}: side"
    );
    assert_eq!(
        outcome_code(pos.outcome()),
        r.winner,
        "{context}: outcome differs"
    );
}

#[test]
fn reference_geometry_counts() {
    let g = RefGeo::new(12);
    assert_eq!(g.names.len(), 204);
    assert_eq!(g.squares.len(), 60);
    // Every neighbour relation of crosscut's geometry equals the reference's.
    for n in [4, 6, 8, 12, 26] {
        let r = RefGeo::new(n);
        let pos = Onyx::new(n, Start::Blank).unwrap();
        let geo = pos.geometry();
        for (i, name) in r.names.iter().enumerate() {
            let p = geo.parse_point(name).unwrap();
            let mut ours: Vec<String> = geo
                .neighbours_of(p)
                .iter()
                .map(|&q| geo.point_name(q))
                .collect();
            ours.sort();
            let mut theirs: Vec<String> = r.adj[i].iter().map(|&q| r.names[q].clone()).collect();
            theirs.sort();
            assert_eq!(ours, theirs, "{n}x{n}: neighbours of {name}");
        }
    }
}

#[test]
fn perft_standard_and_blank_match_reference() {
    let geo = RefGeo::new(12);
    let depth = if RELEASE { 3 } else { 2 };
    let expected = [
        (
            "standard",
            RefPos::standard(&geo),
            [192u64, 36_640, 6_877_304],
        ),
        ("blank", RefPos::blank(&geo), [204, 41_376, 8_261_876]),
    ];
    for (start, r, numbers) in expected {
        let mut s = Session::with("onyx", &[&format!("start {start}")]);
        for d in 1..=depth {
            let ours: u64 = s.ok(&format!("perft {d}")).parse().unwrap();
            let theirs = r.perft(d);
            assert_eq!(ours, theirs, "{start} perft {d}: crosscut vs reference");
            assert_eq!(ours, numbers[d as usize - 1], "{start} perft {d}");
        }
    }
}

/// Depth 4 (about 1.4 and 1.7 billion leaves): `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn perft_depth_4_matches_reference() {
    let geo = RefGeo::new(12);
    for (start, r) in [
        ("standard", RefPos::standard(&geo)),
        ("blank", RefPos::blank(&geo)),
    ] {
        let mut s = Session::with("onyx", &[&format!("start {start}")]);
        let ours: u64 = s.ok("perft 4").parse().unwrap();
        assert_eq!(ours, r.perft(4), "{start} perft 4");
        eprintln!("{start} perft 4 = {ours}");
    }
}

/// Plays `plies` random moves in both implementations (no swap), returning
/// both positions, or `None` if the game ended first.
fn random_midgame<'g>(
    geo: &'g RefGeo,
    start: Start,
    plies: usize,
    rng: &mut Rng,
) -> Option<(Onyx, RefPos<'g>)> {
    let mut pos = Onyx::new(geo.n, start).unwrap();
    let mut r = match start {
        Start::Standard => RefPos::standard(geo),
        Start::Blank => RefPos::blank(geo),
    };
    for _ in 0..plies {
        let moves: Vec<RefMove> = r
            .legal()
            .into_iter()
            .filter(|&m| m != RefMove::Swap)
            .collect();
        let m = moves[rng.below(moves.len())];
        let name = r.listed(m);
        pos.play(pos.parse_move(&name).unwrap());
        r.play(m);
        if r.winner.is_some() {
            return None;
        }
    }
    Some((pos, r))
}

#[test]
fn perft_from_midgame_positions_matches_reference() {
    let mut rng = Rng(0x5eed_0001);
    let cases: &[(usize, Start, usize, u32)] = &[
        (8, Start::Standard, 10, 3),
        (8, Start::Blank, 20, 3),
        (8, Start::Standard, 40, 3),
        (6, Start::Blank, 12, 3),
        (12, Start::Standard, 30, 2),
        (12, Start::Blank, 60, 2),
    ];
    let mut checked = 0;
    for &(n, start, plies, depth) in cases {
        let geo = RefGeo::new(n);
        for _ in 0..3 {
            let Some((mut pos, r)) = random_midgame(&geo, start, plies, &mut rng) else {
                continue;
            };
            for d in 1..=depth {
                assert_eq!(
                    perft(&mut pos, d),
                    r.perft(d),
                    "{n}x{n} {start:?} after {plies} plies: perft {d}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} positions checked");
}

/// Plays one random game in both implementations, comparing the listed
/// legal moves (with capture marks), the boards and the outcome at every ply.
/// Returns the number of plies.
fn compare_random_game(n: usize, start: Start, rng: &mut Rng) -> usize {
    let geo = RefGeo::new(n);
    let mut pos = Onyx::new(n, start).unwrap();
    let mut r = match start {
        Start::Standard => RefPos::standard(&geo),
        Start::Blank => RefPos::blank(&geo),
    };
    assert_same_board(&pos, &r, "start");
    let mut ply = 0;
    while r.winner.is_none() {
        let ctx = format!("{n}x{n} {start:?} ply {ply}");
        let theirs = r.legal_listed();
        assert_eq!(crosscut_listed(&pos), theirs, "{ctx}: legal moves");
        assert!(!theirs.is_empty(), "{ctx}: no legal move and no winner");
        let moves = r.legal();
        // Take swap half the time it is offered.
        let m = if moves.contains(&RefMove::Swap) && rng.below(2) == 0 {
            RefMove::Swap
        } else {
            let places: Vec<RefMove> = moves
                .iter()
                .copied()
                .filter(|&m| m != RefMove::Swap)
                .collect();
            places[rng.below(places.len())]
        };
        // Capture marks are given on input half the time.
        let text = if rng.below(2) == 0 {
            r.listed(m)
        } else {
            r.listed(m).trim_end_matches('*').to_string()
        };
        let mv = pos
            .parse_move(&text)
            .unwrap_or_else(|e| panic!("{ctx}: {text}: {e}"));
        assert!(pos.is_legal(mv), "{ctx}: {text}");
        pos.play(mv);
        r.play(m);
        assert_same_board(&pos, &r, &format!("{ctx} after {text}"));
        ply += 1;
        assert!(ply < 20_000, "{ctx}: game does not end");
    }
    assert!(crosscut_listed(&pos).is_empty());
    let w = r.winner.unwrap();
    assert!(r.connected(w));
    assert!(!r.connected(3 - w), "both connected");
    ply
}

#[test]
fn random_games_match_reference() {
    let games = if RELEASE { 50 } else { 6 };
    let mut rng = Rng(0x5eed_0002);
    let mut total = 0;
    for (n, start) in [
        (8, Start::Standard),
        (8, Start::Blank),
        (12, Start::Standard),
        (12, Start::Blank),
    ] {
        for _ in 0..games {
            total += compare_random_game(n, start, &mut rng);
        }
    }
    assert!(total > 0);
}

#[test]
fn random_games_on_other_sizes_match_reference() {
    let games = if RELEASE { 12 } else { 2 };
    let mut rng = Rng(0x5eed_0003);
    for (n, start) in [
        (4, Start::Standard),
        (4, Start::Blank),
        (6, Start::Blank),
        (10, Start::Blank),
        (16, Start::Standard),
    ] {
        for _ in 0..games {
            compare_random_game(n, start, &mut rng);
        }
    }
}

/// The same comparison through the protocol: `legal_moves`, `play`,
/// `final_score`.
#[test]
fn random_games_through_protocol_match_reference() {
    let games = if RELEASE { 12 } else { 2 };
    let mut rng = Rng(0x5eed_0004);
    let geo12 = RefGeo::new(12);
    let geo8 = RefGeo::new(8);
    for g in 0..games {
        let (geo, start) = match g % 4 {
            0 => (&geo12, "standard"),
            1 => (&geo12, "blank"),
            2 => (&geo8, "standard"),
            _ => (&geo8, "blank"),
        };
        let mut s = Session::with(
            "onyx",
            &[&format!("boardsize {}", geo.n), &format!("start {start}")],
        );
        let mut r = if start == "standard" {
            RefPos::standard(geo)
        } else {
            RefPos::blank(geo)
        };
        while r.winner.is_none() {
            let mut ours = s.legal();
            ours.sort();
            assert_eq!(ours, r.legal_listed(), "game {g} ply {}", r.plies);
            s.err("final_score");
            let moves = r.legal();
            let m = moves[rng.below(moves.len())];
            let color = if r.to_move == BLACK { "b" } else { "w" };
            s.ok(&format!("play {color} {}", r.listed(m)));
            r.play(m);
        }
        let expected = if r.winner == Some(BLACK) { "B+" } else { "W+" };
        assert_eq!(s.ok("final_score"), expected, "game {g}");
        assert_eq!(s.ok("legal_moves"), "", "game {g}");
    }
}

/// Dense random positions built with `setup` (many captures and double
/// captures, midpoints with occupied corners), then random play: crosscut
/// and the reference agree on every legal move list, board and result.
#[test]
fn dense_random_setups_match_reference() {
    let mut rng = Rng(0x5eed_0005);
    let mut captures = [0usize; 3];
    let mut stuck = 0;
    let positions = if RELEASE { 100 } else { 15 };
    for i in 0..positions {
        let n = if i % 2 == 0 { 8 } else { 12 };
        let geo = RefGeo::new(n);
        let mut pos = Onyx::new(n, Start::Blank).unwrap();
        let mut r = RefPos::blank(&geo);
        for (p, name) in geo.names.iter().enumerate() {
            let roll = rng.below(100);
            let (black, white) = if geo.square_of_mid[p].is_some() {
                (15, 30)
            } else {
                (30, 60)
            };
            let (code, color) = if roll < black {
                (BLACK, Some(Color::Black))
            } else if roll < white {
                (WHITE, Some(Color::White))
            } else {
                continue;
            };
            r.cells[p] = code;
            pos.setup(color, name).unwrap();
        }
        if rng.below(2) == 0 {
            pos.set_to_move(Color::White).unwrap();
            r.to_move = WHITE;
        }
        let (b, w) = (r.connected(BLACK), r.connected(WHITE));
        if b || w {
            // Already decided: crosscut must say so.
            let winner = outcome_code(pos.outcome()).expect("set-up connection not seen");
            assert!((winner == BLACK && b) || (winner == WHITE && w));
            continue;
        }
        assert_same_board(&pos, &r, &format!("setup {i}"));
        let mut ply = 0;
        while r.winner.is_none() && ply < 400 {
            let ctx = format!("setup {i} ply {ply}");
            assert_eq!(crosscut_listed(&pos), r.legal_listed(), "{ctx}");
            let moves = r.legal();
            if moves.is_empty() {
                // Only a set-up position can get here: every grid point
                // filled around deadlocked squares that were never captured.
                stuck += 1;
                break;
            }
            let m = moves[rng.below(moves.len())];
            if let RefMove::Place(p) = m {
                captures[r.captures(p, r.to_move).len() / 2] += 1;
            }
            let text = r.listed(m);
            pos.play(pos.parse_move(&text).unwrap());
            r.play(m);
            assert_same_board(&pos, &r, &format!("{ctx} after {text}"));
            ply += 1;
        }
    }
    assert!(captures[1] > 0 && captures[2] > 0, "{captures:?}");
    assert!(stuck < positions / 2, "{stuck} stuck positions");
}

/// Random `play` (in turn and out of turn) and `undo` through the protocol,
/// checking `legal_moves` for both colours against the reference.
#[test]
fn out_of_turn_and_undo_sequences_match_reference() {
    let mut rng = Rng(0x5eed_0006);
    let geo = RefGeo::new(8);
    for g in 0..if RELEASE { 12 } else { 2 } {
        let start = if g % 2 == 0 { "standard" } else { "blank" };
        let mut s = Session::with("onyx", &["boardsize 8", &format!("start {start}")]);
        let mut r = if start == "standard" {
            RefPos::standard(&geo)
        } else {
            RefPos::blank(&geo)
        };
        let mut stack: Vec<RefPos> = Vec::new();
        for step in 0..150 {
            let ctx = format!("game {g} step {step}");
            for (color, code) in [("b", BLACK), ("w", WHITE)] {
                let mut theirs = r.clone();
                if theirs.to_move != code {
                    theirs.null();
                }
                let mut ours = s
                    .ok(&format!("legal_moves {color}"))
                    .split_whitespace()
                    .map(str::to_string)
                    .collect::<Vec<_>>();
                ours.sort();
                assert_eq!(ours, theirs.legal_listed(), "{ctx}: legal_moves {color}");
            }
            let side = if r.to_move == BLACK { "b" } else { "w" };
            assert_eq!(
                s.ok("gogui-rules_side_to_move"),
                if side == "b" { "black" } else { "white" },
                "{ctx}"
            );
            let over = r.winner.is_some();
            assert_eq!(s.raw("final_score").starts_with('='), over, "{ctx}");
            let roll = rng.below(10);
            if over || (roll < 2 && !stack.is_empty()) {
                if stack.is_empty() {
                    break;
                }
                s.ok("undo");
                r = stack.pop().unwrap();
                continue;
            }
            let out_of_turn = roll < 4;
            let mut next = r.clone();
            if out_of_turn {
                next.null();
            }
            let moves = next.legal();
            let m = moves[rng.below(moves.len())];
            let color = if next.to_move == BLACK { "b" } else { "w" };
            s.ok(&format!("play {color} {}", next.listed(m)));
            next.play(m);
            stack.push(std::mem::replace(&mut r, next));
        }
    }
}
