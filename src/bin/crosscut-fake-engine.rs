//! A deliberately simple, optionally misbehaving engine for testing
//! controllers such as `crosscut-match`: it plays random legal moves (refereed
//! by the crosscut library, so it knows every game) and, from its `--after`th
//! `genmove` of a game on, misbehaves as `--mode` says.
//!
//! See [`USAGE`] (`crosscut-fake-engine --help`).

use std::io::{BufRead, Write};

use crosscut::game::{Color, splitmix64};
use crosscut::games;
use crosscut::session::{Options, Rules};

/// The usage text.
const USAGE: &str = "\
crosscut-fake-engine: a random, optionally misbehaving engine for testing controllers

usage: crosscut-fake-engine [--mode MODE] [--after N] [--seed S] [--delay SECONDS]
                            [--script MOVES]

  --mode MODE      how to misbehave from the --after'th genmove of a game on
                   (default random)
  --after N        the first genmove of a game that misbehaves (default 1)
  --seed S         random seed (default 1)
  --delay SECONDS  the delay of slow and drip (default 1)
  --script MOVES   the game of --mode script (moves separated by spaces or commas)
  -V, --version    the version
  -h, --help       this text

Modes: random (behaves), illegal (plays an occupied point), garbage (answers a
word that is no move), noise (writes a line that is not GTP), refuse (answers
? to genmove), resign, crash (exits), hang (never answers), slow (sleeps
--delay seconds, then answers), close (closes its stdout, lives on --delay
seconds, then exits), swap (swaps whenever it can, otherwise random),
flood (answers '=' then prints '=' lines without end, as fast as it can), drip
(the same, one line every --delay seconds), script (answers the move of
--script with the game's move number, openings included: two fakes given the
same script replay that game; past its end, random).
";

/// Every `--mode`.
const MODES: [&str; 14] = [
    "random", "illegal", "garbage", "noise", "refuse", "resign", "crash", "hang", "slow", "close",
    "swap", "flood", "drip", "script",
];

struct Fake {
    mode: String,
    after: u32,
    seed: u64,
    delay: f64,
    /// The game `--mode script` plays, move by move.
    script: Vec<String>,
    session: Option<Box<dyn Rules>>,
    /// The game's options (`start`).
    options: Options,
    genmoves: u32,
}

impl Fake {
    fn session(&mut self) -> Result<&mut Box<dyn Rules>, String> {
        self.session
            .as_mut()
            .ok_or_else(|| "no game selected".to_string())
    }

    fn genmove(&mut self, color: Color) -> Option<Result<String, String>> {
        self.genmoves += 1;
        let misbehave = self.genmoves >= self.after;
        let mode = if misbehave {
            self.mode.clone()
        } else {
            "random".into()
        };
        let mut state = self.seed;
        let r = splitmix64(&mut state);
        self.seed = state;
        let delay = self.delay;
        let scripted = self
            .session
            .as_ref()
            .and_then(|s| self.script.get(s.moves_played()).cloned());
        let s = match self.session() {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        };
        if mode == "script"
            && let Some(mv) = scripted
        {
            // Answered as written, legal or not: the controller judges.
            let _ = s.play(color, &mv);
            return Some(Ok(mv));
        }
        let legal = s.legal_moves_for(color);
        let random = |legal: &[String]| legal[(r % legal.len().max(1) as u64) as usize].clone();
        let mv = match mode.as_str() {
            "illegal" => {
                // An occupied point (the last move), or swap at the first move.
                let h = s.history();
                return Some(Ok(h.last().cloned().unwrap_or_else(|| "swap".into())));
            }
            "garbage" => return Some(Ok("@@garbage@@".into())),
            "noise" => {
                println!("this is not GTP");
                let _ = std::io::stdout().flush();
                return Some(Ok(random(&legal)));
            }
            "refuse" => return Some(Err("I refuse".into())),
            "resign" => return Some(Ok("resign".into())),
            "crash" => std::process::exit(3),
            "close" => {
                let _ = std::io::stdout().flush();
                close_stdout();
                std::thread::sleep(std::time::Duration::from_secs_f64(delay));
                std::process::exit(0);
            }
            "hang" => loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            },
            "slow" => {
                std::thread::sleep(std::time::Duration::from_secs_f64(delay));
                random(&legal)
            }
            "flood" | "drip" => {
                // Never returns: lines without the empty line that would end
                // the answer, until the controller kills us (or stops
                // reading, and the write fails).
                let pause = (mode == "drip").then(|| std::time::Duration::from_secs_f64(delay));
                let mut out = std::io::stdout().lock();
                loop {
                    if out.write_all(b"=\n").is_err() {
                        std::process::exit(4);
                    }
                    if let Some(p) = pause {
                        let _ = out.flush();
                        std::thread::sleep(p);
                    }
                }
            }
            "swap" if legal.iter().any(|m| m == "swap") => "swap".into(),
            _ => {
                if legal.is_empty() {
                    return Some(Ok("resign".into()));
                }
                // Prefer real moves to swapping, so games are not all swaps.
                let moves: Vec<String> = legal.iter().filter(|m| *m != "swap").cloned().collect();
                if moves.is_empty() {
                    random(&legal)
                } else {
                    random(&moves)
                }
            }
        };
        Some(match s.play(color, &mv) {
            Ok(()) => Ok(mv),
            Err(e) => Err(e.to_string()),
        })
    }

    fn handle(&mut self, cmd: &str, args: &[&str]) -> Option<Result<String, String>> {
        let r = match (cmd, args) {
            ("protocol_version", _) => Ok("2".into()),
            ("name", _) => Ok("crosscut-fake-engine".into()),
            ("version", _) => Ok(self.mode.clone()),
            ("quit", _) => Ok(String::new()),
            ("game", [g]) => games::find(g)
                .and_then(|entry| (entry.new_rules)(entry.default_size, &Vec::new()))
                .map(|s| {
                    self.session = Some(s);
                    self.options.clear();
                })
                .map(|_| String::new()),
            ("boardsize", [n]) => match n.parse::<usize>() {
                Ok(n) => {
                    let options = self.options.clone();
                    self.session()
                        .and_then(|s| s.renew(n, &options))
                        .map(|_| String::new())
                }
                Err(_) => Err("boardsize needs a number".into()),
            },
            ("clear_board", _) => {
                self.genmoves = 0;
                let options = self.options.clone();
                self.session()
                    .and_then(|s| {
                        let n = s.size();
                        s.renew(n, &options)
                    })
                    .map(|_| String::new())
            }
            ("start", [w]) => {
                let options = vec![("start".to_string(), w.to_ascii_lowercase())];
                let renewed = self.session().and_then(|s| {
                    let n = s.size();
                    games::find(s.name())?.check_option(n, "start", &options[0].1)?;
                    s.renew(n, &options)
                });
                renewed.map(|_| {
                    self.options = options;
                    String::new()
                })
            }
            ("play", [c, m]) => match Color::parse(c) {
                Some(c) => self
                    .session()
                    .and_then(|s| s.play(c, m).map_err(|e| e.to_string()))
                    .map(|_| String::new()),
                None => Err("bad colour".into()),
            },
            ("genmove", [c]) => match Color::parse(c) {
                Some(c) => return self.genmove(c),
                None => Err("bad colour".into()),
            },
            ("time_settings", _) | ("time_left", _) | ("param", _) => Ok(String::new()),
            _ => Err(format!("unknown command {cmd}")),
        };
        Some(r)
    }
}

/// Closes the process's standard output for good (file descriptor 1), so
/// that its reader sees the end of it while the process lives on.
fn close_stdout() {
    #[cfg(unix)]
    // SAFETY: descriptor 1 is closed once, just before the process sleeps
    // and exits; nothing writes to stdout after this.
    unsafe {
        libc::close(1);
    }
}

/// Reads the options into `fake`: `Err(None)` asks for the usage,
/// `Err(Some(message))` is a mistake.
fn parse_args(args: &[String], fake: &mut Fake) -> Result<(), Option<String>> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "-h" || a == "--help" {
            return Err(None);
        }
        if a == "-V" || a == "--version" {
            println!("crosscut-fake-engine {}", env!("CARGO_PKG_VERSION"));
            std::process::exit(0);
        }
        let mut value = || it.next().ok_or_else(|| Some(format!("{a} needs a value")));
        let bad = |v: &str| Some(format!("bad value '{v}' for {a}"));
        match a.as_str() {
            "--mode" => {
                let v = value()?;
                if !MODES.contains(&v.as_str()) {
                    return Err(Some(format!("unknown mode '{v}'")));
                }
                fake.mode = v.clone();
            }
            "--after" => {
                let v = value()?;
                fake.after = v.parse().map_err(|_| bad(v))?;
            }
            "--seed" => {
                let v = value()?;
                fake.seed = v.parse().map_err(|_| bad(v))?;
            }
            "--delay" => {
                let v = value()?;
                fake.delay = v
                    .parse()
                    .ok()
                    .filter(|d: &f64| d.is_finite() && *d >= 0.0)
                    .ok_or_else(|| bad(v))?;
            }
            "--script" => {
                let v = value()?;
                fake.script = v
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|m| !m.is_empty())
                    .map(str::to_string)
                    .collect();
            }
            other => return Err(Some(format!("unknown option '{other}'"))),
        }
    }
    if fake.mode == "script" && fake.script.is_empty() {
        return Err(Some("--mode script needs --script MOVES".into()));
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut fake = Fake {
        mode: "random".into(),
        after: 1,
        seed: 1,
        delay: 1.0,
        script: Vec::new(),
        session: None,
        options: Vec::new(),
        genmoves: 0,
    };
    if let Err(e) = parse_args(&args, &mut fake) {
        match e {
            None => {
                print!("{USAGE}");
                return;
            }
            Some(e) => {
                let e = anyhow::Error::msg(e).context("bad command line");
                // Best effort: `eprint!` would panic on a closed stderr.
                let _ = write!(std::io::stderr(), "crosscut-fake-engine: {e:#}\n\n{USAGE}");
                std::process::exit(2);
            }
        }
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = words.split_first() else {
            continue;
        };
        let answer = fake.handle(cmd, rest);
        let mut out = std::io::stdout().lock();
        match answer {
            Some(Ok(text)) => {
                let _ = write!(out, "= {text}\n\n");
            }
            Some(Err(e)) => {
                let _ = write!(out, "? {e}\n\n");
            }
            None => {}
        }
        let _ = out.flush();
        if cmd == "quit" {
            break;
        }
    }
}
