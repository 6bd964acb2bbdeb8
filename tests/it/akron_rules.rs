//! Akron rules at the level of the `Game` trait: positions built with
//! `setup`, the article's figures as its text pins them down, the
//! over/under rule up to three levels apart, and property tests over random
//! games against a brute-force reference written from RULINGS.md.

use std::collections::BTreeSet;

use crate::common::{Rng, has_win_in_one, random_move};
use crosscut::game::{Color, Game, Notation, Outcome, perft};
use crosscut::games::akron::{Akron, AkronMove, Point};

const B: Option<Color> = Some(Color::Black);
const W: Option<Color> = Some(Color::White);

/// A position on an `n`×`n` board built from `(colour, points)` groups in
/// order (supports first), with `to_move` to move.
fn build(n: usize, placements: &[(Option<Color>, &str)], to_move: Color) -> Akron {
    let mut pos = Akron::new(n).unwrap();
    for &(c, points) in placements {
        for p in points.split_whitespace() {
            pos.setup(c, p).unwrap_or_else(|e| panic!("setup {p}: {e}"));
        }
    }
    pos.set_to_move(to_move).unwrap();
    pos
}

/// The point named `name` in Akron's notation (`C3`, `CD34`).
fn point(pos: &Akron, name: &str) -> Point {
    pos.geometry().parse_point(name).unwrap()
}

fn play(pos: &mut Akron, text: &str) {
    let mv = pos
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", pos.showboard()));
    pos.play(mv);
}

fn legal(pos: &Akron) -> BTreeSet<String> {
    let mut v = Vec::new();
    pos.legal_moves(&mut v);
    v.into_iter().map(|m| pos.format_move(m)).collect()
}

fn connected(pos: &Akron, a: &str, b: &str) -> bool {
    pos.group(point(pos, a)) == pos.group(point(pos, b))
}

fn colour_at(pos: &Akron, name: &str) -> Option<Color> {
    pos.at(point(pos, name))
}

// ---------------------------------------------------------------- basics

#[test]
fn piles_and_adds() {
    let mut pos = Akron::new(8).unwrap();
    assert_eq!(pos.pile(Color::Black), 32);
    assert_eq!(legal(&pos).len(), 64);
    play(&mut pos, "c3");
    assert_eq!(pos.pile(Color::Black), 31);
    assert_eq!(colour_at(&pos, "C3"), B);
    assert!(legal(&pos).contains("swap"));
    assert!(pos.parse_move("C3").is_err(), "occupied");
    assert!(pos.parse_move("CD34").is_err(), "adds go on the surface");
    assert_eq!(Akron::new(10).unwrap().pile(Color::White), 50);
    assert_eq!(Akron::new(5).unwrap().pile(Color::White), 12);
}

#[test]
fn swap_keeps_the_board_and_white_moves_again() {
    let mut pos = Akron::new(5).unwrap();
    assert!(pos.parse_move("swap").is_err());
    play(&mut pos, "C3");
    let board: Vec<u8> = pos.cells().to_vec();
    let before = pos.hash();
    play(&mut pos, "swap");
    assert_eq!(pos.cells(), &board[..]);
    assert_eq!(pos.to_move(), Color::White);
    assert_ne!(pos.hash(), before, "swap availability is part of the hash");
    assert_eq!(pos.hash(), pos.recompute_hash());
    assert!(!legal(&pos).contains("swap"));
    play(&mut pos, "D3");
    assert!(pos.parse_move("swap").is_err());
    pos.undo();
    pos.undo();
    assert_eq!(pos.hash(), before);
    play(&mut pos, "D3");
    assert!(!legal(&pos).contains("swap"), "only as the second move");
}

#[test]
fn a_lone_ball_cannot_move() {
    let mut pos = Akron::new(5).unwrap();
    play(&mut pos, "A1");
    play(&mut pos, "E5");
    assert!(legal(&pos).iter().all(|m| !m.contains('-')));
    play(&mut pos, "A2");
    play(&mut pos, "E4");
    let moves = legal(&pos);
    // A1 may go to any vacant hole touching A2 (A3, B2) but not beside
    // itself only (B1 touches nothing but A1).
    assert!(moves.contains("A1-A3"));
    assert!(moves.contains("A1-B2"));
    assert!(!moves.contains("A1-B1"));
    assert!(moves.contains("A2-B1"));
}

#[test]
fn setup_rules() {
    let mut pos = Akron::new(5).unwrap();
    assert!(pos.setup(B, "CD34").is_err(), "unsupported");
    for p in ["C3", "D3", "C4", "D4"] {
        pos.setup(W, p).unwrap();
    }
    pos.setup(B, "CD34").unwrap();
    assert_eq!(pos.pile(Color::Black), 11);
    assert_eq!(pos.pile(Color::White), 8);
    assert!(pos.setup(None, "C3").is_err(), "C3 supports a ball");
    pos.setup(None, "CD34").unwrap();
    pos.setup(None, "C3").unwrap();
    assert_eq!(pos.pile(Color::Black), 12);
    assert_eq!(pos.pile(Color::White), 9);
    assert_eq!(pos.hash(), pos.recompute_hash());
    let mut full = Akron::new(3).unwrap();
    for p in ["A1", "B1", "C1", "A2"] {
        full.setup(B, p).unwrap();
    }
    assert!(full.setup(B, "B2").is_err(), "pile empty");
}

// ------------------------------------------------------- drops (figure 3)

#[test]
fn figure3_moving_a_support_drops_the_ball_on_it() {
    let mut pos = build(
        5,
        &[(W, "C3 D3 C4 D4"), (W, "CD34"), (B, "A5 E5")],
        Color::White,
    );
    let a = point(&pos, "C3");
    assert_eq!(pos.drops_of(a), vec![(point(&pos, "CD34"), a)]);
    // Not onto the vacated point, not onto a point resting on a or b.
    assert!(pos.parse_move("C3-CD34").is_err());
    // E3 touches D3, which is connected to C3 and stays put.
    play(&mut pos, "C3-E3");
    assert_eq!(colour_at(&pos, "C3"), W);
    assert_eq!(colour_at(&pos, "CD34"), None);
    assert_eq!(colour_at(&pos, "E3"), W);
    pos.undo();
    assert_eq!(colour_at(&pos, "CD34"), W);
    assert_eq!(pos.hash(), pos.recompute_hash());
}

#[test]
fn a_ball_under_two_balls_cannot_move() {
    let pos = build(
        5,
        &[(W, "B3 C3 D3 B4 C4 D4"), (W, "BC34 CD34"), (B, "A5")],
        Color::White,
    );
    let moves = legal(&pos);
    assert!(
        moves
            .iter()
            .all(|m| !m.starts_with("C3-") && !m.starts_with("C4-"))
    );
    assert!(moves.iter().any(|m| m.starts_with("B3-")));
    assert!(pos.parse_move("C3-E3").is_err());
}

#[test]
fn destination_may_not_rest_on_a_dropping_ball_or_the_mover() {
    // Corner pyramid: A1 supports AB12 only, AB12 supports AC13 only.
    let pos = build(
        6,
        &[
            (W, "A1 B1 C1 A2 B2 C2 A3 B3"),
            (B, "C3"),
            (W, "AB12 BC12 AB23"),
            (B, "BC23"),
            (W, "AC13"),
        ],
        Color::White,
    );
    let a1 = point(&pos, "A1");
    assert_eq!(pos.drops_of(a1).len(), 2);
    let moves = legal(&pos);
    // AC13 is the vacated point; BD24 would rest on AC13's old place? It
    // needs BC23's neighbours; none of the level-2 points that rest on
    // AB12 (dropping) may be used.
    assert!(!moves.contains("A1-AC13"));
    assert!(moves.contains("A1-D1"));
}

// --------------------------------------------- deadlock step (figure 4)

#[test]
fn figure4_deadlock_resolved_by_stepping_up() {
    // White groups A3-B3-C3 and D4-E4 meet Black D3 and C4 at the common
    // point CD34; White's free piece A2 steps up there and connects.
    let mut pos = build(
        5,
        &[(W, "A2 A3 B3 C3 D4 E4"), (B, "D3 C4 D1 C5")],
        Color::White,
    );
    assert!(!connected(&pos, "C3", "D4"));
    assert!(legal(&pos).contains("A2-CD34"));
    play(&mut pos, "A2-CD34");
    assert!(connected(&pos, "C3", "D4"));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::White)));
}

// ------------------------------------------- cut and re-cut (figures 5, 6)

/// The shared base of figures 5 and 6 on 6×6: White C3-D3 is the link
/// Black cuts; Black's groups C2-D2-CD23 and C4-D4 are joined by CD34.
fn figure5_base() -> Vec<(Option<Color>, &'static str)> {
    vec![
        (W, "B2 B3 B4 E2 E3 E4 C3 D3 E1"),
        (B, "C2 D2 C4 D4 C5"),
        (W, "BC23 BC34 DE23 DE34"),
        (B, "CD23"),
    ]
}

#[test]
fn figure5_black_cuts_whites_link() {
    let mut pos = build(6, &figure5_base(), Color::Black);
    assert!(connected(&pos, "C3", "D3"));
    assert!(!connected(&pos, "C2", "C4"));
    // C5 is connected to C4, which touches CD34.
    play(&mut pos, "C5-CD34");
    assert!(
        !pos.link_uncut(point(&pos, "C3"), 0),
        "C3-D3 is cut from above"
    );
    assert!(!connected(&pos, "C3", "D3"));
    assert!(connected(&pos, "C2", "C4"));
    assert!(pos.link_uncut(point(&pos, "CD23"), 1));
}

#[test]
fn figure6_white_cuts_blacks_cut() {
    let mut base = figure5_base();
    base.push((B, "CD34"));
    base.push((W, "BD24"));
    let mut pos = build(6, &base, Color::White);
    assert!(!connected(&pos, "C3", "D3"));
    assert!(connected(&pos, "C2", "C4"));
    // E1 (linked to E2, which supports DE23) steps up to CE24.
    assert!(legal(&pos).contains("E1-CE24"));
    play(&mut pos, "E1-CE24");
    assert!(pos.link_uncut(point(&pos, "BD24"), 0));
    assert!(
        !pos.link_uncut(point(&pos, "CD23"), 1),
        "Black's cut is cut"
    );
    assert!(
        pos.link_uncut(point(&pos, "C3"), 0),
        "so White's link is restored"
    );
    assert!(connected(&pos, "C3", "D3"));
    assert!(!connected(&pos, "C2", "C4"));
}

#[test]
fn same_colour_crossings_cut_nothing() {
    let pos = build(
        5,
        &[(W, "C2 D2 C3 D3 C4 D4"), (W, "CD23 CD34"), (B, "A1")],
        Color::Black,
    );
    assert!(pos.link_uncut(point(&pos, "C3"), 0));
    assert!(pos.link_uncut(point(&pos, "CD23"), 1));
}

#[test]
fn links_three_levels_apart() {
    // C3-D3 (level 0) is crossed three levels up by BE14-BE25. Fill the
    // pyramid below with colours that make no other crossing: Black C3 and
    // D3, White above; then check the level-1 crossing (CD23-CD34) is
    // White too only in the second case.
    let base = "B1 C1 D1 E1 B2 C2 D2 E2 B4 C4 D4 E4 B5 C5 D5 E5 B3 E3";
    let l1 = "BC12 CD12 DE12 BC23 CD23 DE23 BC34 CD34 DE34 BC45 CD45 DE45";
    let l2 = "BD13 CE13 BD24 CE24 BD35 CE35";
    let make = |top: Option<Color>, l1_colour: Option<Color>| {
        build(
            10,
            &[
                (B, "C3 D3"),
                (B, base),
                (l1_colour, l1),
                (B, l2),
                (top, "BE14 BE25"),
            ],
            Color::Black,
        )
    };
    // Level 1 Black (no cut there), level 3 White: cut from three levels up.
    let pos = make(W, B);
    assert!(pos.link_uncut(point(&pos, "BE14"), 1));
    assert!(!pos.link_uncut(point(&pos, "C3"), 0), "cut by BE14-BE25");
    // Level 3 Black: nothing cuts C3-D3.
    let pos = make(B, B);
    assert!(pos.link_uncut(point(&pos, "C3"), 0));
    // Level 1 White cuts C3-D3 unless a Black link two levels higher cuts
    // it: CD23-CD34 is crossed by the level-2 link BD24-CE24 (Black), so it
    // is cut and C3-D3 stands, unless level 3 (White) cuts C3-D3 itself.
    let pos = make(B, W);
    assert!(!pos.link_uncut(point(&pos, "CD23"), 1));
    assert!(pos.link_uncut(point(&pos, "C3"), 0));
    let pos = make(W, W);
    assert!(!pos.link_uncut(point(&pos, "C3"), 0));
}

// ---------------------------------------------- cascade (figure 8)

#[test]
fn figure8_triple_cascade_and_its_forbidden_destination() {
    let mut pos = build(
        8,
        &[
            (W, "A1 B1 C1 D1"),
            (B, "A2 B2 C2 D2 A3 B3 C3 D3 A4 B4 C4 D4"),
            (B, "AB12 BC12 CD12 AB23 BC23 CD23 AB34 BC34 CD34"),
            (B, "AC13 BD13 AC24 BD24"),
            (W, "AD14"),
        ],
        Color::White,
    );
    let a = point(&pos, "A1");
    let names = |v: Vec<(Point, Point)>| -> Vec<(String, String)> {
        v.into_iter()
            .map(|(x, y)| {
                let g = pos.geometry();
                (g.point_name(x).to_string(), g.point_name(y).to_string())
            })
            .collect()
    };
    assert_eq!(
        names(pos.drops_of(a)),
        vec![
            ("AB12".to_string(), "A1".to_string()),
            ("AC13".to_string(), "AB12".to_string()),
            ("AD14".to_string(), "AC13".to_string()),
        ]
    );
    let moves = legal(&pos);
    assert!(
        !moves.contains("A1-AD14"),
        "the vacated top is not a destination"
    );
    assert!(pos.parse_move("A1-AD14").is_err());
    assert!(moves.contains("A1-E1"));
    play(&mut pos, "A1-E1");
    assert_eq!(colour_at(&pos, "A1"), B);
    assert_eq!(colour_at(&pos, "AB12"), B);
    assert_eq!(colour_at(&pos, "AC13"), W);
    assert_eq!(colour_at(&pos, "AD14"), None);
    assert_eq!(colour_at(&pos, "E1"), W);
    assert_eq!(pos.hash(), pos.recompute_hash());
    pos.undo();
    assert_eq!(colour_at(&pos, "A1"), W);
    assert_eq!(colour_at(&pos, "AD14"), W);
}

// ------------------------------------------------------------- endings

#[test]
fn connection_wins_at_once() {
    let mut pos = build(4, &[(B, "A1 A2 A3"), (W, "D1 D2")], Color::Black);
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "A4");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
    assert!(legal(&pos).is_empty());
    assert!(pos.parse_move("B1").is_err());
    pos.undo();
    assert_eq!(pos.outcome(), None);
}

#[test]
fn lifting_a_cut_reveals_the_opponents_connection() {
    // Black C1..C5 is cut between C2 and C3 by White BC23-CD23. White lifts
    // BC23: Black wins on the spot.
    let mut pos = build(
        5,
        &[(B, "C1 C2 C3 C4 C5"), (W, "B2 B3 D2 D3"), (W, "BC23 CD23")],
        Color::White,
    );
    assert_eq!(pos.outcome(), None);
    assert!(!connected(&pos, "C2", "C3"));
    play(&mut pos, "BC23-A2");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
}

#[test]
fn lift_reveal_wins_whatever_the_destination_does() {
    // As above, but BC23 goes to BC45, where BC45-CD45 cuts C4-C5: the
    // final position shows no Black connection, yet Black won when BC23
    // was picked up.
    let mut pos = build(
        5,
        &[
            (B, "C1 C2 C3 C4 C5"),
            (W, "B2 B3 D2 D3 B4 B5 D4 D5"),
            (W, "BC23 CD23 CD45"),
        ],
        Color::White,
    );
    assert_eq!(pos.outcome(), None);
    assert!(legal(&pos).contains("BC23-BC45"));
    play(&mut pos, "BC23-BC45");
    assert!(!pos.link_uncut(point(&pos, "C4"), 1), "C4-C5 is cut now");
    assert!(!pos.is_connected(Color::Black));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
}

#[test]
fn no_legal_move_loses() {
    // Black's pile is empty and its balls are all alone.
    let mut pos = build(3, &[(B, "A1 C1 A3 C3"), (W, "B2")], Color::White);
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "A2");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::White)));
    pos.undo();
    let pos = build(3, &[(B, "A1 C1 A3 C3"), (W, "B2")], Color::Black);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn third_occurrence_is_a_draw() {
    let mut pos = Akron::new(4).unwrap();
    for m in ["A1", "D4", "A2", "D3"] {
        play(&mut pos, m);
    }
    let cycle = ["A2-B1", "D3-C4", "B1-A2", "C4-D3"];
    for round in 0..2 {
        for (k, m) in cycle.iter().enumerate() {
            assert_eq!(pos.outcome(), None, "round {round} move {k}");
            play(&mut pos, m);
        }
    }
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert!(legal(&pos).is_empty());
    pos.undo();
    assert_eq!(pos.outcome(), None);
    // An add in between starts the count afresh.
    play(&mut pos, "B4");
    assert_eq!(pos.outcome(), None);
}

// ------------------------------------------------------------ perft

#[test]
fn perft_small_counts() {
    let mut pos = Akron::new(4).unwrap();
    assert_eq!(perft(&mut pos, 1), 16);
    // 16 first moves, then 15 adds + swap.
    assert_eq!(perft(&mut pos, 2), 16 * 16);
    let mut pos = Akron::new(3).unwrap();
    assert_eq!(perft(&mut pos, 1), 9);
}

// ------------------------------------------------- reference and properties

/// A level-L point's centre in half-hole units.
fn centre(pos: &Akron, p: Point) -> (i32, i32) {
    let g = pos.geometry();
    let l = g.level[p as usize] as i32;
    (
        2 * g.column[p as usize] as i32 + l,
        2 * g.row[p as usize] as i32 + l,
    )
}

/// Uncut links computed from scratch, by geometry: a link between two
/// same-colour balls side by side on one level is cut when a perpendicular
/// link an odd number of levels higher, of the other colour, uncut itself,
/// passes over its midpoint.
fn reference_links(pos: &Akron) -> Vec<(Point, Point, bool)> {
    let g = pos.geometry();
    let np = g.num_points;
    let mut links = Vec::new();
    for p in 0..np as Point {
        for q in 0..np as Point {
            if p < q
                && g.level[p as usize] == g.level[q as usize]
                && pos.at(p).is_some()
                && pos.at(p) == pos.at(q)
            {
                let (a, b) = (centre(pos, p), centre(pos, q));
                if (a.0 - b.0).abs() + (a.1 - b.1).abs() == 2 {
                    links.push((p, q));
                }
            }
        }
    }
    links.sort_by_key(|&(p, _)| std::cmp::Reverse(g.level[p as usize]));
    let mut uncut: Vec<bool> = Vec::with_capacity(links.len());
    for (k, &(p, q)) in links.iter().enumerate() {
        let (a, b) = (centre(pos, p), centre(pos, q));
        let lp = g.level[p as usize] as i32;
        let mut ok = true;
        for (j, &(x, y)) in links[..k].iter().enumerate() {
            let lx = g.level[x as usize] as i32;
            if lx <= lp || (lx - lp) % 2 == 0 || pos.at(x) == pos.at(p) || !uncut[j] {
                continue;
            }
            let (c, d) = (centre(pos, x), centre(pos, y));
            let horizontal = a.1 == b.1;
            let other_horizontal = c.1 == d.1;
            if horizontal == other_horizontal {
                continue;
            }
            let crosses = if horizontal {
                let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
                let (y0, y1) = (c.1.min(d.1), c.1.max(d.1));
                (x0..=x1).contains(&c.0) && (y0..=y1).contains(&a.1)
            } else {
                let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
                let (x0, x1) = (c.0.min(d.0), c.0.max(d.0));
                (y0..=y1).contains(&c.1) && (x0..=x1).contains(&a.0)
            };
            if crosses {
                ok = false;
                break;
            }
        }
        uncut.push(ok);
    }
    links
        .into_iter()
        .zip(uncut)
        .map(|((p, q), u)| (p, q, u))
        .collect()
}

fn touches(pos: &Akron, x: Point, d: Point) -> bool {
    let g = pos.geometry();
    let (lx, ld) = (g.level[x as usize] as i32, g.level[d as usize] as i32);
    let (a, b) = (centre(pos, x), centre(pos, d));
    let dist = (a.0 - b.0).abs() + (a.1 - b.1).abs();
    (lx == ld && dist == 2)
        || ((lx - ld).abs() == 1 && (a.0 - b.0).abs() == 1 && (a.1 - b.1).abs() == 1)
}

/// Group labels from scratch: uncut links plus ball-support contacts.
fn reference_groups(pos: &Akron) -> Vec<usize> {
    let g = pos.geometry();
    let np = g.num_points;
    let mut parent: Vec<usize> = (0..np).collect();
    fn find(parent: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while parent[r] != r {
            r = parent[r];
        }
        parent[x] = r;
        r
    }
    let union = |a: usize, b: usize, parent: &mut Vec<usize>| {
        let (ra, rb) = (find(parent, a), find(parent, b));
        parent[ra] = rb;
    };
    for (p, q, ok) in reference_links(pos) {
        if ok {
            union(p as usize, q as usize, &mut parent);
        }
    }
    for p in 0..np as Point {
        if pos.at(p).is_none() || g.level[p as usize] == 0 {
            continue;
        }
        for &s in &g.supports[p as usize] {
            if pos.at(s) == pos.at(p) {
                union(p as usize, s as usize, &mut parent);
            }
        }
    }
    (0..np).map(|x| find(&mut parent, x)).collect()
}

/// The legal moves from scratch, straight from RULINGS.md.
fn reference_legal(pos: &Akron) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if pos.outcome().is_some() {
        return out;
    }
    let g = pos.geometry();
    let np = g.num_points as Point;
    let me = Some(pos.to_move());
    let n = g.n;
    if pos.pile(pos.to_move()) > 0 {
        for p in 0..(n * n) as Point {
            if pos.at(p).is_none() {
                out.insert(g.point_name(p).to_string());
            }
        }
    }
    if pos.moves_played() == 1 && pos.to_move() == Color::White && pos.swap_available() {
        out.insert("swap".into());
    }
    let groups = reference_groups(pos);
    let resting_on = |p: Point| -> Vec<Point> {
        (0..np)
            .filter(|&q| {
                pos.at(q).is_some()
                    && g.level[q as usize] == g.level[p as usize] + 1
                    && g.supports[q as usize].contains(&p)
            })
            .collect()
    };
    for m in 0..np {
        if pos.at(m) != me {
            continue;
        }
        let on = resting_on(m);
        if on.len() > 1 {
            continue;
        }
        let mut dropping = Vec::new();
        let mut top = m;
        let mut next = on;
        while let Some(&u) = next.first() {
            assert_eq!(next.len(), 1, "the chain is unique");
            dropping.push(u);
            top = u;
            next = resting_on(u);
        }
        let _vacated = top;
        for d in 0..np {
            if pos.at(d).is_some() {
                continue;
            }
            let sup_ok = g.level[d as usize] == 0
                || g.supports[d as usize]
                    .iter()
                    .all(|&s| pos.at(s).is_some() && s != m && !dropping.contains(&s));
            if !sup_ok {
                continue;
            }
            let touch_ok = (0..np).any(|x| {
                pos.at(x) == me
                    && x != m
                    && !dropping.contains(&x)
                    && groups[x as usize] == groups[m as usize]
                    && touches(pos, x, d)
            });
            if touch_ok {
                out.insert(format!("{}-{}", g.point_name(m), g.point_name(d)));
            }
        }
    }
    out
}

/// Everything that must hold in every position.
fn check_invariants(pos: &Akron, full: bool) {
    let g = pos.geometry();
    assert_eq!(pos.hash(), pos.recompute_hash());
    let mut counts = [0usize; 2];
    for p in 0..g.num_points as Point {
        if let Some(c) = pos.at(p) {
            counts[c.index()] += 1;
            if g.level[p as usize] > 0 {
                for &s in &g.supports[p as usize] {
                    assert!(pos.at(s).is_some(), "floating ball on {}", g.point_name(p));
                }
            }
        }
    }
    for c in Color::ALL {
        assert_eq!(
            pos.pile(c) + counts[c.index()],
            g.pile_size,
            "pile of {c:?}"
        );
    }
    if full {
        for (p, q, ok) in reference_links(pos) {
            let d = if g.column[q as usize] != g.column[p as usize] {
                0
            } else {
                1
            };
            assert_eq!(
                pos.link_uncut(p, d),
                ok,
                "link {}-{}\n{}",
                g.point_name(p),
                g.point_name(q),
                pos.showboard()
            );
        }
        let groups = reference_groups(pos);
        for p in 0..g.num_points as Point {
            for q in 0..g.num_points as Point {
                if pos.at(p).is_some() && pos.at(q).is_some() {
                    assert_eq!(
                        groups[p as usize] == groups[q as usize],
                        pos.group(p) == pos.group(q)
                    );
                }
            }
        }
        assert_eq!(legal(pos), reference_legal(pos), "\n{}", pos.showboard());
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut scratch = pos.clone();
        let mut add_wins = false;
        for m in moves {
            assert!(pos.is_legal(m));
            if let AkronMove::Add(_) = m {
                scratch.play(m);
                add_wins |= scratch.outcome() == Some(Outcome::Win(pos.to_move()));
                scratch.undo();
            }
        }
        assert_eq!(pos.add_wins(), add_wins, "\n{}", pos.showboard());
    }
}

/// A random game: mostly adds early, then moves that climb.
fn random_game(n: usize, seed: u64, plies: usize, full_every: usize) -> usize {
    let mut highest = 0;
    let mut rng = Rng(seed);
    let mut pos = Akron::new(n).unwrap();
    let mut moves = Vec::new();
    for ply in 0..plies {
        check_invariants(&pos, ply % full_every == 0);
        highest = highest.max(pos.top_level());
        if pos.outcome().is_some() {
            break;
        }
        moves.clear();
        pos.legal_moves(&mut moves);
        assert!(!moves.is_empty(), "no move but no outcome");
        let steps: Vec<AkronMove> = moves
            .iter()
            .copied()
            .filter(|m| matches!(m, AkronMove::Step(..)))
            .collect();
        let mv = if !steps.is_empty() && rng.below(3) > 0 {
            // Prefer climbing.
            let g = pos.geometry();
            let best = steps
                .iter()
                .map(|&m| match m {
                    AkronMove::Step(_, d) => g.level[d as usize],
                    _ => 0,
                })
                .max()
                .unwrap();
            let high: Vec<AkronMove> = steps
                .iter()
                .copied()
                .filter(|&m| matches!(m, AkronMove::Step(_, d) if g.level[d as usize] == best))
                .collect();
            if rng.below(2) == 0 {
                high[rng.below(high.len())]
            } else {
                steps[rng.below(steps.len())]
            }
        } else {
            moves[rng.below(moves.len())]
        };
        let before = pos.hash();
        let legal_before = legal(&pos);
        pos.play(mv);
        assert_eq!(pos.hash(), pos.recompute_hash());
        pos.undo();
        assert_eq!(pos.hash(), before);
        assert_eq!(legal(&pos), legal_before);
        pos.play(mv);
    }
    // Undo everything back to the start.
    while pos.moves_played() > 0 {
        pos.undo();
        assert_eq!(pos.hash(), pos.recompute_hash());
    }
    assert_eq!(pos.hash(), Akron::new(n).unwrap().hash());
    highest
}

#[test]
fn random_games_match_the_reference() {
    let mut highest = 0;
    for seed in 0..6 {
        highest = highest.max(random_game(4, seed, 200, 1));
        highest = highest.max(random_game(5, 100 + seed, 200, 2));
    }
    for seed in 0..3 {
        highest = highest.max(random_game(6, 200 + seed, 250, 5));
    }
    eprintln!("highest level reached: {highest}");
    assert!(highest >= 2);
}

/// A random pyramid built with `setup`: every supported point filled with
/// some probability, random colours while the piles last.
fn random_stack(n: usize, seed: u64) -> Akron {
    let mut rng = Rng(seed);
    let mut pos = Akron::new(n).unwrap();
    // A dense block where the stack can grow, sparse elsewhere.
    let k = 4 + rng.below(2);
    let (bi, bj) = (rng.below(n - k + 1), rng.below(n - k + 1));
    for l in 0..n {
        let geo = Akron::new(n).unwrap();
        let g = geo.geometry();
        let points: Vec<Point> = (g.offset[l]..g.offset[l + 1]).map(|p| p as Point).collect();
        for p in points {
            let (i, j) = (g.column[p as usize] as usize, g.row[p as usize] as usize);
            let inside = i >= bi && j >= bj && i + l < bi + k && j + l < bj + k;
            let fill = match (l, inside) {
                (_, true) => 93,
                (0, false) => 35,
                (_, false) => 60,
            };
            if !pos.supported(p) || rng.below(100) >= fill {
                continue;
            }
            let c = if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            let c = if pos.pile(c) > 0 { c } else { c.opponent() };
            if pos.pile(c) > 0 {
                pos.setup(Some(c), g.point_name(p)).unwrap();
            }
        }
    }
    pos
}

#[test]
fn random_stacks_match_the_reference() {
    let mut highest = 0;
    let mut playable = 0;
    for seed in 0..60 {
        let n = 5 + (seed as usize % 3);
        let mut pos = random_stack(n, 500 + seed);
        highest = highest.max(pos.top_level());
        check_invariants(&pos, true);
        let mut rng = Rng(seed);
        let mut moves = Vec::new();
        for _ in 0..6 {
            if pos.outcome().is_some() {
                break;
            }
            playable += 1;
            moves.clear();
            pos.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            pos.play(mv);
            check_invariants(&pos, true);
        }
    }
    eprintln!("highest level {highest}, {playable} moves played");
    assert!(
        highest >= 3,
        "stacks must be high enough to test links 3 levels apart"
    );
    assert!(playable >= 20);
}

#[test]
fn random_games_keep_invariants_on_8x8() {
    for seed in 0..3 {
        let _ = random_game(8, 300 + seed, 300, 25);
    }
}

#[test]
#[ignore = "long: many random games against the reference"]
fn random_games_long() {
    for seed in 0..200 {
        let _ = random_game(4 + (seed as usize % 4), 1000 + seed, 400, 1);
    }
}

/// A random move of `legal`: a step (they climb and drop) two times in
/// three when there is one.
fn random_akron_move(rng: &mut Rng, legal: &[AkronMove]) -> AkronMove {
    random_move(rng, legal, |m| matches!(m, AkronMove::Step(..)), 67)
}

/// The searcher's candidate moves are legal, keep every move that wins at
/// once, and leave some moves out.
#[test]
fn candidate_moves_keep_every_winning_move() {
    use crosscut::games::akron::Distance;
    use crosscut::search::Evaluator;
    let (mut legal_moves, mut cand) = (Vec::new(), Vec::new());
    let (mut wins, mut pruned) = (0, 0);
    for seed in 0..24u64 {
        let n = [4, 5, 6, 8][seed as usize % 4];
        let mut rng = Rng(900 + seed);
        let mut pos = Akron::new(n).unwrap();
        for _ in 0..300 {
            if pos.outcome().is_some() {
                break;
            }
            legal_moves.clear();
            pos.legal_moves(&mut legal_moves);
            cand.clear();
            Distance.candidate_moves(&pos, &mut cand);
            assert!(!cand.is_empty());
            for m in &cand {
                assert!(legal_moves.contains(m), "{m:?} is not legal");
            }
            let me = pos.to_move();
            for &m in &legal_moves {
                pos.play(m);
                let won = pos.outcome() == Some(Outcome::Win(me));
                pos.undo();
                if won {
                    wins += 1;
                    assert!(
                        cand.contains(&m),
                        "winning {m:?} pruned\n{}",
                        pos.showboard()
                    );
                }
            }
            pruned += legal_moves.len() - cand.len();
            pos.play(random_akron_move(&mut rng, &legal_moves));
        }
    }
    eprintln!("winning moves checked: {wins}, moves left out: {pruned}");
    assert!(wins > 0 && pruned > 0);
}

/// The same board with the other side to move (a null move).
fn passed(pos: &Akron) -> Akron {
    let geo = pos.geometry();
    let mut t = Akron::new(geo.n).unwrap();
    for (p, &c) in pos.cells().iter().enumerate() {
        if c != 0 {
            let color = if c == 1 { Color::Black } else { Color::White };
            t.setup(Some(color), geo.point_name(p as Point)).unwrap();
        }
    }
    t.set_to_move(pos.to_move().opponent()).unwrap();
    t
}

/// When the opponent threatens a win at once (it would have one if the
/// side to move passed), every move that leaves it none (a defence) is
/// among the candidate moves.
#[test]
fn candidate_moves_keep_every_defence() {
    use crosscut::games::akron::Distance;
    use crosscut::search::Evaluator;
    let (mut legal_moves, mut cand) = (Vec::new(), Vec::new());
    let mut defences = 0;
    for seed in 0..100u64 {
        let n = [4, 5, 6][seed as usize % 3];
        let mut rng = Rng(1700 + seed);
        let mut pos = Akron::new(n).unwrap();
        for _ in 0..200 {
            if pos.outcome().is_some() {
                break;
            }
            legal_moves.clear();
            pos.legal_moves(&mut legal_moves);
            let mut saving = Vec::new();
            if has_win_in_one(&mut passed(&pos)) {
                for &m in &legal_moves {
                    pos.play(m);
                    if pos.outcome().is_none() && !has_win_in_one(&mut pos) {
                        saving.push(m);
                    }
                    pos.undo();
                }
            }
            if !saving.is_empty() {
                cand.clear();
                Distance.candidate_moves(&pos, &mut cand);
                for m in &saving {
                    defences += 1;
                    assert!(
                        cand.contains(m),
                        "defence {m:?} pruned\n{}",
                        pos.showboard()
                    );
                }
            }
            pos.play(random_akron_move(&mut rng, &legal_moves));
        }
    }
    eprintln!("defences checked: {defences}");
    assert!(defences > 0);
}

/// The evaluation's shortest-connection search gives the same distances as
/// the connection distance, and a colour with a connection to make has at
/// least as many points on its shortest connections as balls to place
/// (every one of them is such a point); none when it is joined or cut off.
#[test]
fn flexibility_counts_the_shortest_connections() {
    use crosscut::games::akron::eval::{
        UNREACHABLE, connection_distance, distances_and_flexibility,
    };
    let mut legal_moves = Vec::new();
    let mut open = 0;
    for seed in 0..24u64 {
        let n = [4, 5, 6, 8][seed as usize % 4];
        let mut rng = Rng(2300 + seed);
        let mut pos = Akron::new(n).unwrap();
        for _ in 0..200 {
            if pos.outcome().is_some() {
                break;
            }
            let (distance, flexibility) = distances_and_flexibility(&pos);
            for color in Color::ALL {
                let (d, f) = (distance[color.index()], flexibility[color.index()]);
                assert_eq!(d, connection_distance(&pos, color), "\n{}", pos.showboard());
                if d == 0 || d >= UNREACHABLE {
                    assert_eq!(f, 0, "\n{}", pos.showboard());
                } else {
                    open += 1;
                    assert!(f >= d, "{color:?} {d} {f}\n{}", pos.showboard());
                }
            }
            legal_moves.clear();
            pos.legal_moves(&mut legal_moves);
            pos.play(random_akron_move(&mut rng, &legal_moves));
        }
    }
    assert!(open > 100);
}

/// Without the swap (`swap off`) White's second move never offers nor
/// accepts it; with it the game is unchanged (see
/// [`crate::common::check_swap_off`]).
#[test]
fn swap_off_never_offers_the_swap() {
    let on = Akron::new(5).unwrap();
    crate::common::check_swap_off(&on, Akron::set_swap, AkronMove::Swap, 40, 40);
}
