//! Onyx evaluation and move selection. The score is Queenbee's
//! two-distance potential of both colours ([`super::two_distance`]); the
//! candidate moves come from the plain connection distance (the fewest
//! placements a colour still needs: own pieces cost 0, placeable empty
//! points 1, opponent pieces block), whose shortest connections hold every
//! move that can win or stop a win.

use super::Point;
use super::board::{Onyx, OnyxMove};
#[cfg(test)]
use super::distance::distance_and_flexibility_any as distance_and_flexibility;
pub use super::distance::{UNREACHABLE, connection_distance};
use super::distance::{by_words, contested};
use super::two_distance::evaluate_two_distance;
use crate::game::{Color, Game};
use crate::search::{Evaluator, Score, Tuning};

/// Onyx's evaluation: the two-distance potential of both colours, with the
/// plain connection distance choosing the candidate moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct TwoDistance;

/// The searcher's margins with [`TwoDistance`], each measured:
/// - futility: one and a half units of potential a ply, 114-86 against no
///   pruning over 200 games at 0.2 s a move on 12×12;
/// - razoring: three units of potential (a move rarely gains more);
/// - late-move pruning: six moves one ply from the horizon, 24 two plies
///   from it;
/// - every rule decision exact (Onyx has no costly one).
pub const TUNING: Tuning = Tuning {
    futility_margin: Some(150),
    razor_margin: Some(300),
    late_move_limit: Some(6),
    rule_effort: None,
    knowledge_depth: None,
    costly_nodes: false,
};

impl Evaluator<Onyx> for TwoDistance {
    fn name(&self) -> &'static str {
        "two_distance"
    }

    fn tuning(&self) -> Tuning {
        TUNING
    }

    fn evaluate(&self, pos: &Onyx) -> Score {
        evaluate_two_distance(pos)
    }

    /// Moves on a shortest connection of either colour, the corners of the
    /// squares whose midpoints are such moves (a corner blocks its midpoint),
    /// and every capture by either colour (taking or preventing one). A move
    /// elsewhere changes neither colour's connection distance. When neither
    /// colour has a shortest connection left, every legal move.
    fn candidate_moves(&self, pos: &Onyx, out: &mut Vec<OnyxMove>) {
        let geo = pos.geometry();
        let mut keep = contested(pos);
        if keep.iter().all(|&w| w == 0) || pos.outcome().is_some() {
            pos.legal_moves(out);
            return;
        }
        // A contested midpoint: the corners of its square block it.
        let grid = geo.n * geo.n;
        for k in grid / 64..geo.words {
            let mut w = keep[k]
                & if k == grid / 64 {
                    u64::MAX << (grid % 64)
                } else {
                    u64::MAX
                };
            while w != 0 {
                let m = k * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                for &c in &geo.squares[m - grid].corners {
                    keep[c as usize / 64] |= 1 << (c % 64);
                }
            }
        }
        // The empty corner of a capture threat: a capture for one colour,
        // a defence for the other.
        for (c, _, _) in pos.capture_threats() {
            keep[c as usize / 64] |= 1 << (c % 64);
        }
        pos.legal_moves_within(&keep, out);
    }

    /// The opponent connects with one placement (its pieces under capture
    /// threat not counted as safe).
    fn opponent_threatens(&self, pos: &Onyx) -> bool {
        super::distance::wins_next_move(pos, pos.to_move().opponent())
    }

    /// Not while the side to move connects with two placements: one of
    /// them may be a double threat (a win in 3 that the score misses).
    fn razor_allowed(&self, pos: &Onyx) -> bool {
        connection_distance(pos, pos.to_move()) > 2
    }

    /// When the side to move needs three placements or more (every piece
    /// counted safe), a placement that captures nothing lowers that by one
    /// at most, and a count of one is needed to threaten: only the
    /// captures (and the swap) may threaten.
    fn late_move_threats(&self, pos: &Onyx, out: &mut Vec<OnyxMove>) -> bool {
        let me = pos.to_move();
        if connection_distance(pos, me) <= 2 {
            return false;
        }
        out.extend(
            pos.capture_threats()
                .filter(|&(_, _, pair)| pair != me)
                .map(|(corner, _, _)| OnyxMove::Place(corner)),
        );
        if pos.swap_available() {
            out.push(OnyxMove::Swap);
        }
        true
    }

    fn history_index(&self, _pos: &Onyx, mv: OnyxMove) -> usize {
        match mv {
            OnyxMove::Place(p) => p as usize + 1,
            OnyxMove::Swap => 0,
        }
    }

    fn move_order_hint(&self, pos: &Onyx, mv: OnyxMove) -> Score {
        match mv {
            OnyxMove::Swap => 0,
            OnyxMove::Place(p) => {
                let geo = pos.geometry();
                let mut buf = [0; 4];
                let captures = if geo.is_midpoint(p) {
                    0
                } else {
                    pos.captures(p, pos.to_move(), &mut buf)
                };
                /// The pieces on the lines from `p`.
                fn contact<const W: usize>(pos: &Onyx, p: Point) -> u32 {
                    let geo = pos.geometry();
                    let (black, _) = pos.bits(Color::Black).as_chunks::<W>();
                    let (white, _) = pos.bits(Color::White).as_chunks::<W>();
                    let (black, white) = (&black[0], &white[0]);
                    let (table, _) = geo.neighbour_bits.as_chunks::<W>();
                    let nb = &table[p as usize];
                    (0..W)
                        .map(|k| (nb[k] & (black[k] | white[k])).count_ones())
                        .sum()
                }
                let contact = by_words!(pos, contact(pos, p));
                captures as Score * 100 + contact as Score * 10
            }
        }
    }
}

/// A plainer evaluation of Onyx, to play against [`TwoDistance`] with
/// `param eval distance`: each colour's connection distance (the fewest
/// placements it still needs) and flexibility (the empty points on its
/// shortest connections), `(theirs - mine) × 100 + (my flexibility -
/// theirs) × 3`, the formula Orcoon's evaluation uses. A side to move that
/// connects with one placement wins at once. The candidate moves, threats
/// and move order are [`TwoDistance`]'s; no pruning margins (none measured
/// with it).
#[derive(Clone, Copy, Debug, Default)]
pub struct Distance;

impl Evaluator<Onyx> for Distance {
    fn name(&self) -> &'static str {
        "distance"
    }

    fn evaluate(&self, pos: &Onyx) -> Score {
        let me = pos.to_move();
        if super::distance::wins_next_move(pos, me) {
            return crate::search::WIN_NEXT_MOVE;
        }
        let (mine, my_flex) = super::distance::distance_and_flexibility_any(pos, me);
        let (theirs, their_flex) =
            super::distance::distance_and_flexibility_any(pos, me.opponent());
        let d = |x: u16| Score::from(x.min(60));
        (d(theirs) - d(mine)) * 100 + (Score::from(my_flex) - Score::from(their_flex)) * 3
    }

    fn candidate_moves(&self, pos: &Onyx, out: &mut Vec<OnyxMove>) {
        TwoDistance.candidate_moves(pos, out);
    }

    fn opponent_threatens(&self, pos: &Onyx) -> bool {
        TwoDistance.opponent_threatens(pos)
    }

    fn late_move_threats(&self, pos: &Onyx, out: &mut Vec<OnyxMove>) -> bool {
        TwoDistance.late_move_threats(pos, out)
    }

    fn history_index(&self, pos: &Onyx, mv: OnyxMove) -> usize {
        TwoDistance.history_index(pos, mv)
    }

    fn move_order_hint(&self, pos: &Onyx, mv: OnyxMove) -> Score {
        TwoDistance.move_order_hint(pos, mv)
    }
}

#[cfg(test)]
mod tests {
    //! The bit-parallel distances against a plain 0-1 BFS.
    use super::*;
    use crate::game::Notation;
    use crate::games::onyx::board::edge_bits;
    use crate::games::onyx::random_game;
    use crate::games::onyx::{Point, Start};
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    const MAX_POINTS: usize = 26 * 26 + 13 * 25 + 1;

    /// Ring size of the 0-1 BFS deque (a power of two above `MAX_POINTS`).
    const RING: usize = 2048;

    /// The points of one edge of `color`: `far` false for its first edge
    /// (bottom or left), true for the second (top or right).
    #[inline]
    fn edge_point(color: Color, far: bool, n: usize, i: usize) -> Point {
        (match (color, far) {
            (Color::Black, false) => i,
            (Color::Black, true) => (n - 1) * n + i,
            (Color::White, false) => i * n,
            (Color::White, true) => i * n + n - 1,
        }) as Point
    }

    /// Pushes `p` on the 0-1 BFS deque: at the front for a free step, at
    /// the back for a placement.
    fn push(ring: &mut [Point; RING], head: &mut usize, tail: &mut usize, p: Point, free: bool) {
        if free {
            *head = head.wrapping_sub(1) & (RING - 1);
            ring[*head] = p;
        } else {
            ring[*tail] = p;
            *tail = (*tail + 1) & (RING - 1);
        }
    }

    /// 0-1 breadth-first search for `color` from one of its edges: fills `dist`
    /// with the placements needed to reach each point (own pieces cost 0,
    /// placeable empty points 1, others are walls; `u8::MAX` unreachable).
    /// Stops early, returning the distance to the other edge, when `stop_at_far`
    /// is set; otherwise returns that distance after filling everything.
    fn distances(
        pos: &Onyx,
        color: Color,
        far: bool,
        dist: &mut [u8; MAX_POINTS],
        stop_at_far: bool,
    ) -> u16 {
        let geo = pos.geometry();
        let n = geo.n;
        let cells = pos.cells();
        let me = color as u8 + 1;
        let target = if far {
            edge_bits(color).0
        } else {
            edge_bits(color).1
        };
        dist[..geo.num_points].fill(u8::MAX);
        let mut ring = [0 as Point; RING];
        let (mut head, mut tail) = (0usize, 0usize);
        let cost = |p: Point| -> u8 {
            let v = cells[p as usize];
            if v == me {
                0
            } else if v != 0 || !pos.can_place(p) {
                u8::MAX
            } else {
                1
            }
        };
        for i in 0..n {
            let p = edge_point(color, far, n, i);
            let c = cost(p);
            if c == u8::MAX {
                continue;
            }
            dist[p as usize] = c;
            push(&mut ring, &mut head, &mut tail, p, c == 0);
        }
        let mut best = UNREACHABLE;
        while head != tail {
            let p = ring[head];
            head = (head + 1) & (RING - 1);
            let d = dist[p as usize];
            if geo.edges[p as usize] & target != 0 && (d as u16) < best {
                best = d as u16;
                if stop_at_far {
                    return best;
                }
            }
            for &q in geo.neighbours_of(p) {
                let c = cost(q);
                if c == u8::MAX {
                    continue;
                }
                let nd = d + c;
                if nd < dist[q as usize] {
                    dist[q as usize] = nd;
                    push(&mut ring, &mut head, &mut tail, q, c == 0);
                }
            }
        }
        best
    }

    #[test]
    fn bit_parallel_distances_match_plain_bfs() {
        let mut rng = SmallRng::seed_from_u64(7);
        for &(n, start) in &[
            (12, Start::Standard),
            (12, Start::Blank),
            (8, Start::Blank),
            (6, Start::Blank),
            (16, Start::Standard),
            (26, Start::Blank),
        ] {
            for _ in 0..20 {
                random_game(&mut rng, n, start, |pos| {
                    for c in Color::ALL {
                        let mut a = [0u8; MAX_POINTS];
                        let mut b = [0u8; MAX_POINTS];
                        let d = distances(pos, c, false, &mut a, false);
                        distances(pos, c, true, &mut b, false);
                        let flex = (0..pos.geometry().num_points)
                            .filter(|&p| {
                                pos.cells()[p] == 0
                                    && a[p] != u8::MAX
                                    && b[p] != u8::MAX
                                    && (a[p] + b[p]) as u16 == d + 1
                            })
                            .count() as u16;
                        if c == pos.to_move() {
                            // The side to move's view has no capture threats.
                            let (bd, bf) = distance_and_flexibility(pos, c);
                            assert_eq!(bd, d);
                            if d != 0 && d != UNREACHABLE {
                                assert_eq!(bf, flex);
                            }
                        }
                        assert_eq!(
                            connection_distance(pos, c),
                            d,
                            "{c:?} to move {:?}\n{}",
                            pos.to_move(),
                            pos.showboard()
                        );
                    }
                });
            }
        }
    }

    /// Late-move pruning makes only the late moves that the evaluation
    /// lists: when it lists them, every move after which the mover
    /// connects with one placement is there (checked by making every
    /// legal move).
    #[test]
    fn late_move_threats_hold_every_threatening_move() {
        let mut rng = SmallRng::seed_from_u64(23);
        let (mut told, mut threats) = (0, 0);
        for &(n, start, games) in &[
            (12, Start::Standard, 6),
            (8, Start::Blank, 20),
            (6, Start::Blank, 30),
        ] {
            for _ in 0..games {
                let (mut moves, mut listed) = (Vec::new(), Vec::new());
                random_game(&mut rng, n, start, |pos| {
                    moves.clear();
                    pos.legal_moves(&mut moves);
                    listed.clear();
                    let knows = TwoDistance.late_move_threats(pos, &mut listed);
                    told += knows as usize;
                    for &m in &moves {
                        pos.play(m);
                        let threat = pos.outcome().is_none() && TwoDistance.opponent_threatens(pos);
                        pos.undo();
                        threats += threat as usize;
                        assert!(
                            !knows || !threat || listed.contains(&m),
                            "{m:?} threatens but is not listed\n{}",
                            pos.showboard()
                        );
                    }
                });
            }
        }
        assert!(
            told > 300 && threats > 300,
            "{told} told, {threats} threats"
        );
    }
}
