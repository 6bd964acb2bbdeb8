//! The engine's parameters (`param`), declared once: each row of
//! [`PARAMS`] gives a parameter's name, its range, its documentation and
//! how to read and set it. `param`, its listing and its errors come from
//! the table, and a test checks protocol.md's table against it.

use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::Engine;
use crate::search::Player;

/// Largest transposition table `param hash` accepts, in megabytes.
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
    /// Seconds `genmove` first gives the solver (0: never).
    pub genmove_solve: f64,
    /// The solver goes first only with at most this many legal moves (0:
    /// any number).
    pub genmove_solve_moves: usize,
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
            verbose: true,
            eval: None,
            solve_time: 10.0,
            solve_nodes: 0,
            solve_hash_mb: crate::solve::DEFAULT_HASH_MB,
            solve_by_player: true,
            solve_knowledge: true,
            genmove_solve: 0.0,
            genmove_solve_moves: 0,
        }
    }
}

/// One parameter: its name, the values it takes, what it does, and how the
/// engine reads and sets it.
pub struct Param {
    /// The name `param` takes.
    pub name: &'static str,
    /// The values it takes, in words (`1 to 64`).
    pub range: &'static str,
    /// What it does, in one line (protocol.md's table says the same).
    pub doc: &'static str,
    /// Its current value, as `param NAME` answers it.
    pub get: fn(&Engine) -> String,
    /// Sets it from text; on error nothing changes.
    pub set: fn(&mut Engine, &str) -> Result<(), String>,
}

/// Every parameter, in the order `param` lists them.
pub const PARAMS: &[Param] = &[
    Param {
        name: "max_depth",
        range: "1 to 64",
        doc: "deepest search iteration",
        get: |e| e.params.max_depth.to_string(),
        set: |e, v| {
            e.params.max_depth = parse_in("max_depth", v, 1..=64)?;
            Ok(())
        },
    },
    Param {
        name: "move_time",
        range: "0 to 86400",
        doc: "seconds per move when no clock is set, searched to the end (less 30 ms); with a clock, a cap on its plan; 0 = no time limit (then `max_depth` alone stops the search)",
        get: |e| e.params.move_time.to_string(),
        set: |e, v| {
            let secs: f64 = v
                .parse()
                .map_err(|_| format!("move_time must be a number of seconds, not '{v}'"))?;
            if !(0.0..=86_400.0).contains(&secs) || !secs.is_finite() {
                return Err("move_time must be from 0 to 86400 seconds".into());
            }
            e.params.move_time = secs;
            Ok(())
        },
    },
    Param {
        name: "seed",
        range: "0 to 18446744073709551615",
        doc: "seed of the engine's random choices (baseline players, MCTS)",
        get: |e| e.params.seed.to_string(),
        set: |e, v| {
            let seed = parse_in("seed", v, 0..=u64::MAX)?;
            e.params.seed = seed;
            e.rng = SmallRng::seed_from_u64(seed);
            Ok(())
        },
    },
    Param {
        name: "player",
        range: "alphabeta, mcts, greedy, random",
        doc: "who plays `genmove`: `alphabeta` (the searcher), `mcts` (plain UCT with uniformly random playouts, same time budget; without a time limit, 1000 playouts per `max_depth`), `greedy` (the move with the best one-ply evaluation), `random` (a uniformly random legal move)",
        get: |e| e.params.player.name().to_string(),
        set: |e, v| {
            e.params.player = Player::parse(v).ok_or_else(|| {
                format!("player must be alphabeta, mcts, greedy or random, not '{v}'")
            })?;
            Ok(())
        },
    },
    Param {
        name: "eval",
        range: "the game's evaluators",
        doc: "the evaluation the searcher and the baseline players use, by name (`evaluators` lists the current game's); it must be one of the current game's, and it stays chosen for every game that has one of that name (set before `game`, it waits for one); the others use their first",
        get: |e| match (e.session(), &e.params.eval) {
            (Some(s), _) => s.evaluator().to_string(),
            (None, Some(name)) => name.clone(),
            (None, None) => "-".to_string(),
        },
        set: |e, v| e.select_evaluator(v),
    },
    Param {
        name: "hash",
        range: "1 to 16384",
        doc: "transposition table size in megabytes, cleared when set; its memory is committed only as searches fill it, and a size larger than the memory available is refused (`?`, the old table stays)",
        get: |e| e.params.hash_mb.to_string(),
        set: |e, v| {
            let mb = parse_in("hash", v, 1..=MAX_HASH_MB)?;
            e.set_hash_mb(mb)?;
            e.params.hash_mb = mb;
            Ok(())
        },
    },
    Param {
        name: "threads",
        range: "1 to 256",
        doc: "search threads (Lazy SMP: helper threads search the same position and share the table; every other helper keeps one ply ahead of the main thread; the move played is the main thread's, or a helper's when it completed a deeper iteration; the `info` lines are the main thread's)",
        get: |e| e.params.threads.to_string(),
        set: |e, v| {
            e.params.threads = parse_in("threads", v, 1..=256)?;
            Ok(())
        },
    },
    Param {
        name: "verbose",
        range: "true, false",
        doc: "whether the searcher writes `info` lines on stderr",
        get: |e| e.params.verbose.to_string(),
        set: |e, v| {
            e.params.verbose = match v.to_ascii_lowercase().as_str() {
                "1" | "true" | "on" => true,
                "0" | "false" | "off" => false,
                _ => return Err(format!("verbose must be true or false, not '{v}'")),
            };
            Ok(())
        },
    },
    Param {
        name: "solve_time",
        range: "0 to 86400",
        doc: "seconds `solve` may take (each move's for `solve_all`); 0 = no time limit",
        get: |e| e.params.solve_time.to_string(),
        set: |e, v| {
            let secs: f64 = v
                .parse()
                .map_err(|_| format!("solve_time must be a number of seconds, not '{v}'"))?;
            if !(0.0..=86_400.0).contains(&secs) || !secs.is_finite() {
                return Err("solve_time must be from 0 to 86400 seconds".into());
            }
            e.params.solve_time = secs;
            Ok(())
        },
    },
    Param {
        name: "solve_nodes",
        range: "0 to 18446744073709551615",
        doc: "nodes `solve` may expand (each move's for `solve_all`); 0 = no node limit",
        get: |e| e.params.solve_nodes.to_string(),
        set: |e, v| {
            e.params.solve_nodes = parse_in("solve_nodes", v, 0..=u64::MAX)?;
            Ok(())
        },
    },
    Param {
        name: "solve_hash",
        range: "1 to 16384",
        doc: "the solver's table in megabytes (allocated at the first `solve`, kept between solves, cleared by a new game or a new size; when full, the entries that cost the fewest nodes are replaced)",
        get: |e| e.params.solve_hash_mb.to_string(),
        set: |e, v| {
            e.params.solve_hash_mb = parse_in("solve_hash", v, 1..=MAX_HASH_MB)?;
            Ok(())
        },
    },
    Param {
        name: "solve_by",
        range: "player, color",
        doc: "whom `solve` counts a win for across a swap: `player` (the game as played: the swap exchanges the players' colours) or `color` (the swap, which changes neither the board nor the colour to move, gives the same colour another move: the value of the game without the swap rule's exchange); changing it clears the solver's table",
        get: |e| {
            if e.params.solve_by_player {
                "player"
            } else {
                "color"
            }
            .to_string()
        },
        set: |e, v| {
            e.params.solve_by_player = match v.to_ascii_lowercase().as_str() {
                "player" => true,
                "color" | "colour" => false,
                _ => return Err(format!("solve_by must be player or color, not '{v}'")),
            };
            Ok(())
        },
    },
    Param {
        name: "solve_knowledge",
        range: "true, false",
        doc: "whether `solve` uses the game's knowledge (wins in one; virtual connections and must-play regions in Onyx and Hex); false = plain df-pn, for comparison",
        get: |e| e.params.solve_knowledge.to_string(),
        set: |e, v| {
            e.params.solve_knowledge = match v.to_ascii_lowercase().as_str() {
                "1" | "true" | "on" => true,
                "0" | "false" | "off" => false,
                _ => return Err(format!("solve_knowledge must be true or false, not '{v}'")),
            };
            Ok(())
        },
    },
    Param {
        name: "genmove_solve",
        range: "0 to 86400",
        doc: "seconds `genmove` first gives the solver (at most half the move's budget, wins counted by player, its table kept from move to move); a proven win is played by its fastest line of at most 9 plies (full width, in the time left) or else by the solver's move; otherwise the searcher plays; 0 = never",
        get: |e| e.params.genmove_solve.to_string(),
        set: |e, v| {
            let secs: f64 = v
                .parse()
                .map_err(|_| format!("genmove_solve must be a number of seconds, not '{v}'"))?;
            if !(0.0..=86_400.0).contains(&secs) || !secs.is_finite() {
                return Err("genmove_solve must be from 0 to 86400 seconds".into());
            }
            e.params.genmove_solve = secs;
            Ok(())
        },
    },
    Param {
        name: "genmove_solve_moves",
        range: "0 to 100000",
        doc: "`genmove_solve` applies only when the side to move has at most this many legal moves (small boards, endgames); 0 = any number",
        get: |e| e.params.genmove_solve_moves.to_string(),
        set: |e, v| {
            let n: usize = v.parse().ok().filter(|n| *n <= 100_000).ok_or_else(|| {
                format!("genmove_solve_moves must be from 0 to 100000, not '{v}'")
            })?;
            e.params.genmove_solve_moves = n;
            Ok(())
        },
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
            p.range,
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

/// Parses a whole-number parameter value within `range`.
fn parse_in<T>(name: &str, value: &str, range: std::ops::RangeInclusive<T>) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    match value.parse::<T>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(format!(
            "{name} must be a whole number from {} to {}, not '{value}'",
            range.start(),
            range.end()
        )),
    }
}
