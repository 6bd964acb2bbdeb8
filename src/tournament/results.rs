//! Finished games and the results file: one tab-separated line per game,
//! appended (in one write) and flushed as each game ends, so an interrupted
//! run can be resumed from it. A line without its end of line was cut short
//! by the interruption: resuming removes it from the file (and plays that
//! game again), so no torn line survives.
//!
//! ```text
//! (fields separated by tabs)
//! # crosscut-match results v1
//! # game  first  second  black  white  result  reason  moves  seconds  detail
//! 1  A  B  A  B  B+  rules  37  4.210  connection
//! ```
//!
//! A game that appears on more than one line (two runners wrote to the same
//! folder) is not trusted: resuming removes all its lines, keeps them in
//! `results.tsv.removed`, says so, and plays the game again.
//!
//! `first` and `second` are the engines that started as Black and White,
//! `black` and `white` those that held the colours at the end (they differ
//! after a swap), `result` is `B+`, `W+` or `0` in those final colours.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

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
    /// The same position (same hash, side to move included) occurred for
    /// the third time, openings included: a draw by the referee, in a game
    /// whose rules did not end it (Onyx, where captures let positions
    /// recur).
    Repetition,
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
    pub const ALL: [Reason; 13] = [
        Reason::Rules,
        Reason::NoMoves,
        Reason::Resign,
        Reason::MoveLimit,
        Reason::Repetition,
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
            Reason::Repetition => "repetition",
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
            Reason::Rules
                | Reason::NoMoves
                | Reason::Resign
                | Reason::MoveLimit
                | Reason::Repetition
        )
    }

    /// The SGF `RE` suffix for a win by this reason (`Resign`, `Time`,
    /// `Forfeit`), empty for a win by the rules.
    pub fn sgf_suffix(self) -> &'static str {
        match self {
            Reason::Rules | Reason::NoMoves | Reason::MoveLimit | Reason::Repetition => "",
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

    /// Reads a result line of the results file, engines named as in
    /// `names`.
    pub fn from_line(line: &str, names: &[String]) -> Result<GameResult, String> {
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
    path: PathBuf,
    names: Vec<String>,
}

impl ResultsFile {
    /// Creates `path` (refusing to overwrite a file with games unless
    /// `resume`), or with `resume` reads the games already in it, first
    /// cutting the file back to its last complete line (a line torn by an
    /// interruption: its game is played again) and removing every line of a
    /// game that appears more than once (see [`ResultsFile::forget`]).
    /// Returns the file and the games kept.
    pub fn open(
        path: &Path,
        names: &[String],
        resume: bool,
    ) -> Result<(ResultsFile, Vec<GameResult>), String> {
        let mut done = Vec::new();
        let existing = match std::fs::read(path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        // Only complete lines count; what follows the last end of line (if
        // anything) is torn.
        let complete_len = existing.as_deref().map_or(0, |b| {
            b.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1)
        });
        let torn = existing.as_deref().map_or(&[][..], |b| &b[complete_len..]);
        let text = match existing.as_deref() {
            Some(b) => std::str::from_utf8(&b[..complete_len])
                .map_err(|e| format!("{}: not text: {e}", path.display()))?,
            None => "",
        };
        let is_game = |l: &str| !l.trim().is_empty() && !l.starts_with('#');
        let has_games = text.lines().any(is_game) || !(torn.is_empty() || torn.starts_with(b"#"));
        if has_games && !resume {
            return Err(format!(
                "{} already holds games: pass --resume to continue that run, or choose another --out",
                path.display()
            ));
        }
        for (n, line) in text.lines().enumerate() {
            if is_game(line) {
                done.push(
                    GameResult::from_line(line, names)
                        .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?,
                );
            }
        }
        let mut file = File::options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if !torn.is_empty() {
            log::warn!(
                "{}: removing the unfinished last line (line {}, {} bytes: '{}'); its game is played again",
                path.display(),
                text.lines().count() + 1,
                torn.len(),
                String::from_utf8_lossy(torn).escape_debug()
            );
            file.set_len(complete_len as u64)
                .and_then(|_| file.sync_data())
                .map_err(|e| format!("cannot cut {}: {e}", path.display()))?;
        }
        if text.trim().is_empty() {
            file.write_all(HEADER.as_bytes())
                .map_err(|e| e.to_string())?;
        }
        let mut results = ResultsFile {
            file,
            path: path.to_path_buf(),
            names: names.to_vec(),
        };
        let mut count: BTreeMap<u32, usize> = BTreeMap::new();
        for r in &done {
            *count.entry(r.index).or_default() += 1;
        }
        let doubled: HashSet<u32> = count
            .iter()
            .filter(|&(_, &n)| n > 1)
            .map(|(&i, _)| i)
            .collect();
        if !doubled.is_empty() {
            let mut list: Vec<u32> = doubled.iter().copied().collect();
            list.sort_unstable();
            let list: Vec<String> = list.iter().map(u32::to_string).collect();
            log::warn!(
                "{}: game(s) {} appear on more than one line (two runs wrote to this folder?); \
                 repaired: all their lines are removed (kept in {}) and they are played again",
                path.display(),
                list.join(", "),
                results.removed_path().display()
            );
            results.forget(&doubled)?;
            done.retain(|r| !doubled.contains(&r.index));
        }
        Ok((results, done))
    }

    /// Where [`ResultsFile::forget`] keeps the lines it removes.
    pub fn removed_path(&self) -> PathBuf {
        let mut name = self.path.as_os_str().to_owned();
        name.push(".removed");
        PathBuf::from(name)
    }

    /// Removes every line of the games in `games` from the file (rewritten
    /// whole through a temporary file and a rename), appending those lines
    /// to [`ResultsFile::removed_path`] so nothing is lost. The games can
    /// then be played again.
    pub fn forget(&mut self, games: &HashSet<u32>) -> Result<(), String> {
        let err = |e: std::io::Error| format!("rewriting {}: {e}", self.path.display());
        let text = std::fs::read_to_string(&self.path).map_err(err)?;
        let index = |l: &str| l.split('\t').next().and_then(|f| f.parse::<u32>().ok());
        let (mut kept, mut removed) = (String::new(), String::new());
        for line in text.split_inclusive('\n') {
            let game = !line.starts_with('#') && index(line).is_some_and(|i| games.contains(&i));
            if game {
                removed.push_str(line);
            } else {
                kept.push_str(line);
            }
        }
        if removed.is_empty() {
            return Ok(());
        }
        let mut extra = File::options()
            .create(true)
            .append(true)
            .open(self.removed_path())
            .map_err(err)?;
        extra
            .write_all(removed.as_bytes())
            .and_then(|_| extra.sync_data())
            .map_err(err)?;
        let mut tmp = self.path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        {
            let mut f = File::create(&tmp).map_err(err)?;
            f.write_all(kept.as_bytes())
                .and_then(|_| f.sync_data())
                .map_err(err)?;
        }
        std::fs::rename(&tmp, &self.path).map_err(err)?;
        self.file = File::options().append(true).open(&self.path).map_err(err)?;
        Ok(())
    }

    /// Appends a game and flushes it to disk. The line goes out in one
    /// write, so an interruption leaves at most one torn line, the last.
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
    fn every_reason_reads_back_from_its_code() {
        for r in Reason::ALL {
            assert_eq!(Reason::from_code(r.code()), Some(r));
        }
        let mut codes: Vec<_> = Reason::ALL.iter().map(|r| r.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), Reason::ALL.len());
        assert_eq!(Reason::from_code("repetition"), Some(Reason::Repetition));
        assert!(!Reason::Repetition.is_forfeit());
        assert_eq!(Reason::Repetition.sgf_suffix(), "");
    }

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

    #[test]
    fn a_torn_last_line_is_cut_off_on_resume() {
        let names = vec!["Aé".to_string(), "B".to_string()];
        let r = |index| GameResult {
            index,
            first: 0,
            second: 1,
            black: 0,
            white: 1,
            winner: None,
            reason: Reason::MoveLimit,
            moves: 8,
            seconds: 0.25,
            detail: "move limit 8 reached".into(),
        };
        let dir = std::env::temp_dir().join(format!("crosscut-torn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("results.tsv");
        let _ = std::fs::remove_file(&path);
        let (mut f, _) = ResultsFile::open(&path, &names, false).unwrap();
        f.append(&r(1)).unwrap();
        drop(f);
        let whole = std::fs::read(&path).unwrap();
        // Torn inside the two bytes of 'é', and torn after enough fields to
        // parse: both are removed.
        let line = r(2).to_line(&names).into_bytes();
        for cut in [3, line.len() - 3] {
            let mut torn = whole.clone();
            torn.extend_from_slice(&line[..cut]);
            std::fs::write(&path, &torn).unwrap();
            // Refused without --resume: the file holds a game.
            assert!(ResultsFile::open(&path, &names, false).is_err());
            for _ in 0..2 {
                let (_, done) = ResultsFile::open(&path, &names, true).unwrap();
                assert_eq!(done.iter().map(|g| g.index).collect::<Vec<_>>(), [1]);
                assert_eq!(std::fs::read(&path).unwrap(), whole, "cut {cut}");
            }
            let (mut f, _) = ResultsFile::open(&path, &names, true).unwrap();
            f.append(&r(2)).unwrap();
            let (_, done) = ResultsFile::open(&path, &names, true).unwrap();
            assert_eq!(done.iter().map(|g| g.index).collect::<Vec<_>>(), [1, 2]);
            std::fs::write(&path, &whole).unwrap();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
