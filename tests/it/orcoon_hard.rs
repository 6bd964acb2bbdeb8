//! Hard adjudication positions: positions on which the exact adjudication
//! once took minutes, with their answers established independently (their
//! time: `cargo bench --bench orcoon_hard`).

use crate::common::orcoon_ref::*;
use crosscut::game::Color;

/// Checks, with the naive rules, that `me` may never place on `q` while
/// `cond` holds: for every way of filling the empty points within two
/// rows and columns of `q` (every point that can share a diagonal pair or
/// a crosscut window with `q`) with `me`'s stones, `q` is illegal whenever
/// `cond` holds. The opponent adds no stones, and legality of `q` depends
/// on nothing farther away, so this covers every position the puzzle can
/// reach.
fn never_legal_while(n: usize, cells: &[u8], me: u8, q: &str, cond: impl Fn(&[u8]) -> bool) {
    let q = index(n, q);
    let (qr, qc) = (q / n, q % n);
    let near: Vec<usize> = (0..n * n)
        .filter(|&p| p != q && cells[p] == 0)
        .filter(|&p| (p / n).abs_diff(qr) <= 2 && (p % n).abs_diff(qc) <= 2)
        .collect();
    assert!(near.len() <= 16);
    let mut checked = 0;
    for mask in 0u32..1 << near.len() {
        let mut work = cells.to_vec();
        for (i, &p) in near.iter().enumerate() {
            if mask >> i & 1 == 1 {
                work[p] = me;
            }
        }
        if cond(&work) {
            checked += 1;
            assert!(
                !naive_legal(n, &mut work, q, me),
                "{} legal with {mask:b} over {near:?}",
                name(n, q)
            );
        }
    }
    assert!(checked > 0);
}

/// White cannot connect (Black can). The reason, checked step by step:
///
/// Every path of White stones from the left edge to the right one passes
/// H6 (Black's wall G13..G7 and K1..K6 with I6 J6 H4 leave only the gap
/// G5 G6 H5 H6, and the way on east is H7, whose other neighbours are
/// Black or I7, which is east already): checked by flood fill below.
///
/// H6 can never be filled. Each step holds on every reachable board:
/// (a) H6 needs H5 first (diagonal I5, shared H5 / Black I6);
/// (b) H6 needs H7 first (crosscut H6 I8 against H8 I6; with only I7
///     filled, H6 and I7 are a diagonal pair needing H7);
/// (c) H7 needs I7 first (diagonal I8, shared I7 / Black H8);
/// (d) H5 needs G5 first (diagonal G4, shared G5 / Black H4);
/// (e) G5 needs G6 first (crosscut G5 F7 against F5 G7);
/// (f) with I7 White, G6 needs H6 first (crosscut G6 I7 against G7 I6);
/// (g) with G6 White, I7 needs H7 first (the same window).
/// If H6 were placed at time t: H7 < t (b), I7 < H7 (c), H5 < t (a),
/// G5 < H5 (d), G6 < G5 (e). If I7 < G6, then H6 < G6 < t (f): no. If
/// G6 < I7, then H7 < I7 (g), against (c). So no order places H6.
#[test]
fn seed345_white_cannot_connect() {
    let (n, cells) = parse_rows(&SEED345);
    let w = 2u8;
    let at = |c: &[u8], s: &str| c[index(n, s)];
    never_legal_while(n, &cells, w, "H6", |c| at(c, "H5") == 0);
    never_legal_while(n, &cells, w, "H6", |c| at(c, "H7") == 0);
    never_legal_while(n, &cells, w, "H7", |c| at(c, "I7") == 0);
    never_legal_while(n, &cells, w, "H5", |c| at(c, "G5") == 0);
    never_legal_while(n, &cells, w, "G5", |c| at(c, "G6") == 0);
    never_legal_while(n, &cells, w, "G6", |c| at(c, "I7") == w && at(c, "H6") == 0);
    never_legal_while(n, &cells, w, "I7", |c| at(c, "G6") == w && at(c, "H7") == 0);
    // Without H6, White's stones and all empty points do not join the
    // left and right edges.
    let mut open = cells.clone();
    for v in open.iter_mut() {
        if *v == 0 {
            *v = w;
        }
    }
    assert!(naive_connected(n, &open, w));
    open[index(n, "H6")] = 1;
    assert!(!naive_connected(n, &open, w));

    let mut g = position(n, &cells);
    assert_eq!(g.connecting_sequence(Color::White), None);
    assert!(g.solver().dead_points() > 0);
    // A pass by Black is adjudicated the same way: Black wins.
    assert_eq!(g.adjudicate(Color::Black), Color::Black);
}

/// Black can connect: the sequence the engine shows is legal move by move
/// under the naive rules and joins Black's edges.
#[test]
fn seed345_black_connects() {
    let (n, cells) = parse_rows(&SEED345);
    let mut g = position(n, &cells);
    let seq = g.connecting_sequence(Color::Black).expect("Black connects");
    let mut work = cells.clone();
    for &p in &seq {
        assert!(
            naive_legal(n, &mut work, p as usize, 1),
            "{}",
            name(n, p as usize)
        );
        work[p as usize] = 1;
    }
    assert!(naive_connected(n, &work, 1));
}
