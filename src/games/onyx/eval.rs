//! Onyx evaluation: connection distance. For each colour, the fewest
//! placements it still needs to join its edges (a 0-1 breadth-first search:
//! own pieces cost 0, placeable empty points 1, opponent pieces block).

use super::board::{Onyx, OnyxMove, edge_bits};
use super::geometry::Point;
use crate::game::{Color, Game};
use crate::search::{Evaluate, Score};

/// Largest number of points on any Onyx board (26×26 plus its squares).
const MAX_POINTS: usize = 26 * 26 + 13 * 25 + 1;
/// Distance reported when a colour can no longer connect.
pub const UNREACHABLE: u16 = 999;
/// Score of one placement of connection distance.
const STEP: Score = 100;
/// Bonus for having the move.
const TEMPO: Score = 30;

/// The fewest placements `color` needs to join its edges.
pub fn connection_distance(pos: &Onyx, color: Color) -> u16 {
    let geo = pos.geometry();
    let cells = pos.cells();
    let me = color as u8 + 1;
    let (from, to) = edge_bits(color);
    let mut dist = [u16::MAX; MAX_POINTS];
    // A 0-1 BFS deque in a ring buffer: zero-cost steps go to the front.
    let mut ring = [0 as Point; 2 * MAX_POINTS];
    let cap = ring.len();
    let (mut head, mut tail) = (MAX_POINTS, MAX_POINTS);
    let cost = |p: Point| -> Option<u16> {
        let v = cells[p as usize];
        if v == me {
            Some(0)
        } else if v != 0 {
            None
        } else if pos.can_place(p) {
            Some(1)
        } else {
            None
        }
    };
    for p in 0..geo.num_points as Point {
        if geo.edges[p as usize] & from != 0
            && let Some(c) = cost(p)
        {
            dist[p as usize] = c;
            if c == 0 {
                head = (head + cap - 1) % cap;
                ring[head] = p;
            } else {
                ring[tail] = p;
                tail = (tail + 1) % cap;
            }
        }
    }
    let mut best = UNREACHABLE;
    while head != tail {
        let p = ring[head];
        head = (head + 1) % cap;
        let d = dist[p as usize];
        if d >= best {
            continue;
        }
        if geo.edges[p as usize] & to != 0 {
            best = d;
            continue;
        }
        for &q in geo.neighbours_of(p) {
            if let Some(c) = cost(q) {
                let nd = d + c;
                if nd < dist[q as usize] {
                    dist[q as usize] = nd;
                    if c == 0 {
                        head = (head + cap - 1) % cap;
                        ring[head] = q;
                    } else {
                        ring[tail] = q;
                        tail = (tail + 1) % cap;
                    }
                }
            }
        }
    }
    best
}

impl Evaluate for Onyx {
    fn evaluate(&self) -> Score {
        let me = self.to_move();
        let mine = connection_distance(self, me) as Score;
        let theirs = connection_distance(self, me.opponent()) as Score;
        (theirs - mine) * STEP + TEMPO
    }

    fn move_order_hint(&self, mv: OnyxMove) -> Score {
        match mv {
            OnyxMove::Swap => 0,
            OnyxMove::Place(p) => {
                let geo = self.geometry();
                let mut buf = [0; 4];
                let captures = if geo.is_midpoint(p) {
                    0
                } else {
                    self.captures(p, self.to_move(), &mut buf)
                };
                let cells = self.cells();
                let contact = geo
                    .neighbours_of(p)
                    .iter()
                    .filter(|&&q| cells[q as usize] != 0)
                    .count();
                captures as Score * 100 + contact as Score * 10
            }
        }
    }
}
