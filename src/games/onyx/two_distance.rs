//! Queenbee's two-distance (van Rijswijck) adapted to Onyx, and an
//! evaluation built on it.
//!
//! The graph is the board's lines (orthogonals, the single diagonals of the
//! non-square cells, midpoint spokes) seen by one colour, as in
//! [`super::distance::Board`]:
//! - *nodes* are the passable points: placeable empty points (a midpoint only
//!   while its four corners are empty), plus, for the colour that is not to
//!   move, its own pieces under capture threat (they may still be lost, so
//!   they count like an empty point, not as a safe link), and, for the side
//!   to move, the opponent's pieces it can capture with one placement (the
//!   capture takes them off and reopens the route; the side not to move
//!   gives the opponent a chance to defend first);
//! - the colour's safe pieces are contracted: two nodes are adjacent when
//!   they share a line or both touch the same own group (a group is free to
//!   pass through, as in Benzene's two-distance over empty virtual
//!   connections);
//! - opponent pieces and blocked midpoints are walls.
//!
//! The two-distance of a node from an edge is 1 when the node is on that
//! edge or touches an own group that reaches it (the edge is one virtual
//! node that the opponent cannot cut from a point standing on it, so it
//! counts as two neighbours at distance 0, as the cells next to the edge in
//! Hex get distance 1 in Queenbee and Benzene); otherwise it is 1 + the
//! second smallest two-distance among its neighbours (infinite with fewer
//! than two finite neighbours). The potential of a colour is the smallest
//! `td(first edge) + td(second edge)` over the nodes, and its mobility the
//! number of nodes that reach it.
//!
//! The computation is the level-synchronous relaxation on bitsets of the
//! kernel Onyx shares with Hex ([`crate::games::two_distance`]): level d
//! holds the nodes of two-distance d; each node of level d adds its
//! contracted neighbourhood to `once`, and to `twice` where it was already
//! in `once`; level d + 1 is the passable part of `twice` minus the nodes
//! already placed. Here, own groups are labelled once per colour, and every
//! point's contracted neighbourhood (its lines, plus the points around the
//! own groups it touches) is tabled as a bitset, in a per-thread scratch
//! buffer (grown once, never per call), kept while that colour's pieces
//! stay the same: the neighbourhoods hold no empty-point information (the
//! passable points are masked in when a level is taken), so siblings in
//! the search, which differ only in the other colour's pieces, share them.
//! A colour's groups one piece on from those last labelled are derived
//! from them (the piece joins the groups it touches): at the leaves, the
//! side that just moved has one piece more than at the node above.

use std::cell::RefCell;

use super::board::{Onyx, edge_bits};
use super::distance::{
    Board, MAX_LEVELS, UNREACHABLE, add_neighbours, by_words, connects_in_one, search,
};
use super::geometry::Geometry;
use crate::game::{Color, Game};
use crate::games::two_distance::{self, Td, widen, widen_all};
use crate::search::{Score, WIN_NEXT_MOVE};

pub use crate::games::two_distance::{MAX_TD, TD_INFINITE, TdLevels};

/// Score of one unit of potential.
const STEP: Score = 100;
/// Value of one unit of mobility.
const MOBILITY: Score = 3;
/// Bonus for having the move.
const TEMPO: Score = 30;

/// The own groups of one colour, and the contracted neighbourhood of every
/// point that they give.
#[derive(Default)]
struct Groups {
    /// Board size and own pieces the groups were labelled for.
    n: usize,
    own: Vec<u64>,
    /// Every point next to each group (`W` words a group; the group's own
    /// pieces among them).
    around: Vec<u64>,
    /// The edges each group touches.
    gedge: Vec<u8>,
    /// The contracted neighbourhood of each point (`W` words a point):
    /// its neighbours, and every point around the own groups next to it.
    /// Read through the passable points not yet placed, it is the point's
    /// neighbourhood in the contracted graph.
    contracted: Vec<u64>,
}

/// A thread's working memory: for each colour, its groups as last
/// labelled from scratch and as last derived from those with one more
/// piece (each kept while its pieces stay the same: siblings in the search
/// differ in the other colour's pieces, or in the one piece the side that
/// moved placed), and the levels of the two searches.
#[derive(Default)]
struct Scratch {
    groups: [[Groups; 2]; 2],
    levels: Vec<u64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The groups of `board`'s own pieces: `pair[0]` when it holds them, or
/// `pair[1]`, derived from `pair[0]` when the pieces are those plus one,
/// or else `pair[0]` labelled afresh.
fn label_groups<'a, const W: usize>(
    geo: &Geometry,
    board: &Board<W>,
    pair: &'a mut [Groups; 2],
) -> &'a Groups {
    let [base, derived] = pair;
    let same = |g: &Groups| g.n == geo.n && g.own[..] == board.own[..];
    if same(base) {
        return base;
    }
    if same(derived) {
        return derived;
    }
    if base.n == geo.n {
        let extra: [u64; W] = std::array::from_fn(|k| board.own[k] & !base.own[k]);
        let missing = (0..W).any(|k| base.own[k] & !board.own[k] != 0);
        let added: u32 = extra.iter().map(|w| w.count_ones()).sum();
        if !missing && added == 1 {
            let wi = extra.iter().position(|&w| w != 0).unwrap_or(0);
            let p = wi * 64 + extra[wi].trailing_zeros() as usize;
            derive(geo, base, p, &board.own, derived);
            return derived;
        }
    }
    relabel(geo, &board.own, base);
    base
}

/// Sets `out` to the groups of `own`: those of `base` with the piece `p`
/// added, which joins every group it touches.
fn derive<const W: usize>(
    geo: &Geometry,
    base: &Groups,
    p: usize,
    own: &[u64; W],
    out: &mut Groups,
) {
    let (around, _) = base.around.as_chunks::<W>();
    let (lines, _) = geo.neighbour_bits.as_chunks::<W>();
    let nb = &lines[p];
    let (wi, bit) = (p / 64, 1u64 << (p % 64));
    // The joined group: the piece, and every group it touches.
    let mut joined = *nb;
    let mut edges = geo.edges[p];
    out.n = base.n;
    out.own.clear();
    out.own.extend_from_slice(own);
    out.gedge.clear();
    out.around.clear();
    for (around, &gedge) in around.iter().zip(&base.gedge) {
        if around[wi] & bit != 0 {
            for (j, a) in joined.iter_mut().zip(around) {
                *j |= a;
            }
            edges |= gedge;
        } else {
            out.gedge.push(gedge);
            out.around.extend_from_slice(around);
        }
    }
    out.gedge.push(edges);
    out.around.extend_from_slice(&joined);
    // Every point next to the joined group gains every point around it;
    // the piece's own row goes back to its lines, as for every own piece.
    out.contracted.clear();
    out.contracted.extend_from_slice(&base.contracted);
    out.contracted[p * W..p * W + W].copy_from_slice(nb);
    widen(&mut out.contracted, &joined, own);
}

/// Labels the groups of `own` afresh.
fn relabel<const W: usize>(geo: &Geometry, own: &[u64; W], s: &mut Groups) {
    s.n = geo.n;
    s.own.clear();
    s.own.extend_from_slice(own);
    s.gedge.clear();
    s.around.clear();
    let add = |set: &[u64; W], nb: &mut [u64; W]| add_neighbours(geo, set, nb);
    two_distance::label_groups(own, &geo.edges, add, &mut s.around, &mut s.gedge);
    s.contracted.clear();
    s.contracted
        .extend_from_slice(&geo.neighbour_bits[..geo.num_points * W]);
    widen_all(&mut s.contracted, &s.around, own);
}

/// Potential and mobility of `color` on `board` (a board read for `color`):
/// the shared kernel's [`two_distance::potential`] over the contracted
/// neighbourhoods of `color`'s groups.
fn potential<const W: usize>(pos: &Onyx, board: &Board<W>, color: Color) -> (u16, u16) {
    let geo = pos.geometry();
    let (ea, eb) = edge_bits(color);
    SCRATCH.with(|s| {
        let Scratch { groups, levels } = &mut *s.borrow_mut();
        let s = label_groups(geo, board, &mut groups[color.index()]);
        let a = search_from(geo, board, s, ea);
        let b = search_from(geo, board, s, eb);
        two_distance::potential(&s.contracted, a, b, levels)
    })
}

/// The two-distance search of `board`'s colour from the edge `edge_bit`
/// (groups labelled in `s`): its points and the points around the own
/// groups on it start at distance 1.
fn search_from<const W: usize>(
    geo: &Geometry,
    board: &Board<W>,
    s: &Groups,
    edge_bit: u8,
) -> Td<W> {
    let (edge, _) = geo.edge_bits[edge_bit.trailing_zeros() as usize].as_chunks::<W>();
    Td::new(edge[0], &s.around, &s.gedge, edge_bit, board.passable)
}

/// The board the evaluation reads for `color`: [`Board::new`] (its pieces
/// under capture threat unsafe when it is not to move), with
/// [`captures_open`].
fn eval_board<const W: usize>(pos: &Onyx, color: Color) -> Board<W> {
    captures_open(Board::new(pos, color), pos, color)
}

/// For the side to move, the opponent's pieces it can capture with one
/// placement become passable: the capture takes them off the board.
fn captures_open<const W: usize>(mut board: Board<W>, pos: &Onyx, color: Color) -> Board<W> {
    if color == pos.to_move() {
        let capturable = &board.threatened[color.opponent().index()];
        for (p, c) in board.passable.iter_mut().zip(capturable) {
            *p |= c;
        }
    }
    board
}

/// Potential and mobility of `color` on the board the evaluation reads
/// ([`eval_board`]).
pub fn potential_and_mobility(pos: &Onyx, color: Color) -> (u16, u16) {
    fn go<const W: usize>(pos: &Onyx, color: Color) -> (u16, u16) {
        potential(pos, &eval_board::<W>(pos, color), color)
    }
    by_words!(pos, go(pos, color))
}

/// The potential the score counts: the two-distance potential, or, when a
/// colour has no two routes left (infinite potential), its single route
/// counted twice over, `2 × connection distance + 2`; at most `4n`. No two
/// routes is a long way off, not lost: captures can reopen a route.
fn effective_potential<const W: usize>(
    geo: &Geometry,
    board: &Board<W>,
    color: Color,
    potential: u16,
) -> u16 {
    two_distance::effective_potential(potential, 4 * geo.n as u16, || {
        let d = search(geo, board, color, MAX_LEVELS, None);
        (d < UNREACHABLE).then_some(d)
    })
}

/// Two-distance evaluation from the side to move's view:
/// `(their potential - my potential) * STEP + (my mobility - their
/// mobility) * MOBILITY + TEMPO` with the potentials of
/// [`effective_potential`], or [`WIN_NEXT_MOVE`] when the side to move
/// connects with one placement (plain connection distance 1).
pub fn evaluate_two_distance(pos: &Onyx) -> Score {
    fn go<const W: usize>(pos: &Onyx, me: Color) -> Score {
        let geo = pos.geometry();
        let board = Board::<W>::new(pos, me);
        if connects_in_one(geo, &board, me) {
            return WIN_NEXT_MOVE;
        }
        let them = me.opponent();
        let their_board = board.for_color(pos, them);
        let board = captures_open(board, pos, me);
        let (mine, my_mob) = potential(pos, &board, me);
        let (theirs, their_mob) = potential(pos, &their_board, them);
        let mine = effective_potential(geo, &board, me, mine);
        let theirs = effective_potential(geo, &their_board, them, theirs);
        (theirs as Score - mine as Score) * STEP
            + (my_mob as Score - their_mob as Score) * MOBILITY
            + TEMPO
    }
    by_words!(pos, go(pos, pos.to_move()))
}

#[cfg(test)]
mod tests {
    //! The bit-parallel two-distance against the definition iterated to a
    //! fixed point.
    use super::*;
    use crate::game::Notation;
    use crate::games::onyx::Start;
    use crate::games::onyx::random_game;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    use crate::games::two_distance::reference::{INF, best_of, contracted, fixed_point};

    const MAX_POINTS: usize = 26 * 26 + 13 * 25 + 1;

    fn bit(bits: &[u64], p: usize) -> bool {
        bits[p / 64] >> (p % 64) & 1 != 0
    }

    fn check<const W: usize>(pos: &Onyx, color: Color) {
        let geo = pos.geometry();
        let board = eval_board::<W>(pos, color);
        let passable = |p| bit(&board.passable, p);
        let own = |p: usize| bit(&board.own, p);
        let edges = &geo.edges[..geo.num_points];
        let (adj, edges) = contracted(edges, |p| geo.neighbours_of(p), own, passable);
        let (ea, eb) = edge_bits(color);
        let na = fixed_point(passable, &adj, &edges, ea);
        let nb = fixed_point(passable, &adj, &edges, eb);
        let mut from = [[0u64; W]; MAX_TD];
        let mut to = [[0u64; W]; MAX_TD];
        SCRATCH.with(|s| {
            let pair = &mut s.borrow_mut().groups[color.index()];
            let s = label_groups(geo, &board, pair);
            let nf = search_from(geo, &board, s, ea).run(&s.contracted, &mut from);
            let nt = search_from(geo, &board, s, eb).run(&s.contracted, &mut to);
            let level = |levels: &TdLevels<W>, n: usize, p: usize| {
                (1..n)
                    .find(|&d| bit(&levels[d], p))
                    .map_or(INF, |d| d as u16)
            };
            let capped = |v: u16| if (v as usize) < MAX_TD { v } else { INF };
            for p in 0..geo.num_points {
                assert_eq!(
                    level(&from, nf, p),
                    capped(na[p]),
                    "{color:?} from first edge at {}\n{}",
                    geo.point_name(p as u16),
                    pos.showboard()
                );
                assert_eq!(level(&to, nt, p), capped(nb[p]));
            }
        });
        assert_eq!(potential_and_mobility(pos, color), (best_of(&na, &nb)));
    }

    #[test]
    fn two_distance_matches_fixed_point() {
        assert!(MAX_POINTS >= Geometry::new(26).unwrap().num_points);
        let mut rng = SmallRng::seed_from_u64(11);
        for &(n, start, games, every) in &[
            (12, Start::Standard, 12, 1),
            (12, Start::Blank, 12, 1),
            (8, Start::Blank, 20, 1),
            (6, Start::Blank, 20, 1),
            (4, Start::Blank, 20, 1),
            (16, Start::Standard, 4, 3),
            (26, Start::Blank, 1, 40),
        ] {
            for _ in 0..games {
                let mut ply = 0;
                random_game(&mut rng, n, start, |pos| {
                    if ply % every == 0 {
                        for c in Color::ALL {
                            by_words!(pos, check(pos, c));
                        }
                    }
                    ply += 1;
                });
            }
        }
    }

    /// Groups derived from the last labelling plus one piece hold the same
    /// groups and the same contracted neighbourhoods as a fresh labelling
    /// (the groups may come in another order).
    #[test]
    fn derived_groups_match_a_fresh_labelling() {
        fn check<const W: usize>(pos: &Onyx, pairs: &mut [[Groups; 2]; 2], derived: &mut usize) {
            let geo = pos.geometry();
            for c in Color::ALL {
                let board = eval_board::<W>(pos, c);
                let pair = &mut pairs[c.index()];
                let derived_slot: *const Groups = &pair[1];
                let got = label_groups(geo, &board, pair);
                if std::ptr::eq(got, derived_slot) {
                    *derived += 1;
                }
                let mut fresh = Groups::default();
                relabel(geo, &board.own, &mut fresh);
                assert_eq!(got.contracted, fresh.contracted, "\n{}", pos.showboard());
                let sorted = |g: &Groups| {
                    let mut v: Vec<(Vec<u64>, u8)> = g
                        .around
                        .chunks(W)
                        .map(|a| a.to_vec())
                        .zip(g.gedge.iter().copied())
                        .collect();
                    v.sort();
                    v
                };
                assert_eq!(sorted(got), sorted(&fresh), "\n{}", pos.showboard());
            }
        }
        let mut rng = SmallRng::seed_from_u64(17);
        let mut derived = 0;
        for (n, start) in [(12, Start::Standard), (8, Start::Blank), (6, Start::Blank)] {
            for _ in 0..6 {
                // One pair per colour, as the evaluation keeps them.
                let mut pairs: [[Groups; 2]; 2] = Default::default();
                random_game(&mut rng, n, start, |pos| {
                    by_words!(pos, check(pos, &mut pairs, &mut derived));
                });
            }
        }
        assert!(derived > 100, "{derived} derivations");
    }

    /// A colour with no two routes is scored by its single route, twice
    /// over; the test finds such positions in random games and recomputes
    /// the score from the parts.
    #[test]
    fn single_route_counts_twice() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut single_routes = 0;
        for _ in 0..30 {
            random_game(&mut rng, 8, Start::Standard, |pos| {
                let pos = &*pos;
                if pos.outcome().is_some() {
                    return;
                }
                let me = pos.to_move();
                let geo = pos.geometry();
                assert_eq!(geo.words, 2);
                let mut score = |c: Color| {
                    let board = eval_board::<2>(pos, c);
                    let (p, m) = potential_and_mobility(pos, c);
                    let p = if p == TD_INFINITE {
                        single_routes += 1;
                        match search(geo, &board, c, 64, None) {
                            UNREACHABLE => 32,
                            d => (2 * d + 2).min(32),
                        }
                    } else {
                        p.min(32)
                    };
                    (p as Score, m as Score)
                };
                let (mine, my_mob) = score(me);
                let (theirs, their_mob) = score(me.opponent());
                let e = evaluate_two_distance(pos);
                if e != WIN_NEXT_MOVE {
                    assert_eq!(
                        e,
                        (theirs - mine) * STEP + (my_mob - their_mob) * MOBILITY + TEMPO,
                        "\n{}",
                        pos.showboard()
                    );
                }
            });
        }
        assert!(single_routes > 20, "{single_routes}");
    }

    #[test]
    fn empty_board_potential() {
        // On an empty board every point of row 1 is at two-distance 1 from
        // the bottom. Square cells have no diagonal, so the second route
        // often costs a detour: the potential lies between the plain
        // distance + 1 and twice that.
        let pos = Onyx::new(8, Start::Blank).unwrap();
        let (p, m) = potential_and_mobility(&pos, Color::Black);
        assert!((9..=18).contains(&p), "{p}");
        assert!(m > 0);
        let e = evaluate_two_distance(&pos);
        assert!(e.abs() < 10 * STEP, "{e}");
    }
}
