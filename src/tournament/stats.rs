//! Match statistics from wins, losses and draws: Elo difference with a 95%
//! error bar, likelihood of superiority, and the sequential probability
//! ratio test (the generalised SPRT on trinomial results that cutechess and
//! fastchess use, with the logistic Elo model).

/// Wins, losses and draws of one side of a pairing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Wld {
    /// Games in all.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points per game (win 1, draw ½), `None` with no games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The same results seen from the opponent.
    pub fn flipped(&self) -> Wld {
        Wld {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// Variance of one game's score around `score`.
    fn variance(&self, score: f64) -> f64 {
        let n = self.games() as f64;
        (self.wins as f64 * (1.0 - score).powi(2)
            + self.draws as f64 * (0.5 - score).powi(2)
            + self.losses as f64 * score.powi(2))
            / n
    }

    /// Elo difference with its 95% error margin (cutechess's method: the
    /// normal approximation of the mean score mapped through the logistic
    /// curve). `None` with no games; ±infinity when one side scored
    /// everything.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let score = self.score()?;
        let n = self.games() as f64;
        let dev = (self.variance(score) / n).sqrt();
        let z = 1.959_963_984_540_054;
        let lo = score_to_elo(score - z * dev);
        let hi = score_to_elo(score + z * dev);
        // Unbounded at either end (a score of 0 or 1 within the interval):
        // the margin is infinite.
        let margin = if lo.is_finite() && hi.is_finite() {
            (hi - lo) / 2.0
        } else {
            f64::INFINITY
        };
        Some((score_to_elo(score), margin))
    }

    /// Likelihood of superiority: the probability that this side is the
    /// stronger, from wins and losses (draws carry no information).
    pub fn los(&self) -> Option<f64> {
        let (w, l) = (self.wins as f64, self.losses as f64);
        (w + l > 0.0).then(|| 0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
    }

    /// Share of drawn games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }
}

/// The Elo difference that gives `score` points per game (logistic model).
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of an Elo difference (logistic model).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// A sequential probability ratio test of H0: Elo = `elo0` against
/// H1: Elo = `elo1`, with false-positive rate `alpha` and false-negative rate
/// `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Type I error rate.
    pub alpha: f64,
    /// Type II error rate.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtState {
    /// H0 accepted: the first engine is not `elo1` stronger.
    H0,
    /// H1 accepted.
    H1,
    /// Keep playing.
    Continue,
}

impl Sprt {
    /// Checks the parameters.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err("SPRT needs elo0 < elo1".into());
        }
        for p in [alpha, beta] {
            if !(p > 0.0 && p < 0.5) {
                return Err("SPRT alpha and beta must be between 0 and 0.5".into());
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The acceptance bounds of the log-likelihood ratio: (lower, upper).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalised log-likelihood ratio of the results: for each
    /// hypothesis the trinomial (loss, draw, win) distribution closest to the
    /// observed frequencies with the hypothesis' expected score (the maximum
    /// likelihood estimate, found by bisection on its Lagrange multiplier, as
    /// fishtest's `LLR_logistic` does), then the log ratio of the two
    /// likelihoods of the games. Every count is at least 0.001, so that
    /// one-sided results (all wins) give a finite, small, per-game ratio
    /// instead of the normal approximation's infinity. 0 with no games.
    pub fn llr(&self, r: &Wld) -> f64 {
        if r.games() == 0 {
            return 0.0;
        }
        let counts = [r.losses, r.draws, r.wins].map(|x| (x as f64).max(1e-3));
        let total: f64 = counts.iter().sum();
        let freq = counts.map(|c| c / total);
        let p0 = mle_with_score(&freq, elo_to_score(self.elo0));
        let p1 = mle_with_score(&freq, elo_to_score(self.elo1));
        let per_game: f64 = (0..3).map(|i| freq[i] * (p1[i] / p0[i]).ln()).sum();
        r.games() as f64 * per_game
    }

    /// The decision so far.
    pub fn state(&self, r: &Wld) -> SprtState {
        let llr = self.llr(r);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::H1
        } else if llr <= lo {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }

    /// One line: the LLR, its bounds and the decision.
    pub fn report(&self, r: &Wld) -> String {
        let llr = self.llr(r);
        let (lo, hi) = self.bounds();
        let verdict = match self.state(r) {
            SprtState::H0 => "H0 accepted",
            SprtState::H1 => "H1 accepted",
            SprtState::Continue => "continue",
        };
        format!(
            "SPRT [{:.1}, {:.1}] alpha {} beta {}: LLR {:.2} ({:.1}%), bounds [{:.2}, {:.2}]: {}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            llr,
            100.0 * llr / if llr < 0.0 { -lo } else { hi },
            lo,
            hi,
            verdict
        )
    }
}

/// The (loss, draw, win) distribution with expected score `s` that maximises
/// the likelihood of frequencies `freq`: `p_i = freq_i / (1 + λ (x_i - s))`
/// with λ making the probabilities sum to 1.
fn mle_with_score(freq: &[f64; 3], s: f64) -> [f64; 3] {
    const X: [f64; 3] = [0.0, 0.5, 1.0];
    // Σ freq_i (x_i - s) / (1 + λ (x_i - s)) decreases in λ on the interval
    // where every denominator is positive: (-1 / (1 - s), 1 / s).
    let f = |lambda: f64| -> f64 {
        (0..3)
            .map(|i| freq[i] * (X[i] - s) / (1.0 + lambda * (X[i] - s)))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    let p = [0, 1, 2].map(|i| freq[i] / (1.0 + lambda * (X[i] - s)));
    let sum: f64 = p.iter().sum();
    p.map(|x| x / sum)
}

/// `35.2 +/- 60.1` for `r`; `n/a` when it has no games or a score of 0 % or
/// 100 % (whose Elo is infinite), and `35.2 +/- n/a` when only the error bar
/// is unbounded.
pub fn elo_text(r: &Wld) -> String {
    match r.elo() {
        Some((elo, margin)) if elo.is_finite() => {
            // `+ 0.0` turns -0.0 into 0.0.
            let margin = if margin.is_finite() {
                format!("{:.1}", margin + 0.0)
            } else {
                "n/a".into()
            };
            format!("{:.1} +/- {margin}", elo + 0.0)
        }
        _ => "n/a".into(),
    }
}

/// `Elo difference: 35.2 +/- 60.1, LOS: 87.3 %, draw ratio: 10.0 %` for `r`,
/// seen from the side whose results they are (see [`elo_text`] for `n/a`).
pub fn elo_line(r: &Wld) -> String {
    if r.games() == 0 {
        return "Elo difference: no games".into();
    }
    format!(
        "Elo difference: {}, LOS: {}, draw ratio: {:.1} %",
        elo_text(r),
        r.los()
            .map(|l| format!("{:.1} %", 100.0 * l))
            .unwrap_or_else(|| "n/a".into()),
        100.0 * r.draw_ratio().unwrap_or(0.0)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wld(wins: u32, losses: u32, draws: u32) -> Wld {
        Wld {
            wins,
            losses,
            draws,
        }
    }

    #[test]
    fn elo_of_even_and_uneven_scores() {
        let (e, m) = wld(10, 10, 0).elo().unwrap();
        assert!(e.abs() < 1e-9);
        // 20 decisive games split evenly: score 0.5 ± 1.96 * 0.5/sqrt(20).
        assert!((m - 2.0 * score_to_elo(0.5 + 1.96 * 0.5 / 20f64.sqrt()) / 2.0).abs() < 0.5);
        let (e, _) = wld(75, 25, 0).elo().unwrap();
        assert!((e - 190.85).abs() < 0.1, "{e}");
        assert_eq!(wld(3, 0, 0).elo().unwrap(), (f64::INFINITY, f64::INFINITY));
        assert_eq!(wld(1, 2, 0).elo().unwrap().1, f64::INFINITY);
    }

    #[test]
    fn infinite_elo_is_not_applicable() {
        for r in [wld(3, 0, 0), wld(0, 2, 0), wld(0, 5, 0)] {
            let line = elo_line(&r);
            assert!(line.starts_with("Elo difference: n/a, LOS: "), "{line}");
            assert!(!line.contains("inf"), "{line}");
        }
        assert_eq!(elo_text(&wld(1, 2, 0)), "-120.4 +/- n/a");
        assert_eq!(elo_text(&wld(0, 0, 0)), "n/a");
        assert_eq!(elo_text(&wld(75, 25, 0)), "190.8 +/- 81.2");
        assert_eq!(elo_line(&wld(0, 0, 0)), "Elo difference: no games");
    }

    #[test]
    fn los_matches_known_values() {
        assert!((wld(10, 10, 5).los().unwrap() - 0.5).abs() < 1e-9);
        // cutechess: 60 wins, 40 losses → LOS 97.7 %.
        assert!((wld(60, 40, 0).los().unwrap() - 0.977).abs() < 0.001);
        assert!(wld(0, 0, 4).los().is_none());
    }

    #[test]
    fn erf_is_accurate() {
        assert!((erf(0.5) - 0.520_499_877_8).abs() < 1e-6);
        assert!((erf(-1.0) + 0.842_700_792_9).abs() < 1e-6);
        assert!(erf(0.0).abs() < 1e-8);
    }

    #[test]
    fn sprt_llr_agrees_with_the_normal_approximation() {
        // With many balanced games the exact GLR and the normal
        // approximation (s1 - s0)(2 score - s0 - s1) / (2 var / n) agree.
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let r = wld(3000, 2800, 4200);
        let n = r.games() as f64;
        let score = r.score().unwrap();
        let (s0, s1) = (elo_to_score(0.0), elo_to_score(10.0));
        let approx = (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * r.variance(score) / n);
        let exact = s.llr(&r);
        assert!(
            (exact - approx).abs() < 0.05 * approx.abs(),
            "{exact} vs {approx}"
        );
        // One win against [0, 50]: log(p1(win) / p0(win)) is small.
        let one = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap().llr(&wld(1, 0, 0));
        assert!(one > 0.0 && one < 0.2, "{one}");
    }

    #[test]
    fn sprt_decides_clear_results() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (lo, hi) = s.bounds();
        assert!((hi - 2.944).abs() < 0.001 && (lo + 2.944).abs() < 0.001);
        assert_eq!(s.state(&wld(5, 5, 0)), SprtState::Continue);
        assert_eq!(s.state(&wld(900, 100, 0)), SprtState::H1);
        assert_eq!(s.state(&wld(100, 900, 0)), SprtState::H0);
        assert!(s.llr(&wld(0, 0, 0)) == 0.0);
        // One-sided results are decided too, but not after a handful.
        assert_eq!(s.state(&wld(3, 0, 0)), SprtState::Continue);
        assert_eq!(s.state(&wld(60, 0, 0)), SprtState::Continue);
        assert_eq!(s.state(&wld(200, 0, 0)), SprtState::H1);
        assert_eq!(s.state(&wld(0, 0, 1)), SprtState::Continue);
        assert_eq!(s.state(&wld(1, 0, 0)), SprtState::Continue);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(s.report(&wld(900, 100, 0)).contains("H1 accepted"));
    }
}
