//! Clocks and the time budget of one move (`time_settings`, `time_left`).

use std::time::Duration;

use crate::game::Color;

/// Time kept back from every budget for starting the search and writing the
/// answer.
const SAFETY: Duration = Duration::from_millis(30);

/// Share of a byo-yomi period planned for its last stone (the rest, and
/// [`SAFETY`], is the reserve).
const LAST_STONE_SHARE: f64 = 0.95;

/// In absolute time, each move plans the clock's time left divided by
/// this.
const ABSOLUTE_SHARE: f64 = 20.0;

/// Share of an observed increment that each move plans to spend.
const INCREMENT_SHARE: f64 = 0.8;

/// The time one move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// From the command's arrival to the answer.
    pub time: Duration,
    /// Whether time the move leaves unused is kept for later moves (main
    /// time, or a byo-yomi period with stones to play after this one).
    /// When it is not (a time per move without a clock, a period's last
    /// stone), the search goes on to the deadline instead of stopping
    /// before an iteration it might not finish.
    pub kept: bool,
}

/// A colour's clock as the controller last reported it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Left {
    /// Seconds left in the current period (main time, or byo-yomi period).
    seconds: f64,
    /// Stones left to play in the byo-yomi period; 0 while in main time.
    stones: u32,
}

/// The time control of a game and what each side has left.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    /// `time_settings`: main time, byo-yomi time, byo-yomi stones.
    settings: Option<(f64, f64, u32)>,
    left: [Option<Left>; 2],
    /// What each side's main time should show after its last `genmove`
    /// if the controller adds nothing: the next `time_left` tells the
    /// increment.
    expected: [Option<f64>; 2],
    /// The time the controller adds to each side's main time after its
    /// move (a Fischer increment, which GTP's `time_settings` cannot
    /// state), as last observed.
    increment: [f64; 2],
}

impl Clock {
    /// `time_settings MAIN BYO STONES` (seconds, seconds, count). GTP's
    /// conventions: BYO > 0 with STONES = 0 means no time limit; BYO = 0
    /// means absolute time.
    pub fn set(&mut self, main: f64, byo: f64, stones: u32) -> Result<(), String> {
        for v in [main, byo] {
            if !v.is_finite() || !(0.0..=1.0e7).contains(&v) {
                return Err("times must be from 0 to 10000000 seconds".into());
            }
        }
        if stones > 100_000 {
            return Err("byo-yomi stones must be at most 100000".into());
        }
        self.settings = Some((main, byo, stones));
        self.reset_game();
        Ok(())
    }

    /// `time_left COLOR SECONDS STONES`.
    pub fn set_left(&mut self, color: Color, seconds: f64, stones: u32) -> Result<(), String> {
        if !seconds.is_finite() || !(-1.0e7..=1.0e7).contains(&seconds) {
            return Err("time left must be a number of seconds".into());
        }
        if stones > 100_000 {
            return Err("stones must be at most 100000".into());
        }
        let seconds = seconds.max(0.0);
        let c = color.index();
        // The first report after a move in main time: more than the move
        // left is the increment.
        if let Some(expected) = self.expected[c].take()
            && stones == 0
        {
            self.increment[c] = (seconds - expected).max(0.0);
        }
        self.left[c] = Some(Left { seconds, stones });
        Ok(())
    }

    /// Forgets what was left and the increments seen (a new game); the
    /// settings stay.
    pub fn reset_game(&mut self) {
        self.left = [None; 2];
        self.expected = [None; 2];
        self.increment = [0.0; 2];
    }

    /// Whether a time limit is in force.
    pub fn limited(&self) -> bool {
        matches!(self.settings, Some((_, byo, stones)) if !(byo > 0.0 && stones == 0))
    }

    /// How long the next move for `color` may take: from the clock when one is
    /// set, else `move_time` seconds (0 = no limit, `None`).
    pub fn budget(&self, color: Color, move_time: f64) -> Option<Budget> {
        let (seconds, kept) = if self.limited() {
            let (main, byo, stones) = self.settings.expect("limited implies settings");
            let left = self.left[color.index()].unwrap_or(Left {
                seconds: if main > 0.0 { main } else { byo },
                stones: if main > 0.0 { 0 } else { stones },
            });
            let (planned, kept) = if left.stones == 1 {
                // The period's last stone: the period starts afresh after
                // it, so time not used now is lost.
                (left.seconds * LAST_STONE_SHARE, false)
            } else if left.stones > 0 {
                // Byo-yomi: spread the period over its stones, keep a
                // reserve; what a stone leaves goes to the next ones.
                (left.seconds / left.stones as f64 * 0.8, true)
            } else if byo > 0.0 {
                // Main time with byo-yomi to follow: main time over ~20
                // moves, plus most of a byo-yomi move.
                (left.seconds / 20.0 + byo / stones.max(1) as f64 * 0.7, true)
            } else {
                // Absolute time: a share of the clock, plus most of the
                // increment the controller adds after each move; at most
                // half the clock.
                let inc = self.increment[color.index()];
                let planned = left.seconds / ABSOLUTE_SHARE + inc * INCREMENT_SHARE;
                (planned.min(left.seconds / 2.0), true)
            };
            let planned = if move_time > 0.0 {
                planned.min(move_time)
            } else {
                planned
            };
            (planned, kept)
        } else if move_time > 0.0 {
            // A time per move and no clock: nothing carries over.
            (move_time, false)
        } else {
            return None;
        };
        let d = Duration::from_secs_f64(seconds.max(0.0));
        Some(Budget {
            time: d.saturating_sub(SAFETY).max(Duration::from_millis(5)),
            kept,
        })
    }

    /// Records time spent by `color`'s move: its clock runs down (for
    /// controllers that do not report clocks), and in main time the next
    /// report tells the increment.
    pub fn spent(&mut self, color: Color, spent: Duration) {
        let c = color.index();
        if let Some(l) = self.left[c].as_mut() {
            l.seconds = (l.seconds - spent.as_secs_f64()).max(0.0);
            self.expected[c] = (l.stones == 0).then_some(l.seconds);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_clock_uses_move_time() {
        let c = Clock::default();
        assert_eq!(c.budget(Color::Black, 0.0), None);
        let b = c.budget(Color::Black, 1.0).unwrap();
        assert!(b.time < Duration::from_secs(1) && b.time > Duration::from_millis(900));
        // Nothing carries over to the next move.
        assert!(!b.kept);
    }

    #[test]
    fn absolute_time_is_spread() {
        let mut c = Clock::default();
        c.set(60.0, 0.0, 0).unwrap();
        c.set_left(Color::White, 3.0, 0).unwrap();
        let b = c.budget(Color::White, 0.0).unwrap();
        // A twentieth of the clock, less the margin.
        assert!(b.time <= Duration::from_millis(150) && b.time >= Duration::from_millis(100));
        assert!(b.kept);
        // A time per move below the clock's share: the rest stays on it.
        c.set_left(Color::White, 300.0, 0).unwrap();
        let b = c.budget(Color::White, 1.0).unwrap();
        assert!(b.time < Duration::from_secs(1) && b.kept);
    }

    #[test]
    fn byo_yomi_period() {
        let mut c = Clock::default();
        c.set(0.0, 10.0, 5).unwrap();
        c.set_left(Color::Black, 10.0, 5).unwrap();
        let b = c.budget(Color::Black, 0.0).unwrap();
        assert!(b.time <= Duration::from_secs(2) && b.time >= Duration::from_millis(1000));
        // What a stone leaves goes to the period's next stones.
        assert!(b.kept);
    }

    #[test]
    fn last_stone_of_a_period_takes_most_of_it() {
        let mut c = Clock::default();
        // A fixed time per move, as tournament runners send it.
        c.set(0.0, 1.0, 1).unwrap();
        let b = c.budget(Color::Black, 0.0).unwrap();
        assert!(b.time >= Duration::from_millis(900) && b.time < Duration::from_secs(1));
        assert!(!b.kept);
        // The same when the controller reports the last stone of a longer
        // period.
        c.set(0.0, 10.0, 5).unwrap();
        c.set_left(Color::White, 2.0, 1).unwrap();
        let b = c.budget(Color::White, 0.0).unwrap();
        assert!(b.time >= Duration::from_millis(1800) && b.time < Duration::from_secs(2));
        assert!(!b.kept);
        // A time per move still caps it.
        let b = c.budget(Color::White, 0.5).unwrap();
        assert!(b.time < Duration::from_millis(500) && !b.kept);
    }

    #[test]
    fn an_increment_is_learnt_from_the_clock_reports() {
        let mut c = Clock::default();
        c.set(10.0, 0.0, 0).unwrap();
        c.set_left(Color::Black, 10.0, 0).unwrap();
        let before = c.budget(Color::Black, 0.0).unwrap().time;
        // The controller adds 2 s after a move of 1 s.
        c.spent(Color::Black, Duration::from_secs(1));
        // A report for the other colour tells nothing of Black's.
        c.set_left(Color::White, 10.0, 0).unwrap();
        c.set_left(Color::Black, 11.0, 0).unwrap();
        let with = c.budget(Color::Black, 0.0).unwrap().time;
        let share = Duration::from_secs_f64(11.0 / ABSOLUTE_SHARE - 10.0 / ABSOLUTE_SHARE);
        assert!(
            with > before + share + Duration::from_millis(1500),
            "{before:?} {with:?}"
        );
        // A second report without a move in between changes nothing.
        c.set_left(Color::Black, 11.0, 0).unwrap();
        assert_eq!(c.budget(Color::Black, 0.0).unwrap().time, with);
        // Without an increment the plan is the clock's share.
        c.spent(Color::Black, Duration::from_secs(1));
        c.set_left(Color::Black, 10.0, 0).unwrap();
        assert_eq!(c.budget(Color::Black, 0.0).unwrap().time, before);
        // Never more than half the clock, whatever the increment (here
        // 5 s after a move that left 1 s).
        c.spent(Color::Black, Duration::from_secs(9));
        c.set_left(Color::Black, 6.0, 0).unwrap();
        let b = c.budget(Color::Black, 0.0).unwrap().time;
        assert!(
            b <= Duration::from_secs(3) && b > Duration::from_millis(2900),
            "{b:?}"
        );
        // A new game forgets it.
        c.reset_game();
        c.set_left(Color::Black, 10.0, 0).unwrap();
        assert_eq!(c.budget(Color::Black, 0.0).unwrap().time, before);
    }

    #[test]
    fn no_time_limit_convention() {
        let mut c = Clock::default();
        c.set(0.0, 1.0, 0).unwrap();
        assert!(!c.limited());
    }
}
