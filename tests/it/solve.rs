//! The df-pn solver against a plain exhaustive minimax written here (a
//! repeated position on the path is a draw: the solver's rule, and the
//! game's value by endless play), on hundreds of small random positions of
//! every game, and known facts (Hex openings).

use crate::common::minimax::{V, minimax, near_end, opponent_moves, random_moves};

use std::collections::HashSet;

use crosscut::game::{Color, Effort, Game, Notation, Outcome};
use crosscut::games::akron::Akron;
use crosscut::games::hex::Hex;
use crosscut::games::onyx::{Onyx, Start};
use crosscut::games::orcoon::Orcoon;
use crosscut::protocol::Gtp;
use crosscut::solve::{Proof, SolveLimits, SolveValue, Solver};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Solves `game` with the solver and compares with minimax (when minimax
/// finishes within `budget`); checks a winning move is winning. Returns
/// whether a comparison was made.
fn compare<G: Notation + crosscut::solve::Knowledge>(
    solver: &mut Solver<G>,
    game: &mut G,
    budget: u64,
    by_player: bool,
) -> bool {
    let mut b = budget;
    let Some(expected) = minimax(game, &mut HashSet::new(), &mut b, by_player) else {
        return false;
    };
    if game.outcome().is_some() {
        return false;
    }
    let hash = game.hash();
    let limits = SolveLimits {
        by_player,
        ..SolveLimits::unlimited()
    };
    let report = solver.solve(game, &limits, &mut |_| {});
    assert_eq!(game.hash(), hash, "the solver leaves the game as it was");
    let got = match report.value {
        SolveValue::Win(mv) => {
            let me = game.to_move();
            game.play_with(mv, Effort::Exact);
            let mut b = budget;
            let after = minimax(game, &mut HashSet::new(), &mut b, by_player);
            let flip = opponent_moves(game, me, by_player);
            let after = after.map(|v| if flip { v.flip() } else { v });
            game.undo();
            if let Some(a) = after {
                assert_eq!(a, V::Win, "the solver's winning move {mv:?} does not win");
            }
            V::Win
        }
        SolveValue::Loss => V::Loss,
        SolveValue::Draw => V::Draw,
        SolveValue::Unknown => panic!("no limit, yet unknown"),
    };
    TALLY.with(|t| t.borrow_mut()[got as usize] += 1);
    assert_eq!(
        got,
        expected,
        "solver and minimax disagree, {:?} to move:\n{}",
        game.to_move(),
        game.showboard()
    );
    true
}

thread_local! {
    /// Values compared on this thread: wins, draws, losses.
    static TALLY: std::cell::RefCell<[usize; 3]> = const { std::cell::RefCell::new([0; 3]) };
}

/// The values compared on this thread so far (wins, draws, losses).
fn tally() -> [usize; 3] {
    TALLY.with(|t| *t.borrow())
}

/// Compares `count` positions from `make` (a fresh solver table every
/// ten positions, so stored results are reused across calls too; wins
/// counted by player and by colour in turn).
fn compare_many<G: Notation + crosscut::solve::Knowledge>(
    count: usize,
    budget: u64,
    seed: u64,
    mut make: impl FnMut(&mut SmallRng) -> G,
) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut solver = Solver::new(4);
    let mut compared = 0;
    for i in 0..count {
        if i % 10 == 0 {
            solver.clear();
        }
        let mut game = make(&mut rng);
        if compare(&mut solver, &mut game, budget, i % 20 < 10) {
            compared += 1;
        }
    }
    compared
}

#[test]
fn hex_small_boards_agree_with_minimax() {
    for n in 2..=4 {
        let compared = compare_many(150, 200_000, n as u64, |rng| {
            let mut g = Hex::new(n).unwrap();
            let first = if n == 4 { 5 } else { 0 };
            let k = rng.random_range(first..n * n);
            random_moves(&mut g, rng, k);
            g
        });
        assert!(compared >= 100, "hex {n}: only {compared} compared");
        eprintln!("hex {n}x{n}: {compared} positions compared");
    }
}

#[test]
fn hex_5x5_near_end_agrees_with_minimax() {
    let compared = compare_many(100, 200_000, 5, |rng| {
        let mut g = Hex::new(5).unwrap();
        let back = rng.random_range(2..9);
        near_end(&mut g, rng, back, 100);
        g
    });
    assert!(compared >= 60, "hex 5: only {compared} compared");
    eprintln!("hex 5x5 near end: {compared} positions compared");
}

#[test]
fn orcoon_near_end_agrees_with_minimax() {
    for n in 3..=4 {
        let compared = compare_many(150, 100_000, 10 + n as u64, |rng| {
            let mut g = Orcoon::new(n).unwrap();
            let back = rng.random_range(1..6);
            near_end(&mut g, rng, back, 100);
            g
        });
        assert!(compared >= 70, "orcoon {n}: only {compared} compared");
        eprintln!("orcoon {n}x{n} near end: {compared} positions compared");
    }
}

#[test]
fn onyx_4x4_near_end_agrees_with_minimax() {
    let compared = compare_many(200, 100_000, 44, |rng| {
        let mut g = Onyx::new(4, Start::Blank).unwrap();
        let back = rng.random_range(1..7);
        near_end(&mut g, rng, back, 200);
        g
    });
    assert!(compared >= 100, "onyx: only {compared} compared");
    eprintln!(
        "onyx 4x4 near end: {compared} positions compared (wins, draws, losses {:?})",
        tally()
    );
}

#[test]
fn akron_3x3_near_end_agrees_with_minimax() {
    let compared = compare_many(150, 100_000, 33, |rng| {
        let mut g = Akron::new(3).unwrap();
        let back = rng.random_range(1..5);
        near_end(&mut g, rng, back, 60);
        g
    });
    assert!(compared >= 50, "akron: only {compared} compared");
    eprintln!(
        "akron 3x3 near end: {compared} positions compared (wins, draws, losses {:?})",
        tally()
    );
}

#[test]
fn hex_openings_are_first_player_wins_without_swap() {
    // Counted by colour, the swap changes nothing: the value of Hex
    // without the swap rule's exchange.
    let by_colour = SolveLimits {
        by_player: false,
        ..SolveLimits::unlimited()
    };
    for n in 1..=4 {
        let mut g = Hex::new(n).unwrap();
        let mut solver = Solver::new(16);
        let r = solver.solve(&mut g, &by_colour, &mut |_| {});
        assert!(
            matches!(r.value, SolveValue::Win(_)),
            "hex {n}: {:?}",
            r.value
        );
        // Black can force a win; White cannot.
        assert_eq!(
            solver.prove(&mut g, Color::White, &by_colour, &mut |_| {}),
            Proof::Disproven
        );
    }
}

#[test]
fn hex_with_swap_is_a_second_player_win() {
    // Counted by player, the second player swaps any winning opening.
    for n in 2..=4 {
        let mut g = Hex::new(n).unwrap();
        let mut solver = Solver::new(16);
        let r = solver.solve(&mut g, &SolveLimits::unlimited(), &mut |_| {});
        assert_eq!(r.value, SolveValue::Loss, "hex {n}");
    }
    // On 1x1 the first move ends the game before any swap.
    let mut g = Hex::new(1).unwrap();
    let r = Solver::new(1).solve(&mut g, &SolveLimits::unlimited(), &mut |_| {});
    assert!(matches!(r.value, SolveValue::Win(_)));
}

#[test]
fn a_node_limit_gives_unknown() {
    let mut g = Hex::new(5).unwrap();
    let mut solver = Solver::new(1);
    let limits = SolveLimits {
        nodes: Some(100),
        ..SolveLimits::unlimited()
    };
    let r = solver.solve(&mut g, &limits, &mut |_| {});
    assert_eq!(r.value, SolveValue::Unknown);
}

fn ok(gtp: &mut Gtp, line: &str) -> String {
    let a = gtp.execute(line).unwrap_or_default();
    assert!(a.starts_with('='), "'{line}' failed: {a}");
    a[1..].trim().to_string()
}

#[test]
fn solve_commands_answer_and_leave_the_game_alone() {
    let mut gtp = Gtp::new();
    for l in ["game hex", "boardsize 3", "param verbose false"] {
        ok(&mut gtp, l);
    }
    // With swap in play the first player loses (the opening is swapped).
    let a = ok(&mut gtp, "solve");
    assert!(a.starts_with("loss nodes "), "{a}");
    assert!(a.contains(" time "), "{a}");
    ok(&mut gtp, "param solve_by color");
    assert!(ok(&mut gtp, "solve").starts_with("win "));
    let all = ok(&mut gtp, "solve_all");
    let wins: Vec<&str> = all
        .lines()
        .filter(|l| l.split_whitespace().nth(1) == Some("win"))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(all.lines().count(), 9, "{all}");
    // 3x3: the short diagonal and the two side cells next to the centre.
    assert_eq!(wins, ["c1", "a2", "b2", "c2", "a3"], "{all}");
    assert_eq!(ok(&mut gtp, "legal_moves").split(' ').count(), 9);
    // White, solved as if the turn were handed over, also wins by moving first.
    assert!(ok(&mut gtp, "solve white").starts_with("win "));
    assert_eq!(ok(&mut gtp, "gogui-rules_side_to_move"), "black");
    // A limit too small: unknown.
    ok(&mut gtp, "boardsize 7");
    ok(&mut gtp, "param solve_nodes 50");
    assert!(ok(&mut gtp, "solve").starts_with("unknown "));
    // The game goes on as usual.
    ok(&mut gtp, "param move_time 0.05");
    ok(&mut gtp, "genmove b");
    let a = gtp.execute("solve purple 1 2").unwrap_or_default();
    assert!(a.starts_with('?'), "{a}");
}

#[test]
fn a_finished_game_has_nothing_to_solve() {
    let mut gtp = Gtp::new();
    for l in ["game hex", "boardsize 1", "play b a1"] {
        ok(&mut gtp, l);
    }
    let a = gtp.execute("solve").unwrap_or_default();
    assert!(a.starts_with('?'), "{a}");
}

#[test]
fn genmove_plays_a_proven_win_when_asked_to_solve_first() {
    let mut gtp = Gtp::new();
    for l in [
        "game hex",
        "boardsize 4",
        "param verbose false",
        "param move_time 1",
        "param genmove_solve 5",
        // Past the swap: Black's d1 wins (by colour and by player alike).
        "play b d1",
        "play w a1",
    ] {
        ok(&mut gtp, l);
    }
    // Every move genmove plays for Black keeps the win: the solver agrees.
    for _ in 0..3 {
        let mv = ok(&mut gtp, "genmove b");
        if gtp.engine.rules().unwrap().outcome().is_some() {
            break;
        }
        assert!(ok(&mut gtp, "solve white").starts_with("loss "), "{mv}");
        ok(&mut gtp, "genmove w");
        if gtp.engine.rules().unwrap().outcome().is_some() {
            break;
        }
        assert!(ok(&mut gtp, "solve black").starts_with("win "));
    }
}

/// A game on a random directed graph with cycles: Black moves from the
/// first half of the vertices to the second, White back; some vertices
/// end the game. Its true value (win by force, or a draw by endless play)
/// comes from retrograde analysis, independent of any path rule.
#[derive(Clone)]
struct Graph {
    edges: std::sync::Arc<Vec<Vec<usize>>>,
    ends: std::sync::Arc<Vec<Option<Outcome>>>,
    keys: std::sync::Arc<Vec<u64>>,
    half: usize,
    at: usize,
    history: Vec<usize>,
}

impl crosscut::solve::Knowledge for Graph {}

impl Game for Graph {
    type Move = usize;
    fn size(&self) -> usize {
        1
    }
    fn to_move(&self) -> Color {
        if self.at < self.half {
            Color::Black
        } else {
            Color::White
        }
    }
    fn moves_played(&self) -> usize {
        self.history.len()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.ends[self.at]
    }
    fn legal_moves(&self, out: &mut Vec<usize>) {
        if self.outcome().is_none() {
            out.extend(&self.edges[self.at]);
        }
    }
    fn is_legal(&self, mv: usize) -> bool {
        self.outcome().is_none() && self.edges[self.at].contains(&mv)
    }
    fn play_with(&mut self, mv: usize, _: Effort) {
        self.history.push(self.at);
        self.at = mv;
    }
    fn play_null(&mut self) {
        unreachable!("not used")
    }
    fn undo(&mut self) {
        self.at = self.history.pop().expect("a move to undo");
    }
    fn hash(&self) -> u64 {
        self.keys[self.at]
    }
    fn recompute_hash(&self) -> u64 {
        self.hash()
    }
}

/// A random graph of `n` vertices (even), and the start at vertex 0.
fn random_graph(rng: &mut SmallRng, n: usize) -> Graph {
    let half = n / 2;
    let mut edges = vec![Vec::new(); n];
    let mut ends = vec![None; n];
    for v in 0..n {
        let roll = rng.random_range(0..100);
        if roll < 12 {
            ends[v] = Some(Outcome::Win(Color::Black));
        } else if roll < 24 {
            ends[v] = Some(Outcome::Win(Color::White));
        } else if roll < 27 {
            ends[v] = Some(Outcome::Draw);
        } else {
            let targets = if v < half { half..n } else { 0..half };
            for _ in 0..rng.random_range(1..4) {
                let t = rng.random_range(targets.clone());
                if !edges[v].contains(&t) {
                    edges[v].push(t);
                }
            }
        }
    }
    Graph {
        edges: std::sync::Arc::new(edges),
        ends: std::sync::Arc::new(ends),
        keys: std::sync::Arc::new((0..n).map(|_| rng.random::<u64>()).collect()),
        half,
        at: 0,
        history: Vec::new(),
    }
}

/// The true value of every vertex for its mover: the attractor of each
/// colour's wins (a win must be forced in finitely many moves); outside
/// both, a draw.
fn retrograde(g: &Graph) -> Vec<V> {
    let n = g.edges.len();
    let mover = |v: usize| {
        if v < g.half {
            Color::Black
        } else {
            Color::White
        }
    };
    let mut attr = [vec![false; n], vec![false; n]];
    for c in Color::ALL {
        let a = &mut attr[c.index()];
        loop {
            let mut changed = false;
            for v in 0..n {
                if a[v] {
                    continue;
                }
                let inside = match g.ends[v] {
                    Some(o) => o == Outcome::Win(c),
                    None if mover(v) == c => g.edges[v].iter().any(|&t| a[t]),
                    None => g.edges[v].iter().all(|&t| a[t]),
                };
                if inside {
                    a[v] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    (0..n)
        .map(|v| {
            if attr[mover(v).index()][v] {
                V::Win
            } else if attr[mover(v).opponent().index()][v] {
                V::Loss
            } else {
                V::Draw
            }
        })
        .collect()
}

#[test]
fn cyclic_graphs_agree_with_retrograde_analysis() {
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut counts = [0usize; 3];
    for graph in 0..3000 {
        let n = 2 * rng.random_range(4..24);
        let g = random_graph(&mut rng, n);
        let truth = retrograde(&g);
        // One solver for every start of a graph: results stored from one
        // start are reused from the others.
        let mut solver = Solver::new(1);
        for v in 0..n {
            if g.ends[v].is_some() {
                continue;
            }
            let mut game = Graph { at: v, ..g.clone() };
            let r = solver.solve(&mut game, &SolveLimits::unlimited(), &mut |_| {});
            let got = match r.value {
                SolveValue::Win(mv) => {
                    // The move must keep a forced win.
                    let after = truth[mv];
                    assert_eq!(after, V::Loss, "graph {graph} vertex {v}: move {mv}");
                    V::Win
                }
                SolveValue::Loss => V::Loss,
                SolveValue::Draw => V::Draw,
                SolveValue::Unknown => panic!("unknown without limits"),
            };
            assert_eq!(got, truth[v], "graph {graph} vertex {v}");
            counts[got as usize] += 1;
        }
    }
    eprintln!("cyclic graphs: wins, draws, losses {counts:?}");
    assert!(counts.iter().all(|&c| c > 100), "{counts:?}");
}

/// The swap decision on a solved board is exact: after every Black opening
/// of Hex 3×3, White's `genmove` (solving first) is a winning move for the
/// player, by exhaustive minimax; on 4×4 White swaps exactly the winning
/// openings (the short diagonal, docs/solutions.md).
#[test]
fn the_swap_decision_on_a_solved_board_is_exact() {
    for n in [3usize, 4] {
        let mut openings = Vec::new();
        Hex::new(n).unwrap().legal_moves(&mut openings);
        for (i, opening) in openings.into_iter().enumerate() {
            // 4x4: every third opening, to keep the test short.
            if n == 4 && i % 3 != 0 {
                continue;
            }
            let mut g = Hex::new(n).unwrap();
            let text = g.format_move(opening);
            let mut gtp = Gtp::new();
            for l in [
                "game hex".to_string(),
                format!("boardsize {n}"),
                "param verbose false".into(),
                "param move_time 5".into(),
                "param genmove_solve 5".into(),
                format!("play b {text}"),
            ] {
                ok(&mut gtp, &l);
            }
            let answer = ok(&mut gtp, "genmove w");
            g.play(opening);
            let reply = g.parse_move(&answer).expect("a move");
            if n == 3 {
                g.play(reply);
                let v = if g.outcome().is_some() {
                    V::Loss
                } else {
                    let mut budget = u64::MAX;
                    minimax(&mut g, &mut HashSet::new(), &mut budget, true).expect("no budget")
                };
                assert_eq!(
                    v,
                    V::Loss,
                    "after b {text}, w {answer} wins for White's player"
                );
            } else {
                let wins = ["d1", "c2", "b3", "a4"].contains(&text.as_str());
                assert_eq!(answer == "swap", wins, "after b {text}: w {answer}");
            }
        }
    }
}

/// The same on blank Onyx 4×4: White swaps exactly after the openings that
/// win for Black by colour (A2 C2 D2 A3 B3 D3, docs/solutions.md; their
/// proofs are replayed in tests/it/proofs.rs), and otherwise plays on.
#[test]
fn onyx_4x4_swap_decisions_are_exact() {
    for (opening, swap) in [("A2", true), ("B3", true), ("C3", false), ("BC12", false)] {
        let mut gtp = Gtp::new();
        for l in [
            "game onyx".to_string(),
            "boardsize 4".into(),
            "start blank".into(),
            "param verbose false".into(),
            "param move_time 60".into(),
            "param genmove_solve 60".into(),
            format!("play b {opening}"),
        ] {
            ok(&mut gtp, &l);
        }
        let answer = ok(&mut gtp, "genmove w");
        assert_eq!(answer == "swap", swap, "after b {opening}: w {answer}");
        // Whatever White played, its player now wins.
        let v = ok(&mut gtp, "solve");
        assert!(v.starts_with("loss "), "after b {opening} w {answer}: {v}");
    }
}

/// Runs `crosscut-map` with `args`: (exit code, stdout).
fn map_tool(args: &[&str]) -> (i32, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_crosscut-map"))
        .args(args)
        .output()
        .expect("crosscut-map runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Runs `crosscut-map` with `args`, which must succeed: its stdout.
fn map_ok(args: &[&str]) -> String {
    let (code, said) = map_tool(args);
    assert_eq!(code, 0, "{args:?}: {said}");
    said
}

/// An empty folder for a map's jobs, `tag` and the process id, and its
/// path as an argument.
fn fresh_dir(tag: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.display().to_string();
    (dir, out)
}

/// The map arguments of Hex `size`×`size`, swap off, by colour.
fn hex_map_game(size: &str) -> [&str; 8] {
    [
        "--game", "hex", "--size", size, "--option", "swap=off", "--by", "color",
    ]
}

/// The map arguments of blank Onyx 4×4, swap off, by colour.
fn onyx4_map_game() -> [&'static str; 10] {
    [
        "--game",
        "onyx",
        "--size",
        "4",
        "--option",
        "start=blank",
        "--option",
        "swap=off",
        "--by",
        "color",
    ]
}

/// `crosscut-map list` of `game`, which must succeed.
fn listed_openings(game: &[&str]) -> String {
    let (code, listed) = map_tool(&[&["list"], game].concat());
    assert_eq!(code, 0, "{listed}");
    listed
}

/// Two unknown twins retried: only the first in board order is solved
/// again; the other stays a copy of it (0 nodes), and `merge` gives the
/// copy its twin's latest result, turned (Hex 5×5, c1 and its half-turn c5,
/// first left unknown by a one-node limit).
#[test]
fn a_retry_solves_one_of_two_twins_and_merge_reads_it() {
    let (dir, out) = fresh_dir("crosscut-twin-retry");
    let game = hex_map_game("5");
    let solve = |opening: &str, more: &[&str]| {
        let (code, said) = map_tool(
            &[
                &["solve"],
                &game[..],
                &["--out", &out, "--opening", opening],
                more,
            ]
            .concat(),
        );
        assert_eq!(code, 0, "{said}");
        said
    };
    assert!(solve("c1", &["--nodes", "1"]).contains("unknown nodes 1"));
    assert!(solve("c5", &["--nodes", "1"]).contains("unknown as its twin c1"));
    // Retried, c5 waits for c1's retry: a copy again, not a solve.
    let said = solve("c5", &["--retry-unknown", "--time", "60"]);
    assert!(said.contains("unknown as its twin c1"), "{said}");
    let said = solve("c1", &["--retry-unknown", "--time", "60"]);
    assert!(said.starts_with("c1: loss nodes"), "{said}");
    let job = std::fs::read_to_string(dir.join("job-c5.txt")).expect("c5's file");
    assert!(
        job.contains("value=unknown") && job.contains("twin=c1"),
        "{job}"
    );
    // The merge reads c1's result for c5, its refutation turned (b4's
    // half-turn on 5×5 is d2), whichever the job files say.
    let (_, map) = map_tool(&["merge", "--out", &out]);
    let reply = |o: &str| {
        let line = map
            .lines()
            .find(|l| l.starts_with(&format!("{o} ")))
            .unwrap_or_else(|| panic!("{o}: {map}"));
        assert!(line.contains(" loss reply "), "{line}");
        line.split_whitespace().nth(3).expect("a reply").to_string()
    };
    let (r1, r5) = (reply("c1"), reply("c5"));
    let hex = Hex::new(5).unwrap();
    let turned = hex
        .symmetric_move(hex.parse_move(&r1).unwrap())
        .expect("a twin");
    assert_eq!(hex.format_move(turned), r5, "{map}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Twins in a map: on Hex's empty board and Onyx's blank start the
/// half-turn maps each opening to another, so a job whose twin is solved
/// takes its result, turned, without solving (Hex 4×4's 16 openings and
/// Onyx 4×4's 20, one after another: the second half are twins); each
/// twin's value is its own solve's, and a turned refutation refutes. A
/// position without a symmetry has none.
#[test]
fn a_map_takes_each_twins_result_turned() {
    let hex = hex_map_game("4");
    twins_take_turned_results(
        "crosscut-twins",
        &hex,
        &[
            "game hex",
            "boardsize 4",
            "swap off",
            "param solve_by color",
        ],
        16,
        "d4 loss reply",
    );
    let onyx = onyx4_map_game();
    twins_take_turned_results(
        "crosscut-twins-onyx",
        &onyx,
        &[
            "game onyx",
            "boardsize 4",
            "start blank",
            "swap off",
            "param solve_by color",
        ],
        20,
        "D4 loss reply B3 as its twin A1",
    );
    // The half-turn is named only while the position is its own.
    let mut hex = Hex::new(4).unwrap();
    let a1 = hex.parse_move("a1").unwrap();
    let d4 = hex.parse_move("d4").unwrap();
    assert!(hex.symmetric_move(a1) == Some(d4));
    hex.play(a1);
    assert!(hex.symmetric_move(hex.parse_move("b2").unwrap()).is_none());
    let mut onyx = Onyx::new(4, Start::Blank).unwrap();
    let a1 = onyx.parse_move("A1").unwrap();
    let d4 = onyx.parse_move("D4").unwrap();
    assert!(onyx.symmetric_move(a1) == Some(d4));
    assert!(onyx.symmetric_move(onyx.parse_move("BC12").unwrap()) == onyx.parse_move("BC34").ok());
    onyx.play(a1);
    assert!(
        onyx.symmetric_move(onyx.parse_move("B2").unwrap())
            .is_none()
    );
}

/// The map of `game` (`openings` of them), one job after another: half
/// the jobs take a twin's result; each such value is its twin's and the
/// solve's of the position after the opening (set up in GTP by `setup`),
/// and a turned refutation refutes. `expect` is a line of the map.
fn twins_take_turned_results(
    tag: &str,
    game: &[&str],
    setup: &[&str],
    openings: usize,
    expect: &str,
) {
    let (dir, out) = fresh_dir(tag);
    let listed = listed_openings(game);
    let listed: Vec<&str> = listed.lines().collect();
    assert_eq!(listed.len(), openings);
    let mut turned = 0;
    for o in &listed {
        let (code, said) = map_tool(&[&["solve"], game, &["--out", &out, "--opening", o]].concat());
        assert_eq!(code, 0, "{said}");
        turned += usize::from(said.contains("as its twin"));
    }
    assert_eq!(turned, openings / 2);
    let (code, map) = map_tool(&["merge", "--out", &out]);
    assert_eq!(code, 0, "{map}");
    assert!(map.contains(expect), "{map}");
    let mut gtp = Gtp::new();
    for c in setup {
        ok(&mut gtp, c);
    }
    for line in map.lines().filter(|l| l.contains(" as its twin ")) {
        let w: Vec<&str> = line.split_whitespace().collect();
        let (opening, value) = (w[0], w[1]);
        let twin = w[w.len() - 1];
        // The twin's line has the same value, from a solve of its own.
        assert!(
            map.lines()
                .any(|l| l.starts_with(&format!("{twin} {value}")) && l.contains(" nodes ")),
            "{line}\n{map}"
        );
        // The position after the opening, solved here, has that value.
        ok(&mut gtp, "clear_board");
        ok(&mut gtp, &format!("play b {opening}"));
        let solved = ok(&mut gtp, "solve");
        let expected = if value == "win" { "loss" } else { "win" };
        assert!(solved.starts_with(expected), "{opening}: {solved}");
        // A turned refutation refutes.
        if let Some(i) = w.iter().position(|&x| x == "reply") {
            ok(&mut gtp, &format!("play w {}", w[i + 1]));
            let after = ok(&mut gtp, "solve");
            assert!(after.starts_with("loss"), "{opening} {}: {after}", w[i + 1]);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An opening map as jobs: `list` gives the openings, each `solve` job
/// writes its own file (run with GNU parallel two at a time when it is
/// installed, else one after another), a job already done is skipped,
/// `--index` picks the K-th opening, and `merge` writes the map, which
/// equals `solve_all` of the same position, opening by opening.
#[test]
fn opening_map_jobs_merge_into_the_map_of_solve_all() {
    let (dir, out) = fresh_dir("crosscut-map");
    let game = hex_map_game("3");
    let listed = listed_openings(&game);
    let openings: Vec<&str> = listed.lines().collect();
    assert_eq!(openings.len(), 9, "{listed}");
    // One job by its index, as a job array would run it.
    let (code, said) =
        map_tool(&[&["solve"], &game[..], &["--out", &out, "--index", "4"]].concat());
    assert_eq!(code, 0, "{said}");
    assert!(said.starts_with("b2: win"), "{said}");
    let parallel = std::process::Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if parallel {
        let mut child = std::process::Command::new("parallel")
            .args(["-j2", env!("CARGO_BIN_EXE_crosscut-map"), "solve"])
            .args(game)
            .args(["--out", &out, "--opening", "{}"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("parallel starts");
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(listed.as_bytes())
            .unwrap();
        let done = child.wait_with_output().unwrap();
        assert!(done.status.success());
        let text = String::from_utf8_lossy(&done.stdout);
        // The job done before was not solved again.
        assert!(text.contains("b2: already solved (win)"), "{text}");
    } else {
        eprintln!("GNU parallel is not installed: the jobs run one after another");
        for o in &openings {
            let (code, _) =
                map_tool(&[&["solve"], &game[..], &["--out", &out, "--opening", o]].concat());
            assert_eq!(code, 0);
        }
    }
    let (code, map) = map_tool(&["merge", "--out", &out]);
    assert_eq!(code, 0, "{map}");
    assert!(std::fs::read_to_string(dir.join("map.txt")).unwrap() == map);
    // The map's values are those of solve_all, for the player who opened.
    let mut gtp = Gtp::new();
    for c in [
        "game hex",
        "boardsize 3",
        "swap off",
        "param solve_by color",
    ] {
        ok(&mut gtp, c);
    }
    let all = ok(&mut gtp, "solve_all");
    let mut won = Vec::new();
    for line in all.lines() {
        let mut w = line.split_whitespace();
        let (mv, value) = (w.next().unwrap(), w.next().unwrap());
        assert!(
            map.lines().any(|l| l.starts_with(&format!("{mv} {value}"))),
            "{mv} {value} not in\n{map}"
        );
        if value == "win" {
            won.push(mv);
        }
    }
    // The swap: the second player takes over exactly the won openings, and
    // the first player loses, as a solve with the swap by player says.
    let swap_line = map
        .lines()
        .find(|l| l.starts_with("# with the swap:"))
        .unwrap_or_else(|| panic!("no swap line in\n{map}"));
    let after = |what: &str| -> Vec<String> {
        let rest = &swap_line[swap_line.find(what).unwrap() + what.len()..];
        let list = rest
            .split(" and ")
            .next()
            .unwrap()
            .split(';')
            .next()
            .unwrap();
        list.split_whitespace().map(str::to_string).collect()
    };
    let mut swapped = after("won openings: ");
    swapped.sort();
    won.sort();
    assert_eq!(swapped, won, "{swap_line}");
    assert!(
        swap_line.ends_with("the start is lost for the first player"),
        "{swap_line}"
    );
    for c in ["swap on", "param solve_by player"] {
        ok(&mut gtp, c);
    }
    let start = ok(&mut gtp, "solve");
    assert!(start.starts_with("loss"), "{start}");
    // A missing job: merge says which and fails.
    std::fs::remove_file(dir.join("job-a1.txt")).unwrap();
    let (code, map) = map_tool(&["merge", "--out", &out]);
    assert_eq!(code, 1);
    assert!(map.contains("a1 missing"), "{map}");
    assert!(
        map.contains("the start is at best a draw for the first player (1 undecided)"),
        "{map}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A split opening: `list --opening` gives its answers, each answer is a
/// job of its own (`--answer`, or `--answer-index` as a job array runs
/// them), and `merge` decides the opening from them where its own job
/// left it unknown: lost with the first refuting answer in board order,
/// won when every answer lost, unknown while one is missing, and its
/// twin's copy follows. Checked against each opening's own solve: Hex
/// 5×5 by colour (c1 lost, c2 won, c5 the half-turn of c1), and Hex 3×3
/// with swap by player, where the swap is an answer.
#[test]
fn a_split_opening_is_decided_by_its_answers() {
    let (dir, out) = fresh_dir("crosscut-split");
    let (whole_dir, whole) = fresh_dir("crosscut-split-whole");
    let game = hex_map_game("5");
    let run = map_ok;
    let solve = |dir: &str, opening: &str, more: &[&str]| {
        run(&[
            &["solve"],
            &game[..],
            &["--out", dir, "--opening", opening],
            more,
        ]
        .concat())
    };
    let line_of = |map: &str, o: &str| {
        map.lines()
            .find(|l| l.starts_with(&format!("{o} ")))
            .unwrap_or_else(|| panic!("{o}: {map}"))
            .to_string()
    };
    for o in ["c1", "c2"] {
        // The opening's own solve, for comparison, and a job left unknown.
        solve(&whole, o, &["--time", "60"]);
        assert!(solve(&out, o, &["--nodes", "1"]).contains("unknown"));
        let listed = run(&[&["list"], &game[..], &["--opening", o]].concat());
        let answers: Vec<&str> = listed.lines().collect();
        assert_eq!(answers.len(), 24, "{listed}");
        for (k, a) in answers.iter().enumerate() {
            // Every other answer with play's connections: the same values.
            let play: &[&str] = if k % 2 == 1 {
                &["--param", "solve_play_knowledge=true"]
            } else {
                &[]
            };
            let said = solve(
                &out,
                o,
                &[&["--answer-index", &k.to_string()][..], play].concat(),
            );
            assert!(said.starts_with(&format!("{o} {a}: ")), "{said}");
            if k == 0 {
                // Half the answers: the opening stays unknown.
                let (_, map) = map_tool(&["merge", "--out", &out]);
                assert!(
                    line_of(&map, o).starts_with(&format!("{o} unknown")),
                    "{map}"
                );
            }
        }
        // Done once, never twice.
        let said = solve(&out, o, &["--answer", answers[0]]);
        assert!(said.contains("already solved"), "{said}");
    }
    // An answer splits the same way: c2 a1 left unknown is decided by
    // the one job below it that wins for the opener (the move its own
    // solve named), a line of three moves.
    let a1 = std::fs::read_to_string(dir.join("job-c2-a1.txt")).unwrap();
    assert!(a1.contains("answer=a1\nvalue=win\n"), "{a1}");
    let win = job_reply(&dir, "c2-a1");
    std::fs::remove_file(dir.join("job-c2-a1.txt")).unwrap();
    assert!(solve(&out, "c2", &["--answer", "a1", "--nodes", "1"]).contains("unknown"));
    let said = solve(&out, "c2", &["--answer", &format!("a1 {win}")]);
    assert!(said.starts_with(&format!("c2 a1 {win}: win ")), "{said}");
    assert!(dir.join(format!("job-c2-a1-{win}.txt")).exists());
    // c5, the half-turn of c1, has no job: it takes its split twin's
    // result all the same (checked below).
    let (_, map) = map_tool(&["merge", "--out", &out]);
    let (_, whole_map) = map_tool(&["merge", "--out", &whole]);
    let c1 = line_of(&map, "c1");
    assert!(
        c1.contains(" loss reply ") && c1.ends_with("answers 24/24"),
        "{map}"
    );
    assert!(
        line_of(&whole_map, "c1").contains(" loss reply "),
        "{whole_map}"
    );
    let c2 = line_of(&map, "c2");
    assert!(
        c2.starts_with("c2 win ") && c2.ends_with("answers 24/24"),
        "{map}"
    );
    assert!(
        line_of(&whole_map, "c2").starts_with("c2 win "),
        "{whole_map}"
    );
    // The refutation is the first answer in board order after which the
    // opener loses, as that answer's own job says; c5 takes it turned.
    let reply = c1.split_whitespace().nth(3).unwrap().to_string();
    let job = std::fs::read_to_string(dir.join(format!("job-c1-{reply}.txt"))).unwrap();
    assert!(job.contains("value=loss"), "{job}");
    let hex = Hex::new(5).unwrap();
    let twin = hex.symmetric_move(hex.parse_move(&reply).unwrap()).unwrap();
    assert!(
        line_of(&map, "c5").starts_with(&format!(
            "c5 loss reply {} as its twin c1",
            hex.format_move(twin)
        )),
        "{map}"
    );
    // A split line's proof: the position and the proofs of the moves
    // that decide it (c1: the refutation's; c2: all 24 answers', c2 a1's
    // from the move below it).
    let proof_in_map = |o: &str| -> u64 {
        let line = line_of(&map, o);
        let words: Vec<&str> = line.split_whitespace().collect();
        let k = words.iter().position(|w| *w == "proof").expect(&line);
        words[k + 1].parse().unwrap()
    };
    assert_eq!(
        proof_in_map("c1"),
        1 + job_proof(&dir, &format!("c1-{reply}"))
    );
    let c2_answers = run(&[&["list"], &game[..], &["--opening", "c2"]].concat());
    let c2_proofs: u64 = c2_answers
        .lines()
        .map(|a| match a {
            "a1" => 1 + job_proof(&dir, &format!("c2-a1-{win}")),
            _ => job_proof(&dir, &format!("c2-{a}")),
        })
        .sum();
    assert_eq!(proof_in_map("c2"), 1 + c2_proofs, "{map}");
    // An answer's job that contradicts a decided opening is an error.
    solve(&out, "c1", &["--retry-unknown", "--time", "60"]);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("job-c1-") {
            let text = std::fs::read_to_string(&path).unwrap();
            std::fs::write(&path, text.replace("value=loss", "value=win")).unwrap();
        }
    }
    let (code, _) = map_tool(&["merge", "--out", &out]);
    assert_eq!(code, 2, "a disagreement must fail the merge");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&whole_dir);

    // Swap is an answer: Hex 3×3 with swap, by player.
    let (dir, out) = fresh_dir("crosscut-split-swap");
    let game = [
        "--game", "hex", "--size", "3", "--option", "swap=on", "--by", "player",
    ];
    let listed = run(&[&["list"], &game[..], &["--opening", "b2"]].concat());
    assert!(listed.lines().any(|l| l == "swap"), "{listed}");
    for a in listed.lines() {
        run(&[
            &["solve"],
            &game[..],
            &["--out", &out, "--opening", "b2", "--answer", a],
        ]
        .concat());
    }
    let (_, map) = map_tool(&["merge", "--out", &out]);
    let (_, whole_map) = {
        run(&[
            &["solve"],
            &game[..],
            &["--out", &format!("{out}-whole"), "--opening", "b2"],
        ]
        .concat());
        map_tool(&["merge", "--out", &format!("{out}-whole")])
    };
    assert!(
        line_of(&map, "b2").starts_with("b2 loss reply swap "),
        "{map}"
    );
    assert!(
        line_of(&whole_map, "b2").starts_with("b2 loss reply swap "),
        "{whole_map}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(format!("{out}-whole"));
}

/// A line left undecided takes the value of another line that reached the
/// same position (by colour): Hex 5×5, the won opening c2 split into its
/// answers, b1 left unknown and the line after the opener's winning reply
/// R split into its answers but a1, which has no job; c2 a1 R b1, the same
/// stones, is decided by its own job, so `merge` decides c2. Without that
/// job c2 stays unknown, `scripts/split-line.sh` on c2 b1 R leaves a1
/// alone, and two lines to one position decided differently fail the
/// merge.
#[test]
fn a_line_takes_the_value_of_its_transposition() {
    let (dir, out) = fresh_dir("crosscut-transposed");
    let (whole_dir, whole) = fresh_dir("crosscut-transposed-whole");
    let game = hex_map_game("5");
    let run = map_ok;
    let solve = |dir: &str, line: &[&str], more: &[&str]| {
        let mut args: Vec<&str> =
            [&["solve"], &game[..], &["--out", dir, "--opening", line[0]]].concat();
        let answer = line[1..].join(" ");
        if !answer.is_empty() {
            args.extend(["--answer", &answer]);
        }
        args.extend(more);
        run(&args)
    };
    let listed = |line: &[&str]| {
        let mut args: Vec<&str> = [&["list"], &game[..], &["--opening", line[0]]].concat();
        let answer = line[1..].join(" ");
        if !answer.is_empty() {
            args.extend(["--answer", &answer]);
        }
        run(&args).lines().map(str::to_string).collect::<Vec<_>>()
    };
    let unknown = ["--nodes", "1"];
    // The opener's winning reply to b1, from that line's own solve.
    assert!(solve(&whole, &["c2", "b1"], &[]).contains(": win "));
    let r = job_reply(&whole_dir, "c2-b1");
    assert!(r != "a1", "the test needs a1 free after c2 b1 {r}");
    assert!(solve(&out, &["c2"], &unknown).contains("unknown"));
    for a in listed(&["c2"]) {
        if a != "b1" {
            solve(&out, &["c2", &a], &[]);
        }
    }
    assert!(solve(&out, &["c2", "b1"], &unknown).contains("unknown"));
    // c2 b1 R has no job of its own, nor has c2 b1 R a1.
    for a in listed(&["c2", "b1", &r]) {
        if a != "a1" {
            solve(&out, &["c2", "b1", &r, &a], &[]);
        }
    }
    let line_of = |map: &str| {
        map.lines()
            .find(|l| l.starts_with("c2 "))
            .unwrap_or_else(|| panic!("{map}"))
            .to_string()
    };
    let (_, map) = map_tool(&["merge", "--out", &out]);
    assert!(line_of(&map).starts_with("c2 unknown "), "{map}");
    // The transposition, decided by its own job.
    assert!(solve(&out, &["c2", "a1", &r, "b1"], &[]).contains(": win "));
    let (_, map) = map_tool(&["merge", "--out", &out]);
    let c2 = line_of(&map);
    assert!(
        c2.starts_with("c2 win ") && c2.ends_with("answers 24/24"),
        "{map}"
    );
    let note = format!("# c2 b1 {r} a1: by transposition, as c2 a1 {r} b1");
    assert!(map.lines().any(|l| l == note), "{map}");
    // split-line.sh solves no answer decided by transposition.
    let line = format!("b1 {r}");
    let (code, said) = split_line(&[
        "--size",
        "5",
        "--out",
        &out,
        "--no-hint",
        "--short",
        "60",
        "--long",
        "60",
        "--hash",
        "64",
        "c2",
        &line,
    ]);
    assert_eq!(code, 0, "{said}");
    let skipped = format!("c2 b1 {r} a1: decided by transposition");
    assert!(said.lines().any(|l| l == skipped), "{said}");
    let own_job = dir.join(format!("job-c2-b1-{r}-a1.txt"));
    assert!(!own_job.exists(), "{said}");
    // Both decided, and told apart: the merge fails.
    let own = solve(&out, &["c2", "b1", &r, "a1"], &[]);
    assert!(own.contains(": win "), "{own}");
    let path = dir.join(format!("job-c2-a1-{r}-b1.txt"));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("value=win", "value=loss")).unwrap();
    let (code, _) = map_tool(&["merge", "--out", &out]);
    assert_eq!(code, 2, "two values for one position must fail the merge");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&whole_dir);
}

/// The field `KEY=` of the job file `DIR/job-NAME.txt`.
fn job_field(dir: &std::path::Path, name: &str, key: &str) -> String {
    let path = dir.join(format!("job-{name}.txt"));
    let job = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    job.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no {key} in {path:?}"))
        .to_string()
}

/// The `reply=` of the job file `DIR/job-NAME.txt`: the winning move of
/// the side to move after the job's line.
fn job_reply(dir: &std::path::Path, name: &str) -> String {
    job_field(dir, name, "reply")
}

/// The `proof=` of the job file `DIR/job-NAME.txt`: the proof's size.
fn job_proof(dir: &std::path::Path, name: &str) -> u64 {
    job_field(dir, name, "proof").parse().unwrap()
}

/// Runs `scripts/split-line.sh` with `args` (and this build's binaries):
/// its exit code and what it printed.
fn split_line(args: &[&str]) -> (i32, String) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/split-line.sh");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_crosscut-map"))
        .parent()
        .expect("the binaries' folder")
        .display()
        .to_string();
    let o = std::process::Command::new("bash")
        .arg(script)
        .args(["--bin", &bin])
        .args(args)
        .output()
        .expect("bash runs the script");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

/// `crosscut-map solve --table FILE`: a job stopped by its node limit saves
/// the solver's table, and the retry of the same line goes on from it:
/// the same value as a solve in one go, in fewer nodes than that solve
/// (the job counting both runs); another line's solve refuses the file.
#[test]
fn a_job_left_unknown_goes_on_from_its_saved_table() {
    let (whole_dir, whole) = fresh_dir("crosscut-table-whole");
    let (dir, out) = fresh_dir("crosscut-table-parts");
    let table = dir.join("tables").join("a3.table").display().to_string();
    let game = hex_map_game("6");
    let solve = |out: &str, opening: &str, more: &[&str]| {
        map_tool(
            &[
                &["solve"],
                &game[..],
                &["--out", out, "--opening", opening, "--time", "0"],
                more,
            ]
            .concat(),
        )
    };
    let nodes = |dir: &std::path::Path, line: &str| -> u64 {
        let text = std::fs::read_to_string(dir.join(format!("job-{line}.txt"))).expect("a job");
        text.lines()
            .find_map(|l| l.strip_prefix("nodes="))
            .and_then(|n| n.parse().ok())
            .expect("nodes=")
    };
    let (code, said) = solve(&whole, "a3", &[]);
    assert_eq!(code, 0, "{said}");
    assert!(said.starts_with("a3: win "), "{said}");
    let in_one_go = nodes(&whole_dir, "a3");
    assert!(in_one_go > 1000, "{in_one_go}");
    let first = in_one_go / 2;
    let (code, said) = solve(
        &out,
        "a3",
        &["--nodes", &first.to_string(), "--table", &table],
    );
    assert_eq!(code, 0, "{said}");
    assert!(said.starts_with("a3: unknown "), "{said}");
    assert!(std::path::Path::new(&table).exists());
    // Another line's solve refuses the file, and writes no job.
    let (code, _) = solve(&out, "b3", &["--table", &table]);
    assert_ne!(code, 0);
    assert!(!dir.join("job-b3.txt").exists());
    let (code, said) = solve(&out, "a3", &["--table", &table, "--retry-unknown"]);
    assert_eq!(code, 0, "{said}");
    assert!(said.starts_with("a3: win "), "{said}");
    let both = nodes(&dir, "a3");
    assert!(both > first, "{both}");
    assert!(
        both - first < in_one_go,
        "{both} - {first} against {in_one_go}"
    );
    let _ = std::fs::remove_dir_all(&whole_dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `scripts/split-line.sh --whole S`: the line solved first as one job;
/// when that decides it (Hex 5×5: c2 won, c1 lost, and c1 after White's
/// winning answer still lost), no move of it gets a job of its own, and
/// the map has the line's value. A line one job leaves unknown is split
/// as before.
#[test]
fn the_split_line_script_solves_the_whole_line_first() {
    let (dir, out) = fresh_dir("crosscut-split-whole");
    let split = |args: &[&str]| {
        let fixed = ["--size", "5", "--out", &out, "--no-hint", "--hash", "64"];
        split_line(&[&fixed[..], args].concat())
    };
    let jobs = || {
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .expect("the jobs' folder")
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|n| n.starts_with("job-"))
            .collect();
        names.sort();
        names
    };
    for (o, v) in [("c2", "win"), ("c1", "loss")] {
        let (code, said) = split(&["--whole", "60", o]);
        assert_eq!(code, 0, "{said}");
        assert!(
            said.contains(&format!("{o} decided as one job ({v} for the opener)")),
            "{said}"
        );
        let (_, map) = map_tool(&["merge", "--out", &out]);
        assert!(
            map.lines().any(|l| l.starts_with(&format!("{o} {v} "))),
            "{map}"
        );
    }
    assert_eq!(jobs(), ["job-c1.txt", "job-c2.txt"]);
    // An odd line: c1 and White's winning answer, the opener to move.
    let refutation = job_reply(&dir, "c1");
    let (code, said) = split(&["--whole", "60", "c1", &refutation]);
    assert_eq!(code, 0, "{said}");
    assert!(
        said.contains("decided as one job (loss for the opener)"),
        "{said}"
    );
    assert_eq!(jobs().len(), 3, "{:?}", jobs());
    // A line its one job leaves unknown (every solve held to one node) is
    // split as before.
    let (dir1, out1) = fresh_dir("crosscut-split-whole1");
    let (code, said) = split_line(&[
        "--size",
        "5",
        "--out",
        &out1,
        "--no-hint",
        "--hash",
        "64",
        "--param",
        "solve_nodes=1",
        "--whole",
        "60",
        "--tables",
        &format!("{out1}/tables"),
        "c1",
    ]);
    assert_eq!(code, 0, "{said}");
    // The whole line's job kept its table for the next run.
    assert!(dir1.join("tables/job-c1.table").exists(), "{said}");
    assert!(!said.contains("decided as one job"), "{said}");
    let answers = std::fs::read_dir(&dir1)
        .expect("the jobs' folder")
        .filter(|e| {
            let n = e.as_ref().expect("an entry").file_name();
            n.to_string_lossy().starts_with("job-c1-")
        })
        .count();
    assert!(answers > 0, "{said}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir1);
}

/// `scripts/split-line.sh --game onyx`: the answers to the winning
/// opening C2 of blank 4×4 (by colour) given next to no time, so that
/// most stay unknown, and each of those proved after the reply crosscut's
/// own player suggests; the map then has C2 won, as the opening's own
/// solve does.
#[test]
fn the_split_line_script_splits_an_onyx_line_with_crosscuts_hints() {
    let (dir, out) = fresh_dir("crosscut-split-onyx");
    // Split's game arguments: the map's without swap=off and --by.
    let game = onyx4_map_game();
    let times = [
        "--short",
        "0.001",
        "--long",
        "0.001",
        "--hint",
        "1",
        "--line-time",
        "60",
    ];
    let (code, said) =
        split_line(&[&game[..6], &times, &["--out", &out, "--hash", "64", "C2"]].concat());
    assert_eq!(code, 0, "{said}");
    assert!(said.contains(" : crosscut "), "no hint asked: {said}");
    let answers = listed_openings(&[&game[..], &["--opening", "C2"]].concat());
    let (_, map) = map_tool(&["merge", "--out", &out]);
    let want = format!("answers {n}/{n}", n = answers.lines().count());
    let line = map
        .lines()
        .find(|l| l.starts_with("C2 "))
        .unwrap_or_else(|| panic!("{map}"));
    assert!(
        line.starts_with("C2 win ") && line.ends_with(&want),
        "{map}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `scripts/split-line.sh` (without its Benzene step) splits a line into
/// its answers and leaves the map deciding it as the line's own solve
/// does: Hex 5×5 by colour, the won opening c2 (each answer a job) and
/// the lost c1 (the split stops at the answer that wins); a second run
/// solves nothing again; a line that leaves the opener to move is split
/// into the opener's replies (after c1 and White's winning answer all
/// lose; after c2 b1 the split stops at the first that wins).
#[test]
fn the_split_line_script_decides_a_line() {
    let (dir, out) = fresh_dir("crosscut-split-script");
    let (whole_dir, whole) = fresh_dir("crosscut-split-script-whole");
    let game = hex_map_game("5");
    let split = |args: &[&str]| {
        let fixed = ["--size", "5", "--out", &out, "--no-hint"];
        split_line(
            &[
                &fixed[..],
                &["--short", "60", "--long", "60", "--hash", "64"],
                args,
            ]
            .concat(),
        )
    };
    for o in ["c1", "c2"] {
        let (code, said) = split(&[o]);
        assert_eq!(code, 0, "{said}");
        let solved = said
            .lines()
            .filter(|l| l.starts_with(&format!("{o} ")))
            .count();
        if o == "c2" {
            assert_eq!(solved, 24 + 1, "{said}");
        } else {
            // The lost opening: the split stops at the answer that wins.
            assert!(solved < 24 + 1, "{said}");
            assert!(said.contains("refutes the line"), "{said}");
        }
        let (code, said) =
            map_tool(&[&["solve"], &game[..], &["--out", &whole, "--opening", o]].concat());
        assert_eq!(code, 0, "{said}");
        let (_, map) = map_tool(&["merge", "--out", &out]);
        let (_, whole_map) = map_tool(&["merge", "--out", &whole]);
        let value = |map: &str| {
            map.lines()
                .find(|l| l.starts_with(&format!("{o} ")))
                .and_then(|l| l.split_whitespace().nth(1))
                .map(str::to_string)
                .unwrap_or_else(|| panic!("{o}: {map}"))
        };
        assert_eq!(value(&map), value(&whole_map), "{map}\n{whole_map}");
        assert_eq!(value(&map), if o == "c2" { "win" } else { "loss" });
        if o == "c2" {
            assert!(map.contains("answers 24/24"), "{map}");
        }
    }
    assert!(
        split(&["c2"])
            .1
            .lines()
            .filter(|l| l.contains("already solved"))
            .count()
            == 24
    );
    // A line that leaves the opener to move: each of its replies. After
    // c1 and White's winning answer every reply loses, so the map has c1
    // lost from that line alone.
    let refutation = job_reply(&whole_dir, "c1");
    let (odd_dir, odd) = fresh_dir("crosscut-split-script-odd");
    let split_odd = |args: &[&str]| {
        let fixed = ["--size", "5", "--out", &odd, "--no-hint", "--short", "60"];
        split_line(&[&fixed[..], args].concat())
    };
    let (code, said) = split_odd(&["c1", &refutation]);
    assert_eq!(code, 0, "{said}");
    let prefix = format!("c1 {refutation} ");
    let replies = said.lines().filter(|l| l.starts_with(&prefix));
    assert_eq!(replies.clone().count(), 23, "{said}");
    assert!(replies.clone().all(|l| l.contains(": loss ")), "{said}");
    let (_, map) = map_tool(&["merge", "--out", &odd]);
    assert!(map.lines().any(|l| l.starts_with("c1 loss ")), "{map}");
    // After c2 b1 the opener has a winning reply: the split stops there.
    let (code, said) = split_odd(&["c2", "b1"]);
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("wins the line for the opener"), "{said}");
    let won: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("c2 b1 ") && l.contains(": win "))
        .collect();
    assert_eq!(won.len(), 1, "{said}");
    let last = said.lines().rfind(|l| l.starts_with("c2 b1 "));
    assert_eq!(last, Some(won[0]), "no reply solved after the win: {said}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&whole_dir);
    let _ = std::fs::remove_dir_all(&odd_dir);
}
