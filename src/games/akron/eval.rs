//! Akron evaluation: connection distance through the stack, plus
//! flexibility and freedoms:
//! `(their distance - mine) * 100 + (my flexibility - theirs) * 3 +
//! (my freedoms - theirs, each up to 4) * 3 + 30`.
//!
//! For each colour, the fewest balls it still needs to join its edges: a
//! shortest-path search over every level where own balls cost nothing,
//! empty points a ball can rest on cost one, and opponent balls block. A
//! higher point touches its four supports, so a deadlock on one level is
//! stepped over through the point above it (figure 4 of the article). Own
//! balls are joined at no cost only through uncut links, so a cut group is
//! seen as cut.
//!
//! A position where the side to move wins at once by an add is reported as
//! such (exactly), so the searcher sees one ply past its horizon.
//!
//! Flexibility is the number of empty points on a colour's shortest
//! connections (the more there are, the harder they are to block): it won
//! 215-181, 4 draws, over 400 games at 0.2 s a move on 8×8 (+30 Elo).
//!
//! Freedoms (article, section 3) are the balls a group can move without
//! breaking it: movable balls of a group of two or more that are not cut
//! vertices of its graph of uncut links and support contacts. They are what
//! lets a player step up later.

use super::Akron;
use super::board::{AkronMove, EvalScratch, edge_bits};
use super::geometry::{NONE, Point};
use crate::game::{Color, Game};
use crate::search::{Evaluator, Score, Tuning, WIN_NEXT_MOVE};

/// Akron's evaluation: connection distance over the stacks with cuts, and
/// freedom (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct Distance;

/// The searcher's tuning with [`Distance`]: no pruning margins (none has
/// been shown to pay in Akron) and every rule decision exact (Akron has no
/// costly one).
pub const TUNING: Tuning = Tuning {
    futility_margin: None,
    razor_margin: None,
    late_move_limit: None,
    rule_effort: None,
    knowledge_depth: None,
    costly_nodes: false,
};

/// Distance reported when a colour can no longer connect.
pub const UNREACHABLE: u16 = 99;
/// Score of one ball of connection distance.
const STEP: Score = 100;
/// Bonus for having the move.
const TEMPO: Score = 30;
/// Value of one empty point on a colour's shortest connections (the more
/// there are, the harder they are to block).
const FLEXIBILITY: Score = 3;
/// Score of one freedom, counted up to a few: a small term (weights of 8
/// per freedom up to 6 lost 5-14 against a build without it; 3 up to 4
/// played even at 0.2 s a move on 8×8).
const FREEDOM: Score = 3;
const MAX_FREEDOMS: Score = 4;

/// The fewest balls `color` needs to join its edges: a breadth-first
/// search by layers of distance over all levels up to one above the highest
/// occupied one (own balls cost 0, empty points a ball can rest on 1).
pub fn connection_distance(pos: &Akron, color: Color) -> u16 {
    distance_across(pos, color, true, &mut pos.eval_scratch())
}

/// The fewest balls `color` needs to join its edges, on `scratch`'s
/// buffers; `cuts` as in [`Route`].
fn distance_across(pos: &Akron, color: Color, cuts: bool, scratch: &mut EvalScratch) -> u16 {
    let EvalScratch {
        dist, stack, next, ..
    } = scratch;
    let (from, to) = edge_bits(color);
    let route = Route {
        color,
        from,
        to,
        cuts,
    };
    layered_search(pos, route, dist, stack, next)
}

/// Each colour's connection distance and flexibility (the empty points on
/// its shortest connections), indexed by [`Color::index`].
pub fn distances_and_flexibility(pos: &Akron) -> ([u16; 2], [u16; 2]) {
    mark_shortest_connections(pos, &mut pos.eval_scratch())
}

/// Marks in `scratch.on_path` (cleared up to the searched levels first) the
/// empty points on some shortest connection of either colour: a point of
/// cost 1 at distance a from one edge and b from the other (both counting
/// the point) lies on a connection of a + b - 1 balls. Returns each
/// colour's connection distance and its flexibility (how many such points
/// it has).
fn mark_shortest_connections(pos: &Akron, scratch: &mut EvalScratch) -> ([u16; 2], [u16; 2]) {
    let EvalScratch {
        dist,
        dist2,
        stack,
        next,
        on_path,
        ..
    } = scratch;
    let geo = pos.geometry();
    let end = search_end(pos);
    on_path[..end].fill(false);
    let mut shortest = [UNREACHABLE; 2];
    let mut flexibility = [0u16; 2];
    for color in Color::ALL {
        let (from, to) = edge_bits(color);
        let route = |from| Route {
            color,
            from,
            to: 0,
            cuts: true,
        };
        layered_search(pos, route(from), dist, stack, next);
        layered_search(pos, route(to), dist2, stack, next);
        let d = (0..geo.offset[1])
            .filter(|&p| geo.edges[p] & to != 0)
            .map(|p| dist[p])
            .min()
            .map_or(UNREACHABLE, |d| d.min(UNREACHABLE));
        shortest[color.index()] = d;
        if d == 0 || d == UNREACHABLE {
            continue;
        }
        let me = color as u8 + 1;
        for p in 0..end {
            if dist[p] != u16::MAX
                && dist2[p] != u16::MAX
                && dist[p] + dist2[p] - 1 == d
                && cost(pos, me, p as Point) == 1
            {
                on_path[p] = true;
                flexibility[color.index()] += 1;
            }
        }
    }
    (shortest, flexibility)
}

/// Whether the opponent of the side to move is one ball from joining when
/// every link counts (a drop that lifts a cutting ball makes that real).
fn joins_in_one_uncut(pos: &Akron, scratch: &mut EvalScratch) -> bool {
    distance_across(pos, pos.to_move().opponent(), false, scratch) <= 1
}

/// Whether moving the ball on `m` drops a ball of the other colour. The
/// drop chain's points take the colour of the ball above them: only an
/// opposing ball in the chain can hand the mover a point (or lift a ball
/// that cuts its links); an own chain only empties its top point.
fn drops_opponent(pos: &Akron, m: Point) -> bool {
    let (dir, len) = pos.drop_chain(m);
    let (geo, cells) = (pos.geometry(), pos.cells());
    let me = cells[m as usize];
    let mut q = m;
    for _ in 0..len {
        q = geo.above[q as usize][dir as usize];
        if cells[q as usize] != me {
            return true;
        }
    }
    false
}

/// Cost for `me` of entering `q`: 0 own ball, 1 empty point a ball can rest
/// on, `u16::MAX` otherwise.
#[inline]
fn cost(pos: &Akron, me: u8, q: Point) -> u16 {
    let cells = pos.cells();
    let geo = pos.geometry();
    let v = cells[q as usize];
    if v == me {
        0
    } else if v != 0 {
        u16::MAX
    } else if geo.level[q as usize] == 0
        || geo.supports[q as usize]
            .iter()
            .all(|&s| cells[s as usize] != 0)
    {
        1
    } else {
        u16::MAX
    }
}

/// What one layered search measures.
#[derive(Clone, Copy)]
struct Route {
    color: Color,
    /// Edge bit to start from.
    from: u8,
    /// Edge bit to stop at; 0 to map every point.
    to: u8,
    /// Whether own balls side by side need an uncut link (false: every
    /// link counts, as if the balls cutting them were gone).
    cuts: bool,
}

/// Distances for `route.color` from the surface holes on edge `from` into
/// `dist`, layer by layer. With `to` non-zero, stops at the first point on
/// edge `to` and returns its distance; with `to` zero, maps everything.
/// Returns [`UNREACHABLE`] when `to` cannot be reached.
fn layered_search(
    pos: &Akron,
    route: Route,
    dist: &mut [u16],
    stack: &mut Vec<Point>,
    next: &mut Vec<Point>,
) -> u16 {
    let Route {
        color,
        from,
        to,
        cuts,
    } = route;
    let geo = pos.geometry();
    let cells = pos.cells();
    let me = color as u8 + 1;
    let end = search_end(pos);
    dist[..end].fill(u16::MAX);
    stack.clear();
    next.clear();
    for (p, &e) in geo.edges[..geo.offset[1]].iter().enumerate() {
        if e & from != 0 {
            let c = cost(pos, me, p as Point);
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
                let c = cost(pos, me, q);
                if c == u16::MAX {
                    continue;
                }
                // Two own balls side by side are joined only by an uncut link.
                if cuts && k < 4 && own && c == 0 {
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

/// Points the searches cover: every level up to one above the highest
/// occupied one.
fn search_end(pos: &Akron) -> usize {
    let geo = pos.geometry();
    geo.offset[(pos.top_level() + 1).min(geo.n - 1) + 1]
}

/// Freedoms of `color` (article, section 3): balls of a group of two or
/// more that may move (at most one ball on them) and whose removal does
/// not split their group (not a cut vertex of the group's graph of uncut
/// links and support contacts).
pub fn freedoms(pos: &Akron, color: Color) -> usize {
    let geo = pos.geometry();
    let cells = pos.cells();
    let me = color as u8 + 1;
    let end = geo.offset[pos.top_level() + 1];
    let mut guard = pos.eval_scratch();
    let EvalScratch {
        stack,
        disc,
        low,
        parent,
        iter,
        cut_vertex,
        ..
    } = &mut *guard;
    disc[..end].fill(0);
    cut_vertex[..end].fill(false);
    // The neighbour of `p` in direction k (0..12) when they are linked.
    let linked = |p: Point, k: usize| -> Option<Point> {
        let q = geo.touching[p as usize][k];
        if q == NONE || cells[q as usize] != me {
            return None;
        }
        let ok = match k {
            0 => pos.link_uncut(p, 0),
            1 => pos.link_uncut(p, 1),
            2 => pos.link_uncut(q, 0),
            3 => pos.link_uncut(q, 1),
            _ => true,
        };
        ok.then_some(q)
    };
    let mut time = 0u16;
    let mut count = 0;
    for g in 0..pos.num_groups() as u16 {
        if pos.group_size(g) < 2 || pos.group_color(g) != me {
            continue;
        }
        let root = pos.group_members(g).next().expect("a non-empty group");
        time += 1;
        disc[root as usize] = time;
        low[root as usize] = time;
        parent[root as usize] = NONE;
        iter[root as usize] = 0;
        let mut root_children = 0;
        stack.clear();
        stack.push(root);
        while let Some(&p) = stack.last() {
            let pu = p as usize;
            if iter[pu] < 12 {
                let k = iter[pu] as usize;
                iter[pu] += 1;
                let Some(q) = linked(p, k) else {
                    continue;
                };
                let qu = q as usize;
                if disc[qu] == 0 {
                    time += 1;
                    disc[qu] = time;
                    low[qu] = time;
                    parent[qu] = p;
                    iter[qu] = 0;
                    stack.push(q);
                    if p == root {
                        root_children += 1;
                    }
                } else if q != parent[pu] {
                    low[pu] = low[pu].min(disc[qu]);
                }
            } else {
                stack.pop();
                let pp = parent[pu];
                if pp != NONE {
                    let ppu = pp as usize;
                    low[ppu] = low[ppu].min(low[pu]);
                    if pp != root && low[pu] >= disc[ppu] {
                        cut_vertex[ppu] = true;
                    }
                }
            }
        }
        if root_children >= 2 {
            cut_vertex[root as usize] = true;
        }
        for m in pos.group_members(g) {
            if !cut_vertex[m as usize] && pos.balls_above(m) <= 1 {
                count += 1;
            }
        }
    }
    count
}

/// Entries of each thread's memo of candidate lists (a power of two).
const CANDIDATE_ENTRIES: usize = 1 << 12;

/// A thread's recent candidate lists by position hash.
struct CandidateMemo {
    /// Board size the entries belong to (hashes of other sizes differ).
    n: usize,
    keys: Vec<u64>,
    lists: Vec<Vec<AkronMove>>,
}

thread_local! {
    static CANDIDATES: std::cell::RefCell<CandidateMemo> = const {
        std::cell::RefCell::new(CandidateMemo { n: 0, keys: Vec::new(), lists: Vec::new() })
    };
}

/// The candidate moves of `pos` (see `candidate_moves` below), computed
/// afresh and appended to `out`.
fn candidates_now(pos: &Akron, out: &mut Vec<AkronMove>) {
    let start = out.len();
    pos.legal_moves(out);
    let mut guard = pos.eval_scratch();
    let (d, _) = mark_shortest_connections(pos, &mut guard);
    let (mine, theirs) = (
        d[pos.to_move().index()],
        d[pos.to_move().opponent().index()],
    );
    if theirs <= 1
        || (mine == UNREACHABLE && theirs == UNREACHABLE)
        || joins_in_one_uncut(pos, &mut guard)
    {
        return;
    }
    let on = &guard.on_path;
    let keep = |mv: &AkronMove| match *mv {
        AkronMove::Add(p) => on[p as usize],
        AkronMove::Step(m, d) => on[d as usize] || drops_opponent(pos, m),
        AkronMove::Swap => false,
    };
    if out[start..].iter().any(keep) {
        let mut kept = start;
        for i in start..out.len() {
            let mv = out[i];
            if mv == AkronMove::Swap || keep(&mv) {
                out[kept] = mv;
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

impl Evaluator<Akron> for Distance {
    fn name(&self) -> &'static str {
        "distance"
    }

    fn tuning(&self) -> Tuning {
        TUNING
    }

    fn evaluate(&self, pos: &Akron) -> Score {
        if pos.add_wins() {
            return WIN_NEXT_MOVE;
        }
        let me = pos.to_move();
        let (distance, flexibility) = distances_and_flexibility(pos);
        let (mine, theirs) = (
            distance[me.index()] as Score,
            distance[me.opponent().index()] as Score,
        );
        let flexibility =
            flexibility[me.index()] as Score - flexibility[me.opponent().index()] as Score;
        let f_me = (freedoms(pos, me) as Score).min(MAX_FREEDOMS);
        let f_them = (freedoms(pos, me.opponent()) as Score).min(MAX_FREEDOMS);
        (theirs - mine) * STEP + flexibility * FLEXIBILITY + (f_me - f_them) * FREEDOM + TEMPO
    }

    /// Adds on a shortest connection of either colour, steps to a point of
    /// one, steps that drop an opposing ball, and swap. A move that wins at
    /// once is among them: an add or a step that joins the mover's edges
    /// lands on a connection of one ball, unless its drops change the
    /// colours under it ([`drops_opponent`]). Every legal move when the
    /// opponent is one ball from joining, with cut links as they are or
    /// with every link counted (its threats have answers of every kind:
    /// blocks, cuts, pins that put a second ball on the one it would move,
    /// lifted supports), when no colour has a connection left, or when none
    /// of those moves is legal.
    fn candidate_moves(&self, pos: &Akron, out: &mut Vec<AkronMove>) {
        if pos.outcome().is_some() {
            // A repeated position ends the game but keeps its hash.
            return;
        }
        // The search visits an inner node again on every iteration: the
        // four searches behind the list are worth remembering.
        let (key, n) = (pos.hash(), pos.geometry().n);
        let start = out.len();
        let hit = CANDIDATES.with_borrow(|m| {
            let slot = key as usize & (CANDIDATE_ENTRIES - 1);
            if m.n == n && m.keys[slot] == key {
                out.extend_from_slice(&m.lists[slot]);
                true
            } else {
                false
            }
        });
        if !hit {
            candidates_now(pos, out);
            CANDIDATES.with_borrow_mut(|m| {
                if m.n != n {
                    m.n = n;
                    m.keys = vec![!0; CANDIDATE_ENTRIES];
                    m.lists = vec![Vec::new(); CANDIDATE_ENTRIES];
                }
                let slot = key as usize & (CANDIDATE_ENTRIES - 1);
                m.keys[slot] = key;
                m.lists[slot].clear();
                m.lists[slot].extend_from_slice(&out[start..]);
            });
        }
    }

    fn move_order_hint(&self, pos: &Akron, mv: AkronMove) -> Score {
        // Cheap on purpose: ordering by shortest-path marks (four searches
        // per node) saved up to 45% of the nodes at fixed depth but cost
        // twice the time.
        let geo = pos.geometry();
        let cells = pos.cells();
        let touching = |d: Point, skip: Point| -> Score {
            geo.touching[d as usize][..8]
                .iter()
                .filter(|&&q| q != NONE && q != skip && cells[q as usize] != 0)
                .count() as Score
        };
        match mv {
            AkronMove::Swap => 0,
            AkronMove::Add(p) => 10 * touching(p, NONE),
            AkronMove::Step(m, d) => {
                // Climbing moves first: they step over blocks and cut.
                let up = geo.level[d as usize] as Score - geo.level[m as usize] as Score;
                10 * touching(d, m) + 15 * up - 5
            }
        }
    }

    fn history_index(&self, _pos: &Akron, mv: AkronMove) -> usize {
        match mv {
            AkronMove::Swap => 0,
            AkronMove::Add(p) => p as usize + 1,
            AkronMove::Step(m, d) => {
                (m as usize).wrapping_mul(977) ^ (d as usize).wrapping_mul(131)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    fn build(n: usize, placements: &[(Color, &str)], to_move: Color) -> Akron {
        let mut pos = Akron::new(n).unwrap();
        for &(c, points) in placements {
            for p in points.split_whitespace() {
                pos.setup(Some(c), p).unwrap();
            }
        }
        pos.set_to_move(to_move).unwrap();
        pos
    }

    #[test]
    fn figure4_freedom_is_spent_by_stepping_up() {
        // White groups A2 A3 B3 C3 and D4 E4 (and D2, alone): A2 and the
        // ends are freedoms; B3 and A3 are not (they hold the chain).
        let pos = build(
            5,
            &[
                (Color::White, "A2 A3 B3 C3 D4 E4"),
                (Color::Black, "D3 C4 E1"),
            ],
            Color::White,
        );
        // Group A2-A3-B3-C3: A2 and C3 are ends; A3 and B3 are cut vertices.
        // Group D4-E4: both ends.
        assert_eq!(freedoms(&pos, Color::White), 4);
        assert_eq!(freedoms(&pos, Color::Black), 0);
        // Connection distance: White needs one ball (the step to CD34).
        assert_eq!(connection_distance(&pos, Color::White), 1);
    }

    #[test]
    fn distance_steps_over_a_deadlock() {
        // A full 2x2 deadlock in the middle of a 4x4 board: Black B2 C3,
        // White C2 B3. Black joins rows 1 and 4 with B1 and C4: it needs
        // the level-1 point BC23 over the deadlock.
        let pos = build(
            4,
            &[(Color::Black, "B2 C3 B1 C4"), (Color::White, "C2 B3 A1 D4")],
            Color::Black,
        );
        assert_eq!(connection_distance(&pos, Color::Black), 1);
        // White: A2 or A3, then B3, BC23 over the deadlock, C2, then D2 or D3.
        assert_eq!(connection_distance(&pos, Color::White), 3);
    }

    #[test]
    fn a_cut_group_is_seen_as_cut() {
        // Black C1..C5 cut between C2 and C3 by White BC23-CD23.
        let pos = build(
            5,
            &[
                (Color::Black, "C1 C2 C3 C4 C5"),
                (Color::White, "B2 B3 D2 D3"),
                (Color::White, "BC23 CD23"),
            ],
            Color::White,
        );
        assert!(connection_distance(&pos, Color::Black) >= 1);
    }
}
