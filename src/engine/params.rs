//! The engine's parameters (`param`), declared once: each row of
//! [`PARAMS`] gives a parameter's name, its [`Kind`] (the values it takes:
//! how they are read, checked and written in protocol.md's table), its
//! documentation and how to read and set it. `param`, its listing and its
//! errors come from the table, and a test checks protocol.md's table
//! against it.

use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::Engine;
use crate::search::Player;
use crate::search::alphabeta::MAX_MULTIPV;
use crate::search::tt::check_table_size;

/// Largest table `param hash` and `param solve_hash` accept, in megabytes
/// (a smaller size may still be refused: see [`Kind::Megabytes`]).
pub const MAX_HASH_MB: usize = 16384;

/// Engine parameters settable with `param`.
#[derive(Clone, Debug)]
pub struct Params {
    /// Deepest iteration of the searcher (plies).
    pub max_depth: u32,
    /// Seconds per move when no clock is set; 0 means no time limit besides
    /// `max_depth`.
    pub move_time: f64,
    /// Seed of the engine's random choices.
    pub seed: u64,
    /// Which player `genmove` uses.
    pub player: Player,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// How many of the best moves each search iteration reports (multi-PV).
    pub multipv: usize,
    /// Whether the searcher's `info` lines are written.
    pub verbose: bool,
    /// The evaluation asked for by name (`param eval`), used by every game
    /// that has one of that name; `None`: each game's first.
    pub eval: Option<String>,
    /// Seconds a `solve` may take (per move for `solve_all`); 0: no limit.
    pub solve_time: f64,
    /// Nodes a `solve` may expand (per move for `solve_all`); 0: no limit.
    pub solve_nodes: u64,
    /// The solver's table size in megabytes.
    pub solve_hash_mb: usize,
    /// Whether the solver counts wins by player across a swap (else by
    /// colour).
    pub solve_by_player: bool,
    /// Whether the solver uses the game's connection knowledge (else plain
    /// df-pn).
    pub solve_knowledge: bool,
    /// Whether the solver initialises proof and disproof numbers from the
    /// game's estimates (df-pn+; else 1).
    pub solve_estimates: bool,
    /// The solver asks the knowledge the player uses (`solve_play_knowledge`).
    pub solve_play_knowledge: bool,
    /// Seconds `genmove` first gives the solver (0: never).
    pub genmove_solve: f64,
    /// The solver goes first only with at most this many legal moves (0:
    /// any number).
    pub genmove_solve_moves: usize,
    /// Whether `genmove` plays the game's opening book's replies.
    pub book: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            max_depth: 64,
            move_time: 1.0,
            seed: 1,
            player: Player::AlphaBeta,
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            verbose: true,
            eval: None,
            solve_time: 10.0,
            solve_nodes: 0,
            solve_hash_mb: crate::solve::DEFAULT_HASH_MB,
            solve_by_player: true,
            solve_knowledge: true,
            solve_estimates: false,
            solve_play_knowledge: false,
            genmove_solve: 0.0,
            genmove_solve_moves: 0,
            book: true,
        }
    }
}

/// The values a parameter takes. Each kind reads its text (any case),
/// checks it, hands the setter a typed value, and says its range in words
/// for protocol.md's table ([`Kind::range`]); on any error nothing changes.
pub enum Kind {
    /// A whole number from `min` to `max`.
    Whole {
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
        /// Sets it.
        set: fn(&mut Engine, u64),
    },
    /// A number of seconds from 0 to `max`, fractions allowed.
    Seconds {
        /// The greatest value.
        max: f64,
        /// Sets it.
        set: fn(&mut Engine, f64),
    },
    /// `true` or `false` (also `on`/`off`, `1`/`0`).
    Switch {
        /// Sets it.
        set: fn(&mut Engine, bool),
    },
    /// One of a few words: each entry is a word and its other spellings
    /// (`color`, `colour`); the setter gets the entry's index.
    Choice {
        /// The words, each with its other spellings after it.
        words: &'static [&'static [&'static str]],
        /// Sets it from the index of the word given.
        set: fn(&mut Engine, usize),
    },
    /// A table size in megabytes, from 1 to [`MAX_HASH_MB`], refused when
    /// the machine cannot hold it ([`check_table_size`]: more than the
    /// memory available, counting the `held` megabytes of the table it
    /// replaces as freed, or more than the process may allocate). So a
    /// table allocated later (the solver's, at its first `solve`) cannot
    /// abort the process.
    Megabytes {
        /// Megabytes of the table now in use, which the new one replaces.
        held: fn(&Engine) -> usize,
        /// Sets it; on error nothing changes.
        set: fn(&mut Engine, usize) -> Result<(), String>,
    },
    /// A name the setter checks itself.
    Name {
        /// The values, in words.
        range: &'static str,
        /// Sets it; on error nothing changes.
        set: fn(&mut Engine, &str) -> Result<(), String>,
    },
}

impl Kind {
    /// The values it takes, in words, as protocol.md's table shows them.
    pub fn range(&self) -> String {
        match self {
            Kind::Whole { min, max, .. } => format!("{min} to {max}"),
            Kind::Seconds { max, .. } => format!("0 to {max}"),
            Kind::Switch { .. } => "true, false".into(),
            Kind::Choice { words, .. } => words.iter().map(|w| w[0]).collect::<Vec<_>>().join(", "),
            Kind::Megabytes { .. } => {
                format!("1 to {MAX_HASH_MB}, at most the memory available")
            }
            Kind::Name { range, .. } => range.to_string(),
        }
    }

    /// Reads `value` for the parameter `name` and sets it.
    fn set(&self, e: &mut Engine, name: &str, value: &str) -> Result<(), String> {
        match self {
            Kind::Whole { min, max, set } => match value.parse::<u64>() {
                Ok(v) if (*min..=*max).contains(&v) => {
                    set(e, v);
                    Ok(())
                }
                _ => Err(format!(
                    "{name} must be a whole number from {min} to {max}, not '{value}'"
                )),
            },
            Kind::Seconds { max, set } => match value.parse::<f64>() {
                Ok(v) if v.is_finite() && (0.0..=*max).contains(&v) => {
                    set(e, v);
                    Ok(())
                }
                _ => Err(format!(
                    "{name} must be a number of seconds from 0 to {max}, not '{value}'"
                )),
            },
            Kind::Switch { set } => {
                let on = match value.to_ascii_lowercase().as_str() {
                    "1" | "true" | "on" => true,
                    "0" | "false" | "off" => false,
                    _ => return Err(format!("{name} must be true or false, not '{value}'")),
                };
                set(e, on);
                Ok(())
            }
            Kind::Choice { words, set } => {
                let i = words
                    .iter()
                    .position(|w| w.iter().any(|s| s.eq_ignore_ascii_case(value)))
                    .ok_or_else(|| format!("{name} must be {}, not '{value}'", or_list(words)))?;
                set(e, i);
                Ok(())
            }
            Kind::Megabytes { held, set } => {
                let mb = match value.parse::<usize>() {
                    Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => mb,
                    _ => {
                        return Err(format!(
                            "{name} must be a whole number from 1 to {MAX_HASH_MB}, not '{value}'"
                        ));
                    }
                };
                check_table_size(mb, held(e))?;
                set(e, mb)
            }
            Kind::Name { set, .. } => set(e, value),
        }
    }
}

/// The first spelling of each word, as a sentence says them: `a, b or c`.
fn or_list(words: &[&[&str]]) -> String {
    let firsts: Vec<&str> = words.iter().map(|w| w[0]).collect();
    match firsts.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// One parameter: its name, the values it takes, what it does, and how the
/// engine reads and sets it.
pub struct Param {
    /// The name `param` takes.
    pub name: &'static str,
    /// The values it takes, how they are read and how it is set.
    pub kind: Kind,
    /// What it does, in one line (protocol.md's table says the same).
    pub doc: &'static str,
    /// Its current value, as `param NAME` answers it.
    pub get: fn(&Engine) -> String,
}

impl Param {
    /// Sets it from text; on error nothing changes.
    pub fn set(&self, e: &mut Engine, value: &str) -> Result<(), String> {
        self.kind.set(e, self.name, value)
    }
}

/// `player`'s words, in the order of [`Player::ALL`].
const PLAYERS: &[&[&str]] = &[
    &["alphabeta"],
    &["mcts"],
    &["knowledge_mcts"],
    &["greedy"],
    &["random"],
];

/// Every parameter, in the order `param` lists them.
pub const PARAMS: &[Param] = &[
    Param {
        name: "max_depth",
        kind: Kind::Whole {
            min: 1,
            max: 64,
            set: |e, v| e.params.max_depth = v as u32,
        },
        doc: "deepest search iteration",
        get: |e| e.params.max_depth.to_string(),
    },
    Param {
        name: "move_time",
        kind: Kind::Seconds {
            max: 86_400.0,
            set: |e, v| e.params.move_time = v,
        },
        doc: "seconds per move when no clock is set, searched to the end (less 30 ms); with a clock, a cap on its plan; 0 = no time limit (then `max_depth` alone stops the search)",
        get: |e| e.params.move_time.to_string(),
    },
    Param {
        name: "seed",
        kind: Kind::Whole {
            min: 0,
            max: u64::MAX,
            set: |e, v| {
                e.params.seed = v;
                e.rng = SmallRng::seed_from_u64(v);
            },
        },
        doc: "seed of the engine's random choices (baseline players, MCTS)",
        get: |e| e.params.seed.to_string(),
    },
    Param {
        name: "player",
        kind: Kind::Choice {
            words: PLAYERS,
            set: |e, i| e.params.player = Player::ALL[i],
        },
        doc: "who plays `genmove`: `alphabeta` (the searcher), `mcts` (plain UCT with uniformly random playouts, same time budget; without a time limit, 1000 playouts per `max_depth`), `knowledge_mcts` (Monte-Carlo tree search guided by the evaluation: PUCT over the evaluation's candidate moves, each new node valued by its evaluation or its proven result, no playouts; without a time limit, 100 iterations per `max_depth`), `greedy` (the move with the best one-ply evaluation), `random` (a uniformly random legal move)",
        get: |e| e.params.player.name().to_string(),
    },
    Param {
        name: "eval",
        kind: Kind::Name {
            range: "the game's evaluators",
            set: |e, v| e.select_evaluator(v),
        },
        doc: "the evaluation the searcher and the baseline players use, by name (`evaluators` lists the current game's); it must be one of the current game's, and it stays chosen for every game that has one of that name (set before `game`, it waits for one); the others use their first",
        get: |e| match (e.session(), &e.params.eval) {
            (Some(s), _) => s.evaluator().to_string(),
            (None, Some(name)) => name.clone(),
            (None, None) => "-".to_string(),
        },
    },
    Param {
        name: "hash",
        kind: Kind::Megabytes {
            // The searcher's table exists once a game is selected.
            held: |e| e.session().map_or(0, |_| e.params.hash_mb),
            set: |e, mb| {
                e.set_hash_mb(mb)?;
                e.params.hash_mb = mb;
                Ok(())
            },
        },
        doc: "transposition table size in megabytes, cleared when set; its memory is committed only as searches fill it (in huge pages where Linux offers them), and a size larger than the memory available is refused (`?`, the old table stays)",
        get: |e| e.params.hash_mb.to_string(),
    },
    Param {
        name: "threads",
        kind: Kind::Whole {
            min: 1,
            max: 256,
            set: |e, v| e.params.threads = v as usize,
        },
        doc: "search threads (Lazy SMP: helper threads search the same position and share the table; every other helper keeps one ply ahead of the main thread; the move played is the main thread's, or a helper's when it completed a deeper iteration; the `info` lines are the main thread's)",
        get: |e| e.params.threads.to_string(),
    },
    Param {
        name: "multipv",
        kind: Kind::Whole {
            min: 1,
            max: MAX_MULTIPV as u64,
            set: |e, v| e.params.multipv = v as usize,
        },
        doc: "how many of the best moves each finished iteration of the alpha-beta searcher reports, each on its own `info ... multipv I ...` line with its exact score (the first is the move played, searched as with 1; each further one costs about another search of the root); `analyze COLOR K` sets it for one analysis",
        get: |e| e.params.multipv.to_string(),
    },
    Param {
        name: "verbose",
        kind: Kind::Switch {
            set: |e, v| e.params.verbose = v,
        },
        doc: "whether the searcher writes `info` lines on stderr",
        get: |e| e.params.verbose.to_string(),
    },
    Param {
        name: "solve_time",
        kind: Kind::Seconds {
            max: 86_400.0,
            set: |e, v| e.params.solve_time = v,
        },
        doc: "seconds `solve` may take (each move's for `solve_all`); 0 = no time limit",
        get: |e| e.params.solve_time.to_string(),
    },
    Param {
        name: "solve_nodes",
        kind: Kind::Whole {
            min: 0,
            max: u64::MAX,
            set: |e, v| e.params.solve_nodes = v,
        },
        doc: "nodes `solve` may expand (each move's for `solve_all`); 0 = no node limit",
        get: |e| e.params.solve_nodes.to_string(),
    },
    Param {
        name: "solve_hash",
        kind: Kind::Megabytes {
            // Whether the solver has allocated its table is not known
            // here: none is counted as freed.
            held: |_| 0,
            set: |e, mb| {
                e.params.solve_hash_mb = mb;
                Ok(())
            },
        },
        doc: "the solver's table in megabytes (allocated at the first `solve`, kept between solves, cleared by a new game or a new size; when full, the entries that cost the fewest nodes are replaced). For a game whose knowledge answers by the position alone, the solver also remembers how it expanded nodes, in a memory sized from the table (a sixteenth of its entries, at most 2^22), which can add up to half the table's size again in a long proof; a size larger than the memory available is refused (`?`, the size stays)",
        get: |e| e.params.solve_hash_mb.to_string(),
    },
    Param {
        name: "solve_by",
        kind: Kind::Choice {
            words: &[&["player"], &["color", "colour"]],
            set: |e, i| e.params.solve_by_player = i == 0,
        },
        doc: "whom `solve` counts a win for across a swap: `player` (the game as played: the swap exchanges the players' colours) or `color` (the swap, which changes neither the board nor the colour to move, gives the same colour another move: the value of the game without the swap rule's exchange); changing it clears the solver's table",
        get: |e| {
            if e.params.solve_by_player {
                "player"
            } else {
                "color"
            }
            .to_string()
        },
    },
    Param {
        name: "solve_knowledge",
        kind: Kind::Switch {
            set: |e, v| e.params.solve_knowledge = v,
        },
        doc: "whether `solve` uses the game's knowledge (wins in one; virtual connections and must-play regions where the game has them); false = plain df-pn, for comparison",
        get: |e| e.params.solve_knowledge.to_string(),
    },
    Param {
        name: "solve_estimates",
        kind: Kind::Switch {
            set: |e, v| e.params.solve_estimates = v,
        },
        doc: "whether `solve` starts each new position's proof and disproof numbers from the game's estimate (df-pn+: for a connection game, the number of moves its knowledge leaves there) rather than 1, with the knowledge; changes the nodes searched, never a value",
        get: |e| e.params.solve_estimates.to_string(),
    },
    Param {
        name: "solve_play_knowledge",
        kind: Kind::Switch {
            set: |e, v| e.params.solve_play_knowledge = v,
        },
        doc: "whether `solve` asks, with the knowledge, its richer form where a game has one (the player's connections, with captured sets and ladders, or combined connections beside single paths: the Solving section says which game has which): fewer nodes, each dearer; on some hard positions it decides what the plain form does not in the same time, on others it is slower (docs/solutions.md); never changes a value",
        get: |e| e.params.solve_play_knowledge.to_string(),
    },
    Param {
        name: "genmove_solve",
        kind: Kind::Seconds {
            max: 86_400.0,
            set: |e, v| e.params.genmove_solve = v,
        },
        doc: "seconds `genmove` first gives the solver (at most half the move's budget, wins counted by player, its table kept from move to move); a proven win is played by its fastest line of at most 9 plies (full width, in the time left) or else by the solver's move; otherwise the searcher plays; 0 = never",
        get: |e| e.params.genmove_solve.to_string(),
    },
    Param {
        name: "genmove_solve_moves",
        kind: Kind::Whole {
            min: 0,
            max: 100_000,
            set: |e, v| e.params.genmove_solve_moves = v as usize,
        },
        doc: "`genmove_solve` applies only when the side to move has at most this many legal moves (small boards, endgames); 0 = any number",
        get: |e| e.params.genmove_solve_moves.to_string(),
    },
    Param {
        name: "book",
        kind: Kind::Switch {
            set: |e, v| e.params.book = v,
        },
        doc: "whether `genmove` plays the game's opening book, where it has one (the game's section of protocol.md says where), when the moves so far, from the game's own start, are a line of it; false = always search",
        get: |e| e.params.book.to_string(),
    },
];

/// The parameters as protocol.md's table shows them: name, default,
/// values, meaning (a test keeps protocol.md equal to it).
pub fn markdown_table() -> String {
    let fresh = Engine::new();
    let mut out = String::from("| name | default | values | meaning |\n|---|---|---|---|\n");
    for p in PARAMS {
        out.push_str(&format!(
            "| `{}` | `{}` | {} | {} |\n",
            p.name,
            (p.get)(&fresh),
            p.kind.range(),
            p.doc
        ));
    }
    out
}

/// The parameter called `name` (any case).
pub fn find(name: &str) -> Result<&'static Param, String> {
    PARAMS
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown parameter '{name}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `player`'s words name the players in [`Player::ALL`]'s order.
    #[test]
    fn the_player_words_are_the_players_names() {
        let names: Vec<&str> = Player::ALL.iter().map(|p| p.name()).collect();
        let words: Vec<&str> = PLAYERS.iter().map(|w| w[0]).collect();
        assert_eq!(words, names);
    }

    /// Every kind refuses what it does not take, with the parameter's name
    /// and the range in its message, and changes nothing.
    #[test]
    fn each_kind_reads_its_values_and_refuses_the_others() {
        let mut e = Engine::new();
        let cases: &[(&str, &[&str], &[&str])] = &[
            (
                "max_depth",
                &["1", "64"],
                &["0", "65", "2.5", "-1", "x", ""],
            ),
            (
                "move_time",
                &["0", "0.5", "86400"],
                &["-1", "nan", "inf", "1e9", "soon"],
            ),
            ("player", &["MCTS", "alphabeta"], &["chess", ""]),
            ("verbose", &["on", "0", "TRUE", "false"], &["maybe", "2"]),
            (
                "solve_by",
                &["colour", "Player", "color"],
                &["colors", "both"],
            ),
            ("hash", &["1", "2"], &["0", "16385", "-1", "big"]),
            ("solve_hash", &["1", "8"], &["0", "16385", "x"]),
            ("genmove_solve_moves", &["0", "100000"], &["100001", "-1"]),
        ];
        for &(name, good, bad) in cases {
            for v in good {
                assert_eq!(e.set_param(name, v), Ok(()), "{name} {v}");
            }
            let before = e.param(name).unwrap();
            for v in bad {
                let err = e.set_param(name, v).unwrap_err();
                assert!(err.starts_with(name), "{name} {v}: {err}");
                assert_eq!(e.param(name).unwrap(), before, "{name} {v}");
            }
        }
        assert_eq!(e.param("solve_by").unwrap(), "color");
        assert_eq!(
            e.set_param("player", "chess").unwrap_err(),
            "player must be alphabeta, mcts, knowledge_mcts, greedy or random, not 'chess'"
        );
        assert_eq!(
            e.set_param("move_time", "-1").unwrap_err(),
            "move_time must be a number of seconds from 0 to 86400, not '-1'"
        );
    }

    /// The range text comes from the kind.
    #[test]
    fn each_kind_writes_its_range() {
        let range = |name| find(name).unwrap().kind.range();
        assert_eq!(range("max_depth"), "1 to 64");
        assert_eq!(range("move_time"), "0 to 86400");
        assert_eq!(range("verbose"), "true, false");
        assert_eq!(range("solve_by"), "player, color");
        assert_eq!(
            range("solve_hash"),
            "1 to 16384, at most the memory available"
        );
    }
}
