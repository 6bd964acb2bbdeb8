//! Virtual connections for Onyx: what the df-pn solver may know about a
//! position without search ([`crate::solve::Knowledge`]).
//!
//! # The connection graph
//!
//! For a colour `c`, the nodes are `c`'s two edges and `c`'s groups (pieces
//! joined along the board's lines). The links, each with a *carrier* (the
//! empty points it needs), are:
//!
//! - **touch**: a group with a piece on an edge is joined to that edge
//!   (empty carrier);
//! - **two-way link**: two distinct empty *grid* points `x` and `y`, each
//!   adjacent to both nodes (for an edge node: lying on that edge). Carrier
//!   `{x, y}`; when the opponent takes one, `c` takes the other, and the
//!   two nodes are joined through it. This covers the bridge across a
//!   diagonal cell's two free corners, the two free corners of a square
//!   whose other diagonal `c` holds (which is also the capture threat:
//!   answering it defends the pair), and the edge link of a piece on the
//!   second row with two free edge points next to it;
//! - **one-point link** (semi-connections only): a single empty grid point
//!   adjacent to both nodes, that `c` must take itself.
//!
//! For semi-connections the graph also has a **key node** for every empty
//! grid point `k`, as if `c` held it: touches to the groups next to `k` and
//! to an edge `k` lies on, and two-way links to other nodes (never to
//! another key node). A path through a key node needs the one move `k`, as
//! one with a one-point link needs its point: the path search counts either
//! as the path's one move. So a semi-connection's move may be a point from
//! which two-way links go on (E3 in `tests/it/onyx_vc.rs`,
//! `a_semi_connection_through_a_key_point_is_seen`), not only a point
//! adjacent to two nodes. Such paths only name candidate moves: each is
//! played and a virtual connection looked for again (below).
//!
//! Midpoints are never carrier points: a midpoint may be taken only while
//! its square's four corners are empty, so a carrier midpoint could become
//! illegal for `c` when the opponent (or `c` itself) takes a corner. Every
//! carrier point is a grid point, always legal while empty. An opponent
//! piece on a midpoint cuts nothing (links are lines between points), and
//! makes its square free of captures for good.
//!
//! A **virtual connection** is a path from edge to edge through touches
//! and two-way links whose carriers are pairwise disjoint and which passes
//! the capture test below. The strategy: whenever the opponent takes a
//! carrier point, take the other point of that link; otherwise fill any
//! carrier point. Each move of `c` settles a link, so `c` connects within
//! as many moves as the path has two-way links. The opponent cannot win
//! meanwhile: the board's lines meet only at points (it is planar), so a
//! chain of the opponent from its edge to its edge would share a point with
//! `c`'s path of pieces and still-empty carrier points.
//!
//! # Captures
//!
//! The opponent could still break the path by capturing one of its pieces
//! (a piece of a path group, or a piece `c` puts on a carrier point). A
//! capture of `c`'s piece on a grid point `p` in square `T` needs, when the
//! opponent places the last corner: `T`'s midpoint empty, `c` on `p` and on
//! `p`'s diagonal partner in `T`, the opponent on the two other corners.
//! Every *path point* (each piece of a path group and each carrier point)
//! must, in each square it is a corner of, pass one of:
//!
//! 1. the square's midpoint is occupied (it never empties: captures remove
//!    corners only);
//! 2. the diagonal partner is neither `c`'s piece now nor a carrier point:
//!    only `c` puts `c`'s pieces there, and under the strategy `c` plays
//!    carrier points only;
//! 3. one of the two other corners holds a piece of a path group: the first
//!    capture of a path piece would need that corner to be the opponent's
//!    already, that is that piece captured before (captures are decided on
//!    the board before anything is removed);
//! 4. the two other corners are exactly the carrier of a two-way link of
//!    the path: the opponent can take only one of them, `c` answers with
//!    the other.
//!
//! Board corners are corners of no square and always pass; so do pieces on
//! midpoints (never captured). With the test passed, no path piece is ever
//! captured, whatever the opponent plays, in the carrier or outside it.
//!
//! # Swap
//!
//! These arguments count colours. Before the third move (a swap may still
//! come, or be available now) only the default win in one is claimed and
//! nothing is pruned.
//!
//! # What the solver gets
//!
//! [`forced_winner`]: a win in one of the side to move; a virtual
//! connection of the side not to move; a virtual connection of the side to
//! move, or a semi-connection (a path with one one-point link or key node
//! `x`: `x` is played and a virtual connection looked for again). [`prune_losing`]:
//! the must-play region (see there). The path search gives up after a
//! fixed number of steps, which only means that nothing is claimed.
//! With the solver's richer knowledge on (`solve_play_knowledge`), both
//! also ask H-search's combined connections (`hsearch.rs`: AND and OR
//! rules, each connection capture-tested) after the single paths: a full
//! connection of either side, a semi-connection of the side to move, and
//! the intersection of the opponent's semi-connections' carriers in the
//! must-play region.
//! Answers of the connection search are cached per thread by the
//! position's hash.

use super::board::{Onyx, OnyxMove, edge_bits};
use super::geometry::Point;
use super::hsearch::EdgeConnections;
use super::spares::{BITS, BYTES, FLAGS, INDICES, WORDS, filled, give, take};
use crate::game::{Color, Game};

/// No node / no point.
const NONE: u16 = u16::MAX;
/// Node of the colour's first edge.
const FIRST: u16 = 0;
/// Node of the colour's second edge.
const SECOND: u16 = 1;
/// Steps (link tries) one path search may take before it gives up.
const BUDGET: u32 = 3000;
/// Most point pairs tried as two-way links between two nodes.
const MAX_COMMON: usize = 4;

/// A link between two nodes of the connection graph.
#[derive(Clone, Copy, Debug)]
struct Link {
    a: u16,
    b: u16,
    /// First carrier point (`NONE` for a touch).
    x: Point,
    /// Second carrier point (`NONE` for a touch or a one-point link).
    y: Point,
}

impl Link {
    fn other(&self, node: u16) -> u16 {
        if self.a == node { self.b } else { self.a }
    }
}

/// The connection graph of one colour.
struct Graph {
    color: Color,
    /// The groups of `color`, and the key nodes' edges after theirs in
    /// `node_edges` (groups from 2).
    groups: Groups,
    links: Vec<Link>,
    /// Link indices of each node: those of node `i` are
    /// `by_node[start[i]..start[i + 1]]`.
    by_node: Vec<u32>,
    start: Vec<u32>,
    /// The first *key node* (with one-point links only): an empty grid
    /// point taken as the colour's piece, the one move a semi-connection
    /// path may then need instead of a one-point link. Nodes from here on
    /// are key nodes.
    first_key: u16,
    /// The point of each key node.
    key_point: Vec<Point>,
}

/// A colour's groups: the group node of each point, and each node's edges.
pub(super) struct Groups {
    /// The group node of each point holding a piece of the colour, else
    /// `NONE` (`u16::MAX`).
    pub group: Vec<u16>,
    /// Edge bits of each node (the two edges, then the groups).
    pub node_edges: Vec<u8>,
}

impl Groups {
    /// The groups of `color`; `None` when one already joins both edges.
    pub fn new(pos: &Onyx, color: Color) -> Option<Groups> {
        let geo = pos.geometry();
        let np = geo.num_points;
        let (first, second) = edge_bits(color);
        let mut groups = Groups {
            group: filled(&WORDS, np, NONE),
            node_edges: take(&BYTES),
        };
        let Groups { group, node_edges } = &mut groups;
        node_edges.extend([first, second]);
        let mut stack = take(&WORDS);
        for p in 0..np {
            if group[p] != NONE || pos.at(p as Point) != Some(color) {
                continue;
            }
            let id = node_edges.len() as u16;
            let mut edges = 0;
            group[p] = id;
            stack.push(p as Point);
            while let Some(q) = stack.pop() {
                edges |= geo.edges[q as usize];
                for &r in geo.neighbours_of(q) {
                    if group[r as usize] == NONE && pos.at(r) == Some(color) {
                        group[r as usize] = id;
                        stack.push(r);
                    }
                }
            }
            if edges & first != 0 && edges & second != 0 {
                give(&WORDS, stack);
                return None;
            }
            node_edges.push(edges);
        }
        give(&WORDS, stack);
        Some(groups)
    }
}

impl Drop for Groups {
    fn drop(&mut self) {
        give(&WORDS, std::mem::take(&mut self.group));
        give(&BYTES, std::mem::take(&mut self.node_edges));
    }
}

thread_local! {
    /// Spare vectors of links ([`super::spares`]).
    static LINKS: std::cell::RefCell<Vec<Vec<Link>>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for Graph {
    fn drop(&mut self) {
        // The groups give theirs back themselves.
        give(&LINKS, std::mem::take(&mut self.links));
        give(&INDICES, std::mem::take(&mut self.by_node));
        give(&INDICES, std::mem::take(&mut self.start));
        give(&WORDS, std::mem::take(&mut self.key_point));
    }
}

impl Graph {
    /// Builds the graph of `color` (one-point links when `singles`).
    /// `None` when a group already joins both edges.
    fn new(pos: &Onyx, color: Color, singles: bool) -> Option<Graph> {
        Some(Self::from_groups(
            pos,
            color,
            Groups::new(pos, color)?,
            singles,
        ))
    }

    /// Builds the graph of `color` from its `groups`.
    fn from_groups(pos: &Onyx, color: Color, mut groups: Groups, singles: bool) -> Graph {
        let geo = pos.geometry();
        let (first, second) = edge_bits(color);
        let Groups { group, node_edges } = &mut groups;
        let mut links = take(&LINKS);
        // Key nodes: every empty grid point, with its edges (so the touches
        // below join it to an edge it lies on) and touches to the groups
        // next to it.
        let first_key = node_edges.len() as u16;
        let mut key_point = take(&WORDS);
        if singles {
            for p in 0..(geo.n * geo.n) as Point {
                if pos.at(p).is_some() {
                    continue;
                }
                let id = node_edges.len() as u16;
                key_point.push(p);
                node_edges.push(geo.edges[p as usize]);
                let mut seen: [u16; 8] = [NONE; 8];
                for (k, &q) in geo.neighbours_of(p).iter().enumerate() {
                    let g = group[q as usize];
                    if g != NONE && !seen.contains(&g) {
                        seen[k] = g;
                        links.push(Link {
                            a: g,
                            b: id,
                            x: NONE,
                            y: NONE,
                        });
                    }
                }
            }
        }
        for (id, &e) in node_edges.iter().enumerate().skip(2) {
            for (edge, bit) in [(FIRST, first), (SECOND, second)] {
                if e & bit != 0 {
                    links.push(Link {
                        a: edge,
                        b: id as u16,
                        x: NONE,
                        y: NONE,
                    });
                }
            }
        }
        // The empty grid points next to each node (for an edge node: on
        // that edge), as bitsets of `w` words: a key node's are its
        // point's neighbours.
        let w = geo.words;
        let grid = geo.n * geo.n;
        let black = pos.bits(Color::Black);
        let white = pos.bits(Color::White);
        let mut empty = take(&BITS);
        empty.extend((0..w).map(|k| {
            let valid = match grid.saturating_sub(k * 64) {
                0 => 0,
                left if left >= 64 => u64::MAX,
                left => (1 << left) - 1,
            };
            !(black[k] | white[k]) & valid
        }));
        let nodes = node_edges.len();
        let mut near = filled(&BITS, nodes * w, 0u64);
        for (node, bit) in [(FIRST, first), (SECOND, second)] {
            let edge = &geo.edge_bits[bit.trailing_zeros() as usize];
            for k in 0..w {
                near[node as usize * w + k] = edge[k] & empty[k];
            }
        }
        for (p, &g) in group.iter().enumerate() {
            if g != NONE {
                let nb = &geo.neighbour_bits[p * w..(p + 1) * w];
                for k in 0..w {
                    near[g as usize * w + k] |= nb[k] & empty[k];
                }
            }
        }
        for (i, &p) in key_point.iter().enumerate() {
            let nb = &geo.neighbour_bits[p as usize * w..(p as usize + 1) * w];
            let id = first_key as usize + i;
            for k in 0..w {
                near[id * w + k] = nb[k] & empty[k];
            }
        }
        // Touches first, then two-way links, then one-point links, each
        // kind by (a, b, x, y): the touches sorted, the others made in
        // that order, each pair of nodes (not two key nodes: two moves)
        // with the points next to both: two of them make a two-way link
        // (up to MAX_COMMON points tried, the lowest), one a one-point
        // link.
        links.sort_unstable_by_key(|l| (l.a, l.b));
        let mut one_point = take(&LINKS);
        for a in 0..first_key as usize {
            for b in a + 1..nodes {
                let mut common = [0 as Point; MAX_COMMON];
                let mut count = 0;
                'words: for k in 0..w {
                    let mut both = near[a * w + k] & near[b * w + k];
                    while both != 0 {
                        common[count] = (k * 64) as Point + both.trailing_zeros() as Point;
                        count += 1;
                        if count == MAX_COMMON {
                            break 'words;
                        }
                        both &= both - 1;
                    }
                }
                let (a, b) = (a as u16, b as u16);
                if count >= 2 {
                    let common = &common[..count];
                    for (k, &x) in common.iter().enumerate() {
                        for &y in &common[k + 1..] {
                            links.push(Link { a, b, x, y });
                        }
                    }
                } else if count == 1 && singles && b < first_key {
                    // (A one-point link to a key node would be a second move.)
                    one_point.push(Link {
                        a,
                        b,
                        x: common[0],
                        y: NONE,
                    });
                }
            }
        }
        links.append(&mut one_point);
        give(&LINKS, one_point);
        give(&BITS, near);
        give(&BITS, empty);
        let mut start = filled(&INDICES, nodes + 1, 0u32);
        for l in &links {
            start[l.a as usize + 1] += 1;
            start[l.b as usize + 1] += 1;
        }
        for i in 0..nodes {
            start[i + 1] += start[i];
        }
        let mut fill = take(&INDICES);
        fill.extend_from_slice(&start);
        let mut by_node = filled(&INDICES, 2 * links.len(), 0u32);
        for (k, l) in links.iter().enumerate() {
            for n in [l.a, l.b] {
                by_node[fill[n as usize] as usize] = k as u32;
                fill[n as usize] += 1;
            }
        }
        give(&INDICES, fill);
        Graph {
            color,
            groups,
            links,
            by_node,
            start,
            first_key,
            key_point,
        }
    }

    /// The links of `node`.
    fn links_of(&self, node: u16) -> &[u32] {
        &self.by_node[self.start[node as usize] as usize..self.start[node as usize + 1] as usize]
    }

    /// Searches edge-to-edge paths with disjoint carriers (at most
    /// `singles` one-point links and key nodes together; a key node's
    /// point in no carrier) and calls `accept` on each until it
    /// returns true; returns whether one did. Gives up after [`BUDGET`]
    /// steps.
    fn paths(&self, singles: u32, accept: &mut dyn FnMut(&Graph, &[u32]) -> bool) -> bool {
        let mut search = PathSearch {
            graph: self,
            visited: filled(&FLAGS, self.groups.node_edges.len(), false),
            used: filled(&FLAGS, self.groups.group.len(), false),
            path: take(&INDICES),
            steps: 0,
        };
        search.visited[FIRST as usize] = true;
        let found = search.dfs(FIRST, singles, accept);
        give(&FLAGS, search.visited);
        give(&FLAGS, search.used);
        give(&INDICES, search.path);
        found
    }

    /// Whether the path `links` passes the capture test (module doc).
    fn safe(&self, pos: &Onyx, path: &[u32]) -> bool {
        let geo = pos.geometry();
        let mut in_path = filled(&FLAGS, self.groups.node_edges.len(), false);
        let mut carrier = filled(&FLAGS, self.groups.group.len(), false);
        // Each two-way link's carrier, its lower point in the high half.
        let mut pairs = take(&INDICES);
        let pair = |a: Point, b: Point| (a.min(b) as u32) << 16 | a.max(b) as u32;
        for &k in path {
            let l = self.links[k as usize];
            in_path[l.a as usize] = true;
            in_path[l.b as usize] = true;
            for p in [l.x, l.y] {
                if p != NONE {
                    carrier[p as usize] = true;
                }
            }
            if l.x != NONE && l.y != NONE {
                pairs.push(pair(l.x, l.y));
            }
        }
        let path_piece = |p: Point| {
            let g = self.groups.group[p as usize];
            g != NONE && in_path[g as usize]
        };
        let safe = (0..(geo.n * geo.n) as Point).all(|p| {
            if !(carrier[p as usize] || path_piece(p)) {
                return true;
            }
            geo.squares_of(p).iter().all(|&(s, k)| {
                let sq = &geo.squares[s as usize];
                if pos.at(sq.midpoint).is_some() {
                    return true;
                }
                let (partner, [a, b]) = sq.diagonals(k);
                (pos.at(partner) != Some(self.color) && !carrier[partner as usize])
                    || path_piece(a)
                    || path_piece(b)
                    || pairs.contains(&pair(a, b))
            })
        });
        give(&FLAGS, in_path);
        give(&FLAGS, carrier);
        give(&INDICES, pairs);
        safe
    }

    /// The carrier points of the path `links`.
    fn carrier(&self, path: &[u32], out: &mut Vec<bool>) {
        out.clear();
        out.resize(self.groups.group.len(), false);
        for &k in path {
            let l = self.links[k as usize];
            for p in [l.x, l.y] {
                if p != NONE {
                    out[p as usize] = true;
                }
            }
        }
    }
}

/// The state of one path search.
struct PathSearch<'a> {
    graph: &'a Graph,
    visited: Vec<bool>,
    /// Carrier points taken by the links on the path.
    used: Vec<bool>,
    path: Vec<u32>,
    steps: u32,
}

impl PathSearch<'_> {
    fn dfs(
        &mut self,
        node: u16,
        singles: u32,
        accept: &mut dyn FnMut(&Graph, &[u32]) -> bool,
    ) -> bool {
        let graph = self.graph;
        for &k in graph.links_of(node) {
            if self.steps >= BUDGET {
                return false;
            }
            self.steps += 1;
            let l = graph.links[k as usize];
            let next = l.other(node);
            if self.visited[next as usize] {
                continue;
            }
            // A one-point link, or a key node (its point then taken):
            // each is the one move a semi-connection path may need.
            let key = (next >= graph.first_key)
                .then(|| graph.key_point[(next - graph.first_key) as usize]);
            let single = (l.x != NONE && l.y == NONE) || key.is_some();
            if single && singles == 0 {
                continue;
            }
            if [l.x, l.y, key.unwrap_or(NONE)]
                .iter()
                .any(|&p| p != NONE && self.used[p as usize])
            {
                continue;
            }
            if let Some(p) = key
                && [l.x, l.y].contains(&p)
            {
                continue;
            }
            self.path.push(k);
            let found = if next == SECOND {
                accept(graph, &self.path)
            } else {
                self.set(l, true);
                if let Some(p) = key {
                    self.used[p as usize] = true;
                }
                self.visited[next as usize] = true;
                let f = self.dfs(next, singles - single as u32, accept);
                self.visited[next as usize] = false;
                if let Some(p) = key {
                    self.used[p as usize] = false;
                }
                self.set(l, false);
                f
            };
            self.path.pop();
            if found {
                return true;
            }
        }
        false
    }

    fn set(&mut self, l: Link, on: bool) {
        for p in [l.x, l.y] {
            if p != NONE {
                self.used[p as usize] = on;
            }
        }
    }
}

/// Entries of the cache of [`virtual_connection`] (per thread).
const CACHE_SIZE: usize = 1 << 16;

/// Boards whose carriers fit the cache (points).
const CACHE_POINTS: usize = 128;

/// One thread's cache of a connection search: entries `(key, answer)`
/// (key 0: empty), a slot each by the key's low bits.
type Cache<T> = std::thread::LocalKey<std::cell::RefCell<Vec<(u64, T)>>>;

thread_local! {
    /// [`virtual_connection`]'s carriers, as bitsets.
    static CACHE: std::cell::RefCell<Vec<(u64, Option<u128>)>> = const { std::cell::RefCell::new(Vec::new()) };
    /// [`combined`]'s answers.
    static COMBINED: std::cell::RefCell<Vec<(u64, EdgeConnections)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The answer cached in `cache` for `color` in `pos`, or `search`'s,
/// then cached.
fn cached<T: Copy + Default>(
    cache: &'static Cache<T>,
    pos: &Onyx,
    color: Color,
    search: impl FnOnce() -> T,
) -> T {
    let key = cache_key(pos, color);
    let slot = (key as usize) & (CACHE_SIZE - 1);
    let hit = cache.with(|c| {
        let c = c.borrow();
        c.get(slot).filter(|e| e.0 == key).map(|e| e.1)
    });
    if let Some(answer) = hit {
        return answer;
    }
    let answer = search();
    cache.with(|c| {
        let mut c = c.borrow_mut();
        if c.is_empty() {
            c.resize(CACHE_SIZE, (0, T::default()));
        }
        c[slot] = (key, answer);
    });
    answer
}

/// The cache key of `color`'s connection in `pos`: the pieces' Zobrist
/// hash (the side to move taken out: the answer depends on the pieces
/// only; from the third move on no swap key is in the hash), mixed with
/// the colour and the size.
fn cache_key(pos: &Onyx, color: Color) -> u64 {
    let geo = pos.geometry();
    let mut h = pos.hash();
    if pos.to_move() == Color::White {
        h ^= geo.white_key;
    }
    if color == Color::White {
        h ^= 0x9e37_79b9_7f4a_7c15;
    }
    (h ^ (geo.n as u64).wrapping_mul(0xff51_afd7_ed55_8ccd)).max(1)
}

/// The carrier of a virtual connection of `color` (points marked in the
/// returned vector), if one is found. Answers are cached per thread by
/// the position's 64-bit hash (as the solver's table trusts it).
fn virtual_connection(pos: &Onyx, color: Color) -> Option<Vec<bool>> {
    let np = pos.geometry().num_points;
    if !cacheable(pos) {
        return search_connection(pos, color);
    }
    let carrier = cached_connection(pos, color)?;
    Some((0..np).map(|p| carrier >> p & 1 != 0).collect())
}

/// Whether `color` holds a virtual connection in `pos`
/// ([`virtual_connection`], without making its carrier's vector).
fn holds_virtual_connection(pos: &Onyx, color: Color) -> bool {
    if !cacheable(pos) {
        return search_connection(pos, color).is_some_and(|c| {
            give(&FLAGS, c);
            true
        });
    }
    cached_connection(pos, color).is_some()
}

/// Whether [`virtual_connection`]'s answers for `pos` go to the cache: a
/// board whose points fit its bitsets, past the swap.
fn cacheable(pos: &Onyx) -> bool {
    pos.geometry().num_points <= CACHE_POINTS && !pos.swap_available()
}

/// [`virtual_connection`]'s carrier as a bitset, through the cache.
fn cached_connection(pos: &Onyx, color: Color) -> Option<u128> {
    cached(&CACHE, pos, color, || {
        search_connection(pos, color).map(|c| {
            let bits = c
                .iter()
                .enumerate()
                .filter(|(_, on)| **on)
                .fold(0u128, |b, (p, _)| b | 1 << p);
            give(&FLAGS, c);
            bits
        })
    })
}

/// [`virtual_connection`] without the cache.
fn search_connection(pos: &Onyx, color: Color) -> Option<Vec<bool>> {
    let graph = Graph::new(pos, color, false)?;
    let mut carrier = take(&FLAGS);
    let found = graph.paths(0, &mut |g, path| {
        if g.safe(pos, path) {
            g.carrier(path, &mut carrier);
            true
        } else {
            false
        }
    });
    if found {
        Some(carrier)
    } else {
        give(&FLAGS, carrier);
        None
    }
}

/// Whether the side to move wins in one move: a placement whose group
/// touches both its edges (captures remove only the opponent's pieces).
/// Only grid points can: a midpoint that may be taken has four empty
/// corners, its only neighbours, and lies on no edge.
fn wins_in_one(pos: &Onyx, groups: &Groups) -> bool {
    let me = pos.to_move();
    let geo = pos.geometry();
    let (first, second) = edge_bits(me);
    let w = geo.words;
    // Points next to a group touching the first (second) edge, or on it.
    let mut reach = [take(&BITS), take(&BITS)];
    for (r, bit) in reach.iter_mut().zip([first, second]) {
        let index = bit.trailing_zeros() as usize;
        r.extend_from_slice(&geo.edge_bits[index]);
    }
    for p in 0..geo.n * geo.n {
        let g = groups.group[p];
        if g == NONE {
            continue;
        }
        let e = groups.node_edges[g as usize];
        let near = &geo.neighbour_bits[p * w..(p + 1) * w];
        for (r, bit) in reach.iter_mut().zip([first, second]) {
            if e & bit != 0 {
                for (a, b) in r.iter_mut().zip(near) {
                    *a |= b;
                }
            }
        }
    }
    let wins = (0..w).any(|k| reach[0][k] & reach[1][k] & pos.placeable_word(k) != 0);
    let [r0, r1] = reach;
    give(&BITS, r0);
    give(&BITS, r1);
    wins
}

/// Most one-point links and key points tried as semi-connections in one
/// position.
const MAX_CANDIDATES: usize = 8;

/// The graph of `color` (from its `groups`) searched for paths with at
/// most one one-point link or key node: whether a path without either
/// passes the capture test (a virtual connection), and the one-point links
/// and key points of the others (up to [`MAX_CANDIDATES`]), each to be
/// checked by playing it.
fn semi_candidates(pos: &Onyx, color: Color, groups: Groups) -> (bool, Vec<Point>) {
    let graph = Graph::from_groups(pos, color, groups, true);
    let mut candidates: Vec<Point> = Vec::new();
    let mut full = false;
    graph.paths(1, &mut |g, path| {
        let single = path.iter().map(|&k| g.links[k as usize]).find_map(|l| {
            if l.b >= g.first_key {
                Some(g.key_point[(l.b - g.first_key) as usize])
            } else if l.a >= g.first_key {
                Some(g.key_point[(l.a - g.first_key) as usize])
            } else if l.x != NONE && l.y == NONE {
                Some(l.x)
            } else {
                None
            }
        });
        match single {
            Some(x) => {
                if !candidates.contains(&x) {
                    candidates.push(x);
                }
                candidates.len() >= MAX_CANDIDATES
            }
            None => {
                full = g.safe(pos, path);
                full
            }
        }
    });
    (full, candidates)
}

/// Whether the side to move has a move after which it holds a virtual
/// connection: the one-point link or key point of a path with one,
/// checked by playing it and searching again.
fn semi_connection(pos: &mut Onyx, groups: Groups) -> bool {
    let me = pos.to_move();
    let (full, candidates) = semi_candidates(pos, me, groups);
    if full {
        return true;
    }
    for x in candidates {
        pos.play(OnyxMove::Place(x));
        let wins = pos.outcome().is_some() || holds_virtual_connection(pos, me);
        pos.undo();
        if wins {
            return true;
        }
    }
    false
}

/// [`crate::solve::Knowledge::forced_winner`] for Onyx: a win in one of
/// the side to move; then (from the third move on) a virtual connection of
/// the side not to move; then a virtual connection or a semi-connection
/// of the side to move.
pub(super) fn forced_winner(pos: &mut Onyx) -> Option<Color> {
    if pos.outcome().is_some() {
        return None;
    }
    let me = pos.to_move();
    // The side to move is not connected: the game would be over.
    let groups = Groups::new(pos, me)?;
    if wins_in_one(pos, &groups) {
        return Some(me);
    }
    if pos.moves_played() < 2 {
        return None;
    }
    if holds_virtual_connection(pos, me.opponent()) {
        return Some(me.opponent());
    }
    if semi_connection(pos, groups) {
        return Some(me);
    }
    // Of H-search's claims only the opponent's full connection. The side
    // to move's connections were searched when the parent was expanded
    // (`prune_losing`'s opponent there): a full one would have ended the
    // parent, and the move that led here, inside the parent's must-play
    // region, broke each semi-connection. Searching them again found
    // next to nothing (docs/solutions.md, twenty-ninth session).
    if COMBINED_ON.get() && combined(pos, me.opponent()).full.is_some() {
        return Some(me.opponent());
    }
    None
}

thread_local! {
    /// Whether this thread's solver asks H-search's combined connections
    /// too ([`use_combined`]).
    static COMBINED_ON: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether [`forced_winner`] and [`prune_losing`] ask H-search's combined
/// connections (`hsearch.rs`) after the single paths, in this thread: the
/// solver's richer, dearer form of knowledge
/// ([`crate::solve::Knowledge::use_play_knowledge`]). Off by default: on
/// the 6×6 positions of docs/solutions.md it cuts the nodes by about a
/// third but costs each node two to three times as much.
pub(super) fn use_combined(on: bool) {
    COMBINED_ON.set(on);
}

/// What H-search (`hsearch.rs`) alone claims: a full connection of the
/// side not to move, then a full or semi-connection of the side to move.
/// Nothing before the third move or on boards over 10×10. (The solver
/// asks only the first, in [`forced_winner`], and the second side's
/// connections as the must-play region, in [`prune_losing`].)
pub fn combined_winner(pos: &Onyx) -> Option<Color> {
    if pos.outcome().is_some() {
        return None;
    }
    let me = pos.to_move();
    if combined(pos, me.opponent()).full.is_some() {
        return Some(me.opponent());
    }
    let mine = combined(pos, me);
    (mine.full.is_some() || mine.semi.is_some()).then_some(me)
}

/// H-search's connections of `color` (none before the third move, while
/// a swap may come), cached per thread by the position's hash.
fn combined(pos: &Onyx, color: Color) -> EdgeConnections {
    if pos.swap_available() || pos.moves_played() < 2 || pos.geometry().n > super::hsearch::MAX_SIZE
    {
        return EdgeConnections::default();
    }
    cached(&COMBINED, pos, color, || {
        super::hsearch::edge_connections(pos, color).unwrap_or_default()
    })
}

/// [`crate::solve::Knowledge::prune_losing`] for Onyx, from the third
/// move on, when the side to move cannot win at once:
///
/// - when the opponent holds a virtual connection, keeps only the moves in
///   its carrier;
/// - otherwise, for each *threat* of the opponent (a point `x` such that,
///   were the opponent to move, taking `x` wins at once or leaves it a
///   virtual connection of carrier `U`, checked by playing it after a null
///   move), keeps only the moves in `U ∪ {x}`, intersected over the threats
///   (the must-play region).
///
/// Capturing moves are always kept. Why the others lose: a move `y`
/// outside the region that captures nothing leaves the opponent's pieces
/// as they are; answered by `x`, it gives a position with the same pieces
/// of the opponent, the carrier `U` still empty (`y` is not in it, `x`'s
/// captures only remove pieces) and every midpoint occupied before still
/// occupied, so the same connection passes the same tests there.
pub(super) fn prune_losing(pos: &mut Onyx, moves: &mut Vec<OnyxMove>) {
    if pos.outcome().is_some() || pos.moves_played() < 2 || pos.swap_available() {
        return;
    }
    let me = pos.to_move();
    let them = me.opponent();
    let Some(mine) = Groups::new(pos, me) else {
        return;
    };
    if wins_in_one(pos, &mine) {
        return;
    }
    let np = pos.geometry().num_points;
    let from_bits =
        |bits: u128| -> Vec<bool> { (0..np).map(|p| p < 128 && bits >> p & 1 != 0).collect() };
    let theirs_combined = if COMBINED_ON.get() {
        combined(pos, them)
    } else {
        EdgeConnections::default()
    };
    let region = match (virtual_connection(pos, them), theirs_combined.full) {
        (Some(carrier), _) => carrier,
        (None, Some(carrier)) => from_bits(carrier),
        (None, None) => {
            let Some(theirs) = Groups::new(pos, them) else {
                return;
            };
            let (_, candidates) = semi_candidates(pos, them, theirs);
            let mut region: Option<Vec<bool>> = theirs_combined.semi.map(from_bits);
            for x in candidates {
                pos.play_null();
                pos.play(OnyxMove::Place(x));
                let threat = match pos.outcome() {
                    Some(_) => Some(vec![false; np]),
                    None => virtual_connection(pos, them),
                };
                pos.undo();
                pos.undo();
                if let Some(mut r) = threat {
                    r[x as usize] = true;
                    region = Some(match region {
                        None => r,
                        Some(mut old) => {
                            for (o, n) in old.iter_mut().zip(&r) {
                                *o &= *n;
                            }
                            old
                        }
                    });
                }
            }
            match region {
                Some(r) => r,
                None => return,
            }
        }
    };
    let mut buf = [0; 4];
    moves.retain(|&m| match m {
        OnyxMove::Swap => true,
        OnyxMove::Place(p) => {
            region[p as usize]
                || (!pos.geometry().is_midpoint(p) && pos.captures(p, me, &mut buf) > 0)
        }
    });
}
