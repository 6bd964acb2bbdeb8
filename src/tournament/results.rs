//! Finished games and the results file: one tab-separated line per game,
//! appended and flushed as each game ends, so an interrupted run can be
//! resumed from it.
//!
//! ```text
//! (fields separated by tabs)
//! # crosscut-match results v1
//! # game  first  second  black  white  result  reason  moves  seconds  detail
//! 1  A  B  A  B  B+  rules  37  4.210  connection
//! ```
//!
//! `first` and `second` are the engines that started as Black and White,
//! `black` and `white` those that held the colours at the end (they differ
//! after a swap), `result` is `B+`, `W+` or `0` in those final colours.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use crate::game::Color;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The rules decided it (a connection, a draw by repetition, the end
    /// after a pass).
    Rules,
    /// The side to move had no legal move and lost.
    NoMoves,
    /// A player resigned.
    Resign,
    /// The move limit was reached: a draw.
    MoveLimit,
    /// Forfeit: an illegal move.
    Illegal,
    /// Forfeit: an answer to `genmove` that is not a move of the game.
    Unparsable,
    /// Forfeit: a `?` answer to `genmove` or to `play` of a legal move.
    Refused,
    /// Forfeit: the time control plus margin was exceeded.
    Time,
    /// Forfeit: no answer at all (the engine was killed).
    Hang,
    /// Forfeit: the engine exited or closed its output.
    Crash,
    /// Forfeit: output that is not GTP.
    Protocol,
    /// Forfeit: the engine could not be started or set up for the game.
    Setup,
}

impl Reason {
    /// All reasons, in table order.
    pub const ALL: [Reason; 12] = [
        Reason::Rules,
        Reason::NoMoves,
        Reason::Resign,
        Reason::MoveLimit,
        Reason::Illegal,
        Reason::Unparsable,
        Reason::Refused,
        Reason::Time,
        Reason::Hang,
        Reason::Crash,
        Reason::Protocol,
        Reason::Setup,
    ];

    /// The word used in results files and tables.
    pub fn code(self) -> &'static str {
        match self {
            Reason::Rules => "rules",
            Reason::NoMoves => "no-moves",
            Reason::Resign => "resign",
            Reason::MoveLimit => "move-limit",
            Reason::Illegal => "illegal",
            Reason::Unparsable => "unparsable",
            Reason::Refused => "refused",
            Reason::Time => "time",
            Reason::Hang => "hang",
            Reason::Crash => "crash",
            Reason::Protocol => "protocol",
            Reason::Setup => "setup",
        }
    }

    /// Parses [`Reason::code`].
    pub fn from_code(code: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.code() == code)
    }

    /// Whether the loser forfeited (as opposed to losing by the rules,
    /// resigning, or a draw).
    pub fn is_forfeit(self) -> bool {
        !matches!(
            self,
            Reason::Rules | Reason::NoMoves | Reason::Resign | Reason::MoveLimit
        )
    }

    /// The SGF `RE` suffix for a win by this reason (`Resign`, `Time`,
    /// `Forfeit`), empty for a win by the rules.
    pub fn sgf_suffix(self) -> &'static str {
        match self {
            Reason::Rules | Reason::NoMoves | Reason::MoveLimit => "",
            Reason::Resign => "Resign",
            Reason::Time | Reason::Hang => "Time",
            _ => "Forfeit",
        }
    }
}

/// One finished game, engines given by index into the match's engine list.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The game's number in the match, from 1.
    pub index: u32,
    /// Engine that started as Black (moved first).
    pub first: usize,
    /// Engine that started as White.
    pub second: usize,
    /// Engine holding Black at the end (after any swap).
    pub black: usize,
    /// Engine holding White at the end.
    pub white: usize,
    /// The winning colour (final colours), `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
    /// Moves played, openings included.
    pub moves: usize,
    /// Wall-clock seconds the game took.
    pub seconds: f64,
    /// Details in words (the illegal move, the error).
    pub detail: String,
}

impl GameResult {
    /// The winning engine, `None` for a draw.
    pub fn winner_engine(&self) -> Option<usize> {
        self.winner.map(|c| match c {
            Color::Black => self.black,
            Color::White => self.white,
        })
    }

    /// The losing engine, `None` for a draw.
    pub fn loser_engine(&self) -> Option<usize> {
        self.winner.map(|c| match c {
            Color::Black => self.white,
            Color::White => self.black,
        })
    }

    /// `B+`, `W+` or `0`.
    pub fn result_code(&self) -> String {
        match self.winner {
            Some(c) => format!("{}+", c.letter()),
            None => "0".into(),
        }
    }

    /// The colour `engine` held at the end, if it played.
    pub fn color_of(&self, engine: usize) -> Option<Color> {
        if self.black == engine {
            Some(Color::Black)
        } else if self.white == engine {
            Some(Color::White)
        } else {
            None
        }
    }

    fn to_line(&self, names: &[String]) -> String {
        let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.3}\t{}\n",
            self.index,
            names[self.first],
            names[self.second],
            names[self.black],
            names[self.white],
            self.result_code(),
            self.reason.code(),
            self.moves,
            self.seconds,
            clean(&self.detail)
        )
    }

    fn from_line(line: &str, names: &[String]) -> Result<GameResult, String> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 9 {
            return Err("too few fields".into());
        }
        let engine = |n: &str| {
            names
                .iter()
                .position(|x| x == n)
                .ok_or_else(|| format!("engine '{n}' is not in this match"))
        };
        let winner = match f[5] {
            "B+" => Some(Color::Black),
            "W+" => Some(Color::White),
            "0" => None,
            other => return Err(format!("bad result '{other}'")),
        };
        Ok(GameResult {
            index: f[0].parse().map_err(|_| "bad game number")?,
            first: engine(f[1])?,
            second: engine(f[2])?,
            black: engine(f[3])?,
            white: engine(f[4])?,
            winner,
            reason: Reason::from_code(f[6]).ok_or_else(|| format!("bad reason '{}'", f[6]))?,
            moves: f[7].parse().map_err(|_| "bad move count")?,
            seconds: f[8].parse().map_err(|_| "bad seconds")?,
            detail: f.get(9).unwrap_or(&"").to_string(),
        })
    }
}

const HEADER: &str = "# crosscut-match results v1\n\
# game\tfirst\tsecond\tblack\twhite\tresult\treason\tmoves\tseconds\tdetail\n";

/// The results file, open for appending.
pub struct ResultsFile {
    file: File,
    names: Vec<String>,
}

impl ResultsFile {
    /// Creates `path` (refusing to overwrite a file with games unless
    /// `resume`), or with `resume` reads the games already in it. Returns the
    /// file and those games.
    pub fn open(
        path: &Path,
        names: &[String],
        resume: bool,
    ) -> Result<(ResultsFile, Vec<GameResult>), String> {
        let mut done = Vec::new();
        let existing = std::fs::read_to_string(path).ok();
        let has_games = existing.as_deref().is_some_and(|t| {
            t.lines()
                .any(|l| !l.trim().is_empty() && !l.starts_with('#'))
        });
        if has_games && !resume {
            return Err(format!(
                "{} already holds games: pass --resume to continue that run, or choose another --out",
                path.display()
            ));
        }
        if let Some(text) = existing.as_deref().filter(|_| resume) {
            for (n, line) in text.lines().enumerate() {
                if line.trim().is_empty() || line.starts_with('#') {
                    continue;
                }
                match GameResult::from_line(line, names) {
                    Ok(r) => done.push(r),
                    // A line cut short by an interruption is played again.
                    Err(e) if n + 1 == text.lines().count() && !text.ends_with('\n') => {
                        log::warn!(
                            "ignoring the unfinished last line of {}: {e}",
                            path.display()
                        );
                    }
                    Err(e) => return Err(format!("{} line {}: {e}", path.display(), n + 1)),
                }
            }
        }
        let fresh = existing.as_deref().is_none_or(|t| t.trim().is_empty());
        let mut file = File::options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if existing
            .as_deref()
            .is_some_and(|t| !t.is_empty() && !t.ends_with('\n'))
        {
            // Finish a line cut short, so the next game starts its own.
            file.write_all(b"\n").map_err(|e| e.to_string())?;
        }
        if fresh {
            file.write_all(HEADER.as_bytes())
                .map_err(|e| e.to_string())?;
        }
        Ok((
            ResultsFile {
                file,
                names: names.to_vec(),
            },
            done,
        ))
    }

    /// Appends a game and flushes it to disk.
    pub fn append(&mut self, r: &GameResult) -> Result<(), String> {
        self.file
            .write_all(r.to_line(&self.names).as_bytes())
            .and_then(|_| self.file.sync_data())
            .map_err(|e| format!("writing results: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_resume() {
        let names = vec!["A".to_string(), "B".to_string()];
        let r = GameResult {
            index: 3,
            first: 0,
            second: 1,
            black: 1,
            white: 0,
            winner: Some(Color::White),
            reason: Reason::Illegal,
            moves: 12,
            seconds: 1.5,
            detail: "B played\tZ99".into(),
        };
        let line = r.to_line(&names);
        let back = GameResult::from_line(line.trim_end(), &names).unwrap();
        assert_eq!(back.detail, "B played Z99");
        assert_eq!(back.winner_engine(), Some(0));
        assert_eq!(back.loser_engine(), Some(1));

        let dir = std::env::temp_dir().join(format!("crosscut-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("results.tsv");
        let _ = std::fs::remove_file(&path);
        let (mut f, done) = ResultsFile::open(&path, &names, false).unwrap();
        assert!(done.is_empty());
        f.append(&r).unwrap();
        drop(f);
        assert!(ResultsFile::open(&path, &names, false).is_err());
        let (_, done) = ResultsFile::open(&path, &names, true).unwrap();
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].index, 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
