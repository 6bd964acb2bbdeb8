//! The two-distance kernel (Queenbee's potential, van Rijswijck) that Onyx
//! and Hex share: a level-synchronous relaxation on bit sets of `W` words.
//!
//! A game describes its graph for one colour by a *contracted
//! neighbourhood* table: `W` words a point, the point's neighbours plus
//! every point around each own group it touches (own groups are free to
//! pass through; [`widen`] adds them), and by the points that may be
//! placed on a level (`passable`: the empty points, in Onyx also pieces a
//! capture may reopen). A point's two-distance from an edge is 1 when it
//! is on that edge or touches an own group that reaches it, else 1 + the
//! second smallest two-distance among its neighbours.
//!
//! Level d holds the points of two-distance d; each point of level d adds
//! its contracted neighbourhood to `once`, and to `twice` where it was
//! already in `once`; level d + 1 is the passable part of `twice` less the
//! points already placed ([`Td`]). [`potential`] runs the searches from
//! both edges together and stops as soon as the smallest sum is known.

/// Most two-distance levels kept; larger values count as infinite.
pub const MAX_TD: usize = 64;

/// Potential reported when no point has two finite two-distances.
pub const TD_INFINITE: u16 = 999;

/// Per-level bit sets of one two-distance search (level 0 unused).
pub type TdLevels<const W: usize> = [[u64; W]; MAX_TD];

#[inline]
fn any<const W: usize>(a: &[u64; W]) -> bool {
    a.iter().fold(0, |x, &w| x | w) != 0
}

/// How many points `a` and `b` have in common.
#[inline]
fn common<const W: usize>(a: &[u64; W], b: &[u64; W]) -> u16 {
    (0..W).map(|k| (a[k] & b[k]).count_ones()).sum::<u32>() as u16
}

/// Widens `contracted` by every group of `around` (`W` words a group,
/// from [`label_groups`]; see [`widen`]).
#[inline]
pub fn widen_all<const W: usize>(contracted: &mut [u64], around: &[u64], own: &[u64; W]) {
    let (around, _) = around.as_chunks::<W>();
    for around in around {
        widen(contracted, around, own);
    }
}

/// Each point next to a group (the own pieces `own` left out) gains every
/// point `around` the group in its contracted neighbourhood (`contracted`,
/// `W` words a point).
#[inline(always)]
pub fn widen<const W: usize>(contracted: &mut [u64], around: &[u64; W], own: &[u64; W]) {
    let (contracted, _) = contracted.as_chunks_mut::<W>();
    for (k, &word) in around.iter().enumerate() {
        let mut w = word & !own[k];
        while w != 0 {
            let f = k * 64 + w.trailing_zeros() as usize;
            w &= w - 1;
            for (c, &a) in contracted[f].iter_mut().zip(around) {
                *c |= a;
            }
        }
    }
}

/// Labels the groups of `own` (`add_neighbours` ORs the neighbours of
/// every point of a set into another, `edges` holds the edge bits of each
/// point): for each group, lowest point first, pushes the points around
/// it (its own pieces among them) on `around`, `W` words a group, and the
/// edges it touches on `gedge`.
#[inline]
pub fn label_groups<const W: usize>(
    own: &[u64; W],
    edges: &[u8],
    add_neighbours: impl Fn(&[u64; W], &mut [u64; W]),
    around: &mut Vec<u64>,
    gedge: &mut Vec<u8>,
) {
    let mut rest = *own;
    while let Some(wi) = rest.iter().position(|&w| w != 0) {
        let p = wi * 64 + rest[wi].trailing_zeros() as usize;
        let mut group = [0u64; W];
        group[wi] = 1 << (p % 64);
        let mut frontier = group;
        let mut nb = [0u64; W];
        while any(&frontier) {
            add_neighbours(&frontier, &mut nb);
            frontier = std::array::from_fn(|k| nb[k] & own[k] & !group[k]);
            for k in 0..W {
                group[k] |= frontier[k];
            }
        }
        let mut e = 0;
        for (k, &word) in group.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                e |= edges[k * 64 + w.trailing_zeros() as usize];
                w &= w - 1;
            }
            rest[k] &= !word;
        }
        gedge.push(e);
        around.extend_from_slice(&nb);
    }
}

/// One two-distance search from an edge, one level at a time.
pub struct Td<const W: usize> {
    /// Points with at least one placed contracted neighbour.
    once: [u64; W],
    /// Points with at least two: the next level, once `done` and the
    /// points that are not passable are removed.
    twice: [u64; W],
    /// Points placed on a level.
    done: [u64; W],
    /// The passable points: only they are placed.
    passable: [u64; W],
}

impl<const W: usize> Td<W> {
    /// Starts from the edge `edge_bit`, whose points are `edge`: they and
    /// the points around the own groups on it (`around`, `W` words a
    /// group, with the edges of each group in `gedge`) are at distance 1
    /// (the `passable` ones: they are masked in when a level is taken).
    pub fn new(
        edge: [u64; W],
        around: &[u64],
        gedge: &[u8],
        edge_bit: u8,
        passable: [u64; W],
    ) -> Self {
        let mut twice = edge;
        let (around, _) = around.as_chunks::<W>();
        for (around, &gedge) in around.iter().zip(gedge) {
            if gedge & edge_bit != 0 {
                for (t, a) in twice.iter_mut().zip(around) {
                    *t |= a;
                }
            }
        }
        Td {
            once: twice,
            twice,
            done: [0; W],
            passable,
        }
    }

    /// Takes the points of the next level (empty when the search is over):
    /// the passable points with two placed contracted neighbours, less
    /// those placed. Call [`Td::expand`] on it before taking the level
    /// after.
    #[inline]
    pub fn take_level(&mut self) -> [u64; W] {
        let mut new = self.twice;
        for ((n, d), p) in new.iter_mut().zip(&mut self.done).zip(&self.passable) {
            *n &= p & !*d;
            *d |= *n;
        }
        new
    }

    /// Adds the contracted neighbourhoods (`contracted`, `W` words a
    /// point) of `level`, the level just taken, to `once` and `twice`,
    /// whole: points that are placed or not passable are counted too, and
    /// left out when the next level is taken (a point's count never
    /// depends on another's).
    #[inline]
    pub fn expand(&mut self, contracted: &[u64], level: &[u64; W]) {
        let (table, _) = contracted.as_chunks::<W>();
        // Kept in locals (registers) through the loop.
        let (mut once, mut twice) = (self.once, self.twice);
        for (wi, &word) in level.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let m = &table[wi * 64 + w.trailing_zeros() as usize];
                w &= w - 1;
                for k in 0..W {
                    twice[k] |= once[k] & m[k];
                    once[k] |= m[k];
                }
            }
        }
        (self.once, self.twice) = (once, twice);
    }

    /// Level `k` of the search, the levels before it in `levels`: empty
    /// once the search is over (`open` false). A level is expanded only
    /// when the next one is needed: the search stops without expanding its
    /// last.
    #[inline(always)]
    fn level(&mut self, contracted: &[u64], levels: &[[u64; W]], k: usize, open: bool) -> [u64; W] {
        if !open {
            return [0; W];
        }
        if k > 1 {
            self.expand(contracted, &levels[k - 1]);
        }
        self.take_level()
    }

    /// Runs the search to the end into `levels`; returns the number of
    /// levels filled (levels `1..returned`).
    pub fn run(mut self, contracted: &[u64], levels: &mut TdLevels<W>) -> usize {
        for d in 1..MAX_TD {
            levels[d] = self.level(contracted, levels, d, true);
            if !any(&levels[d]) {
                return d;
            }
        }
        MAX_TD
    }
}

/// Potential and mobility of the searches `a` and `b` from a colour's two
/// edges, over the contracted neighbourhoods `contracted`: the smallest
/// sum of a point's two two-distances, and how many points have it
/// ([`TD_INFINITE`] and 0 when none has two finite ones). `levels` is
/// working memory (grown once, never cleared: only the levels written are
/// read).
///
/// Both searches advance together, a level at a time; after level k every
/// point with both two-distances at most k is known, and any other point
/// sums to at least k + 2, so the search stops once the best sum is at
/// most k + 1.
// Inlined: out of line, Onyx's evaluation ran 2% more instructions
// (callgrind, `bench 5 onyx`).
#[inline(always)]
pub fn potential<const W: usize>(
    contracted: &[u64],
    mut a: Td<W>,
    mut b: Td<W>,
    levels: &mut Vec<u64>,
) -> (u16, u16) {
    let mut counts = [0u16; 2 * MAX_TD];
    let mut best = usize::MAX;
    if levels.len() < 2 * MAX_TD * W {
        levels.resize(2 * MAX_TD * W, 0);
    }
    let (levels, _) = levels.as_chunks_mut::<W>();
    let (la, lb) = levels.split_at_mut(MAX_TD);
    let (mut a_open, mut b_open) = (true, true);
    // Every point placed by each search so far.
    let (mut all_a, mut all_b) = ([0u64; W], [0u64; W]);
    for k in 1..MAX_TD {
        la[k] = a.level(contracted, la, k, a_open);
        a_open = any(&la[k]);
        lb[k] = b.level(contracted, lb, k, b_open);
        b_open = any(&lb[k]);
        if (!a_open && !b_open) || (k == 1 && !(a_open && b_open)) {
            break;
        }
        // New sums need a point of this level of one search that the
        // other has placed (at this level or before).
        let mut meets = 0;
        for w in 0..W {
            all_a[w] |= la[k][w];
            all_b[w] |= lb[k][w];
            meets |= (la[k][w] & all_b[w]) | (lb[k][w] & all_a[w]);
        }
        if meets == 0 {
            continue;
        }
        // Counts the points of level i of `a` and j of `b` (sum i + j);
        // false once the sum is above the best.
        let mut tally = |i: usize, j: usize| {
            if i + j > best {
                return false;
            }
            let c = common(&la[i], &lb[j]);
            if c > 0 {
                counts[i + j] += c;
                best = best.min(i + j);
            }
            true
        };
        // This level of `a` with `b`'s so far, then `b`'s with `a`'s before.
        for j in 1..=k {
            if !tally(k, j) {
                break;
            }
        }
        for i in 1..k {
            if !tally(i, k) {
                break;
            }
        }
        if best <= k + 1 {
            break;
        }
    }
    if best == usize::MAX {
        (TD_INFINITE, 0)
    } else {
        (best as u16, counts[best])
    }
}

/// The potential an evaluation counts: the two-distance `potential`, or,
/// when a colour has no two routes left ([`TD_INFINITE`]), its single
/// route counted twice over, `2 × distance + 2` (`distance` of the single
/// route, `None` when there is none); at most `cap`.
pub fn effective_potential(
    potential: u16,
    cap: u16,
    distance: impl FnOnce() -> Option<u16>,
) -> u16 {
    if potential != TD_INFINITE {
        return potential.min(cap);
    }
    match distance() {
        None => cap,
        Some(d) => (2 * d + 2).min(cap),
    }
}

/// The two-distance by its definition, point by point, for the tests of
/// the games that use the kernel.
#[cfg(test)]
pub(crate) mod reference {
    use super::{MAX_TD, TD_INFINITE};

    /// An infinite two-distance.
    pub const INF: u16 = u16::MAX;

    /// The contracted graph over the points of `edges` (the edge bits of
    /// each point; its `neighbours`, whether it holds an `own` piece, is
    /// `passable`): neighbour lists of the passable points (their passable
    /// neighbours, and the passable points around every own group they
    /// touch), and the edges each passable point touches, directly or
    /// through an own group.
    pub fn contracted<'a>(
        edges: &[u8],
        neighbours: impl Fn(u16) -> &'a [u16],
        own: impl Fn(usize) -> bool,
        passable: impl Fn(usize) -> bool,
    ) -> (Vec<Vec<usize>>, Vec<u8>) {
        let np = edges.len();
        let neighbours = |p: usize| neighbours(p as u16).iter().map(|&q| q as usize);
        let edges = |p: usize| edges[p];
        let mut comp = vec![usize::MAX; np];
        let mut comp_edges = Vec::new();
        for p in 0..np {
            if !own(p) || comp[p] != usize::MAX {
                continue;
            }
            let c = comp_edges.len();
            let mut e = 0;
            let mut stack = vec![p];
            comp[p] = c;
            while let Some(q) = stack.pop() {
                e |= edges(q);
                for r in neighbours(q) {
                    if own(r) && comp[r] == usize::MAX {
                        comp[r] = c;
                        stack.push(r);
                    }
                }
            }
            comp_edges.push(e);
        }
        let groups_of: Vec<Vec<usize>> = (0..np)
            .map(|p| {
                let mut g: Vec<usize> =
                    neighbours(p).filter(|&q| own(q)).map(|q| comp[q]).collect();
                g.sort_unstable();
                g.dedup();
                g
            })
            .collect();
        // The passable points around each group.
        let mut around = vec![Vec::new(); comp_edges.len()];
        for r in (0..np).filter(|&r| passable(r)) {
            for &g in &groups_of[r] {
                around[g].push(r);
            }
        }
        let mut adj = vec![Vec::new(); np];
        let mut reach = vec![0u8; np];
        for p in (0..np).filter(|&p| passable(p)) {
            reach[p] = edges(p);
            let mut list: Vec<usize> = neighbours(p).filter(|&q| passable(q)).collect();
            for &g in &groups_of[p] {
                reach[p] |= comp_edges[g];
                list.extend(around[g].iter().copied().filter(|&r| r != p));
            }
            list.sort_unstable();
            list.dedup();
            adj[p] = list;
        }
        (adj, reach)
    }

    /// The two-distances from the edge `edge_bit` of the passable points of
    /// the contracted graph (`adj`, `edges` from [`contracted`]), by the
    /// definition iterated until nothing changes.
    pub fn fixed_point(
        passable: impl Fn(usize) -> bool,
        adj: &[Vec<usize>],
        edges: &[u8],
        edge_bit: u8,
    ) -> Vec<u16> {
        let np = adj.len();
        let mut td = vec![INF; np];
        loop {
            let mut changed = false;
            for p in (0..np).filter(|&p| passable(p)) {
                let v = if edges[p] & edge_bit != 0 {
                    1
                } else {
                    let mut vals: Vec<u16> = adj[p].iter().map(|&r| td[r]).collect();
                    vals.sort_unstable();
                    match vals.get(1) {
                        Some(&v) if v != INF => v + 1,
                        _ => INF,
                    }
                };
                if v != td[p] {
                    td[p] = v;
                    changed = true;
                }
            }
            if !changed {
                return td;
            }
        }
    }

    /// Potential and mobility from the two-distances `a` and `b` of every
    /// point from the two edges (those of [`super::MAX_TD`] or more count
    /// as infinite).
    pub fn best_of(a: &[u16], b: &[u16]) -> (u16, u16) {
        let sums: Vec<u16> = a
            .iter()
            .zip(b)
            .filter(|&(&x, &y)| {
                x != INF && y != INF && (x as usize) < MAX_TD && (y as usize) < MAX_TD
            })
            .map(|(&x, &y)| x + y)
            .collect();
        match sums.iter().min() {
            Some(&m) => (m, sums.iter().filter(|&&s| s == m).count() as u16),
            None => (TD_INFINITE, 0),
        }
    }
}
