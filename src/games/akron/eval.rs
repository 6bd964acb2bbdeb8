//! Akron evaluation: connection distance through the stack, plus freedoms.
//!
//! For each colour, the fewest balls it still needs to join its edges: a
//! shortest-path search over every level where own balls cost nothing,
//! empty points a ball can rest on cost one, and opponent balls block. A
//! higher point touches its four supports, so a deadlock on one level is
//! stepped over through the point above it (figure 4 of the article). Own
//! balls are joined at no cost only through uncut links, so a cut group is
//! seen as cut.
//!
//! Freedoms (article, section 3) are the balls a group can move without
//! breaking it: here, movable balls of a group of two or more that hang on
//! it by a single touch. They are what lets a player step up later.

use super::Akron;
use super::board::{AkronMove, edge_bits};
use super::geometry::{NONE, Point};
use crate::game::{Color, Game};
use crate::search::{Evaluate, Score};

/// Distance reported when a colour can no longer connect.
pub const UNREACHABLE: u16 = 99;
/// Score of one ball of connection distance.
const STEP: Score = 100;
/// Bonus for having the move.
const TEMPO: Score = 30;
/// Score of one freedom (capped).
const FREEDOM: Score = 6;
const MAX_FREEDOMS: Score = 8;

/// The fewest balls `color` needs to join its edges: a breadth-first
/// search by layers of distance over all levels up to one above the highest
/// occupied one (own balls cost 0, empty points a ball can rest on 1).
pub fn connection_distance(pos: &Akron, color: Color) -> u16 {
    let mut guard = pos.eval_scratch();
    let (dist, stack, next) = &mut *guard;
    let geo = pos.geometry();
    let cells = pos.cells();
    let me = color as u8 + 1;
    let (from, to) = edge_bits(color);
    let top = (pos.top_level() + 1).min(geo.n - 1);
    let end = geo.offset[top + 1];
    dist[..end].fill(u16::MAX);
    stack.clear();
    next.clear();
    // Cost of entering q: 0 own, 1 empty and supported, none otherwise.
    let level = &geo.level;
    let supports = &geo.supports;
    let cost = |q: Point| -> u16 {
        let v = cells[q as usize];
        if v == me {
            0
        } else if v != 0 {
            u16::MAX
        } else if level[q as usize] == 0
            || supports[q as usize].iter().all(|&s| cells[s as usize] != 0)
        {
            1
        } else {
            u16::MAX
        }
    };
    for (p, &e) in geo.edges[..geo.offset[1]].iter().enumerate() {
        if e & from != 0 {
            let c = cost(p as Point);
            if c == 0 {
                dist[p] = 0;
                stack.push(p as Point);
            } else if c == 1 {
                dist[p] = 1;
                next.push(p as Point);
            }
        }
    }
    let mut d = 0u16;
    loop {
        while let Some(p) = stack.pop() {
            let pu = p as usize;
            if dist[pu] != d {
                continue;
            }
            if geo.edges[pu] & to != 0 {
                return d;
            }
            let own = cells[pu] == me;
            for (k, &q) in geo.touching[pu].iter().enumerate() {
                if q as usize >= end {
                    continue;
                }
                let c = cost(q);
                if c == u16::MAX {
                    continue;
                }
                // Two own balls side by side are joined only by an uncut link.
                if k < 4 && own && c == 0 {
                    let linked = match k {
                        0 => pos.link_uncut(p, 0),
                        1 => pos.link_uncut(p, 1),
                        2 => pos.link_uncut(q, 0),
                        _ => pos.link_uncut(q, 1),
                    };
                    if !linked {
                        continue;
                    }
                }
                let nd = d + c;
                if nd < dist[q as usize] {
                    dist[q as usize] = nd;
                    if c == 0 {
                        stack.push(q);
                    } else {
                        next.push(q);
                    }
                }
            }
        }
        if next.is_empty() || d + 1 >= UNREACHABLE {
            return UNREACHABLE;
        }
        d += 1;
        std::mem::swap(stack, next);
    }
}

/// Freedoms of `color`: movable balls of groups of two or more that touch
/// only one other own ball.
pub fn freedoms(pos: &Akron, color: Color) -> usize {
    let geo = pos.geometry();
    let cells = pos.cells();
    let me = color as u8 + 1;
    let mut count = 0;
    for g in 0..pos.num_groups() as u16 {
        if pos.group_size(g) < 2 || pos.group_color(g) != me {
            continue;
        }
        for m in pos.group_members(g) {
            if pos.balls_above(m) > 1 {
                continue;
            }
            let mu = m as usize;
            let sups: &[Point] = if geo.level[mu] > 0 {
                &geo.supports[mu]
            } else {
                &[]
            };
            let touching = geo.neighbours[mu]
                .iter()
                .chain(sups)
                .chain(&geo.above[mu])
                .filter(|&&q| q != NONE && cells[q as usize] == me)
                .count();
            if touching <= 1 {
                count += 1;
            }
        }
    }
    count
}

impl Evaluate for Akron {
    fn evaluate(&self) -> Score {
        let me = self.to_move();
        let mine = connection_distance(self, me) as Score;
        let theirs = connection_distance(self, me.opponent()) as Score;
        let f_me = (freedoms(self, me) as Score).min(MAX_FREEDOMS);
        let f_them = (freedoms(self, me.opponent()) as Score).min(MAX_FREEDOMS);
        (theirs - mine) * STEP + (f_me - f_them) * FREEDOM + TEMPO
    }

    fn move_order_hint(&self, mv: AkronMove) -> Score {
        let geo = self.geometry();
        let cells = self.cells();
        let touching = |d: Point, skip: Point| -> Score {
            let du = d as usize;
            let sups: &[Point] = if geo.level[du] > 0 {
                &geo.supports[du]
            } else {
                &[]
            };
            geo.neighbours[du]
                .iter()
                .chain(sups)
                .filter(|&&q| q != NONE && q != skip && cells[q as usize] != 0)
                .count() as Score
        };
        match mv {
            AkronMove::Swap => 0,
            AkronMove::Add(p) => 10 * touching(p, NONE),
            AkronMove::Step(m, d) => {
                let up = geo.level[d as usize] as Score - geo.level[m as usize] as Score;
                10 * touching(d, m) + 15 * up - 5
            }
        }
    }

    fn history_index(&self, mv: AkronMove) -> usize {
        match mv {
            AkronMove::Swap => 0,
            AkronMove::Add(p) => p as usize + 1,
            AkronMove::Step(m, d) => {
                (m as usize).wrapping_mul(977) ^ (d as usize).wrapping_mul(131)
            }
        }
    }
}
