//! Bit sets over the points of a board (up to 26×26 = 676 points in 11
//! words), with the shifts the evaluation needs: "the points whose
//! neighbour at (dr, dc) is in the set", so that legality and distances are
//! computed for all points at once.

/// Words of the largest board.
pub const WORDS: usize = 11;

/// A set of points (bit `p` for point `p`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Bits(pub [u64; WORDS]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; WORDS]);

    #[inline]
    /// Adds point `p`.
    pub fn set(&mut self, p: usize) {
        self.0[p / 64] |= 1 << (p % 64);
    }

    #[inline]
    /// Whether point `p` is in the set.
    pub fn has(&self, p: usize) -> bool {
        self.0[p / 64] >> (p % 64) & 1 != 0
    }
}

/// Precomputed masks for one board size.
#[derive(Clone, Debug)]
pub struct Masks {
    /// Words in use.
    pub words: usize,
    /// Points per side.
    pub n: usize,
    /// Every point of the board.
    pub board: Bits,
    /// For dc in -2..=2 (index dc + 2): the points whose column + dc is on
    /// the board.
    pub col: [Bits; 5],
    /// Edge rows/columns: bottom, top, left, right.
    pub edge: [Bits; 4],
}

impl Masks {
    /// Masks for an `n`×`n` board.
    pub fn new(n: usize) -> Masks {
        let np = n * n;
        let mut m = Masks {
            words: np.div_ceil(64),
            n,
            board: Bits::EMPTY,
            col: [Bits::EMPTY; 5],
            edge: [Bits::EMPTY; 4],
        };
        for p in 0..np {
            let (r, c) = (p / n, p % n);
            m.board.set(p);
            for dc in -2i32..=2 {
                let cc = c as i32 + dc;
                if cc >= 0 && cc < n as i32 {
                    m.col[(dc + 2) as usize].set(p);
                }
            }
            if r == 0 {
                m.edge[0].set(p);
            }
            if r == n - 1 {
                m.edge[1].set(p);
            }
            if c == 0 {
                m.edge[2].set(p);
            }
            if c == n - 1 {
                m.edge[3].set(p);
            }
        }
        m
    }

    #[inline]
    /// The intersection of `a` and `b`.
    pub fn and(&self, a: &Bits, b: &Bits) -> Bits {
        let mut o = Bits::EMPTY;
        for i in 0..self.words {
            o.0[i] = a.0[i] & b.0[i];
        }
        o
    }

    #[inline]
    /// The union of `a` and `b`.
    pub fn or(&self, a: &Bits, b: &Bits) -> Bits {
        let mut o = Bits::EMPTY;
        for i in 0..self.words {
            o.0[i] = a.0[i] | b.0[i];
        }
        o
    }

    /// `a` without `b`.
    #[inline]
    pub fn andnot(&self, a: &Bits, b: &Bits) -> Bits {
        let mut o = Bits::EMPTY;
        for i in 0..self.words {
            o.0[i] = a.0[i] & !b.0[i];
        }
        o
    }

    #[inline]
    /// Whether `a` holds no point.
    pub fn is_empty(&self, a: &Bits) -> bool {
        a.0[..self.words].iter().all(|&w| w == 0)
    }

    #[inline]
    /// How many points `a` holds.
    pub fn count(&self, a: &Bits) -> u32 {
        a.0[..self.words].iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    /// Whether `a` and `b` share a point.
    pub fn intersects(&self, a: &Bits, b: &Bits) -> bool {
        (0..self.words).any(|i| a.0[i] & b.0[i] != 0)
    }

    /// Bit `q` moves to `q + k` (k may be negative); bits leaving 0..64·words
    /// are dropped.
    #[inline(always)]
    fn shift(&self, a: &Bits, k: i32) -> Bits {
        let mut o = Bits::EMPTY;
        let w = self.words as i32;
        if k >= 0 {
            let (q, r) = ((k / 64) as usize, (k % 64) as u32);
            for i in (q..self.words).rev() {
                let mut v = a.0[i - q] << r;
                if r > 0 && i > q {
                    v |= a.0[i - q - 1] >> (64 - r);
                }
                o.0[i] = v;
            }
        } else {
            let k = -k;
            let (q, r) = ((k / 64) as usize, (k % 64) as u32);
            for i in 0..(w as usize).saturating_sub(q) {
                let mut v = a.0[i + q] >> r;
                if r > 0 && i + q + 1 < self.words {
                    v |= a.0[i + q + 1] << (64 - r);
                }
                o.0[i] = v;
            }
        }
        o
    }

    /// The points `p` whose neighbour `p + (dr, dc)` is on the board and in `a`.
    #[inline(always)]
    pub fn at(&self, a: &Bits, dr: i32, dc: i32) -> Bits {
        let s = self.shift(a, -(dr * self.n as i32 + dc));
        // The column masks hold board points only.
        self.and(&s, &self.col[(dc + 2) as usize])
    }

    /// Whether `a` and `b` hold the same points.
    #[inline]
    pub fn same(&self, a: &Bits, b: &Bits) -> bool {
        (0..self.words).all(|i| a.0[i] == b.0[i])
    }

    /// The points orthogonally adjacent to some point of `a`.
    #[inline]
    pub fn neighbours(&self, a: &Bits) -> Bits {
        let x = self.or(&self.at(a, 1, 0), &self.at(a, -1, 0));
        let y = self.or(&self.at(a, 0, 1), &self.at(a, 0, -1));
        self.or(&x, &y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_match_coordinates() {
        for n in [3, 5, 8, 11, 13, 26] {
            let m = Masks::new(n);
            for p in (0..n * n).step_by(7) {
                let mut a = Bits::EMPTY;
                a.set(p);
                for dr in -2i32..=2 {
                    for dc in -2i32..=2 {
                        let got = m.at(&a, dr, dc);
                        for q in 0..n * n {
                            let (r, c) = ((q / n) as i32, (q % n) as i32);
                            let want = r + dr >= 0
                                && r + dr < n as i32
                                && c + dc >= 0
                                && c + dc < n as i32
                                && ((r + dr) * n as i32 + c + dc) as usize == p;
                            assert_eq!(got.has(q), want, "n {n} p {p} q {q} ({dr},{dc})");
                        }
                    }
                }
            }
        }
    }
}
