//! df-pn: depth-first proof-number search (Nagai 2002) with the 1+ε
//! threshold trick (Pawlewicz and Lew 2007), generic over a [`Game`].
//!
//! # The question
//!
//! One search answers "can the *attacker* force a win from here?". A
//! *proof* is a forced win for the attacker in a finite number of moves;
//! a *disproof* means the attacker has no forced win (the defender wins,
//! or draws: Akron's repetition, Onyx's endless play). [`Solver::solve`]
//! asks the question for both colours: the side to move wins if it is
//! proven for it, loses if it is proven for the opponent, and the position
//! is a draw if both are disproved. In a game without draws
//! ([`Game::DECISIVE`](crate::game::Game::DECISIVE): Hex, Orcoon) one
//! search is enough: the side to move's disproof is its loss.
//!
//! The numbers are kept in the φ/δ form: at every node φ is the proof
//! number of the side to move ("the side to move gets what it wants")
//! and δ its disproof number. What the side to move wants is a win when it
//! is the attacker, and anything but the attacker's win when it is the
//! defender. φ(n) = min δ(child), δ(n) = Σ φ(child).
//!
//! # Cycles (Onyx, Akron) and why the treatment is sound
//!
//! A position repeated on the current path (the positions from the root
//! of this search to the node) is scored as **not a win for the attacker**:
//! the defender is happy to repeat. Every result carries the smallest path
//! index of a repeated position it depended on (`rep`; positions are
//! numbered from 1 at the root, and 0 stands for the history before the
//! root: a draw that the rules themselves declared, Akron's threefold
//! repetition, counts the whole game's history). A node at path index `d`:
//!
//! - stores a **proof** always. A proof never goes through a repetition
//!   (a repeated position is never a win for the attacker), so it is a
//!   finite winning strategy: its leaves are wins by the rules, or proofs
//!   already stored. It holds whatever the path to the node.
//! - stores a **disproof** only when its `rep` is at least `d` (it relied
//!   on nothing repeated above the node). Otherwise the disproof is
//!   *path-dependent*: it is returned to the parent, which keeps it for
//!   that child only while it searches (the path above the child does not
//!   change during the parent's loop), and it is never written to the
//!   table.
//!
//! Why a disproof with `rep ≥ d` is right from every path: let the
//! attacker truly win at n (n in the attacker's attractor; a rank that
//! strictly drops along the attacker's winning strategy). Follow that
//! strategy against the defender's replies that the disproof names. The
//! line's positions have strictly decreasing rank, so none repeats another
//! position of the line from n on. The line must end at a disproved leaf:
//! not a terminal position (the attacker would have won), not a stored
//! disproof (stored disproofs are true, by induction), so a repetition of
//! a position on the path — which cannot be at index ≥ d. Hence `rep < d`,
//! a contradiction. Conversely the search at the root (index 1) is exact:
//! a root disproof with any `rep ≥ 1` is a true "no forced win", and a
//! `rep` of 0 (a draw declared by the rules from the history before the
//! root) is still exact for this game's history, just not stored.
//!
//! Non-final proof and disproof numbers in the table are only estimates
//! guiding the search; they may come from path-dependent values.
//!
//! # Swap
//!
//! After Black's first move White may answer `swap`: the board and the
//! colour to move stay as they were, and the players exchange colours.
//! By default ([`SolveLimits::by_player`]) wins are counted for the
//! player, as the game is played: the swap changes the attacker's colour
//! for the rest of the line (and the table key with it). Counted by
//! colour, the swap is a move after which the same colour moves again;
//! φ and δ of such a child are exchanged. The two counts have separate
//! tables (changing it clears the table).
//!
//! # Knowledge that steers without deciding
//!
//! Besides what decides positions (wins seen without search, moves pruned),
//! a game's [`Knowledge`] may order a node's moves best first
//! ([`Knowledge::order_moves`], used by default: among children of equal
//! numbers the first is searched) and estimate a new position's φ and δ
//! ([`Knowledge::estimate`], with [`SolveLimits::estimates`]: df-pn+,
//! kept within 1 ..= [`MAX_ESTIMATE`]). Neither is ever 0 or infinite,
//! so neither can prove or disprove anything: only the nodes searched
//! change.
//!
//! # The proof's size
//!
//! After a win or a loss, [`Solver::proof_size`] counts the proof the
//! table holds (one attacker move at each of its positions, every kept
//! defender move), as `solve` reports it.
//!
//! # The table
//!
//! Entries are keyed by the position's hash (which includes the side to
//! move) mixed with the attacker's colour, in buckets of four. In a game
//! without draws the attacker is left out of the key: there "anything but
//! the attacker's win" is the defender's win, so at every node φ is the
//! proof number of "the side to move wins" whoever attacks, and the two
//! colours' searches share their entries (a disproof for one is the
//! other's proof; the proof's count and the strategies read it so). When a
//! bucket is full the unproven entry that cost the fewest nodes is
//! replaced; a proof or disproof is never evicted for an unproven entry
//! (a bucket of four proofs drops a new unproven entry, and takes a new
//! proof in place of its cheapest one), so the table degrades gracefully
//! when full and keeps what it proved. Proven results stay valid
//! across calls; the session keeps the table between `solve` commands and
//! clears it on a new game.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, BufRead, Read, Write};
use std::time::{Duration, Instant};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::Knowledge;
use super::expansions::Expansions;
use super::knowledge::MAX_ESTIMATE;
use crate::game::{Color, Effort, Outcome};

/// A hasher for keys that are already Zobrist hashes: the key itself.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The positions on the current path: hash → path index.
type PathMap = HashMap<u64, u32, BuildHasherDefault<Identity>>;

/// Proof-number infinity.
pub const INF: u32 = u32::MAX / 4;

/// `rep` of a result that depends on no repetition.
const GENUINE: u32 = u32::MAX;

/// Mixed into the key when White is the attacker.
const WHITE_ATTACKER: u64 = 0x5bd1_e995_7f4a_7c15;

/// How often (in nodes) the clock is read: a node plays all its moves,
/// which on a large board takes tens of microseconds.
const CHECK_EVERY: u64 = 64;

/// How often (in children) the limits are read while a node is expanded:
/// on a large board with the game's knowledge a child can take a fraction
/// of a millisecond, and a node hundreds of children.
const CHECK_CHILDREN: usize = 8;

/// The limits of one solve.
#[derive(Clone, Debug)]
pub struct SolveLimits {
    /// Stop after this many nodes (`None`: no limit).
    pub nodes: Option<u64>,
    /// Stop after this long from `start` (`None`: no limit).
    pub time: Option<Duration>,
    /// When the solve began.
    pub start: Instant,
    /// Whom a win is counted for across a swap: the *player* (`true`, the
    /// game as played: the swap exchanges the players' colours, so the
    /// attacker's colour changes with it) or the *colour* (`false`: the
    /// swap, which changes neither the board nor the colour to move, is
    /// then a move that hands the same colour the turn again).
    pub by_player: bool,
    /// Whether the game's [`Knowledge`] is used in this solve (with
    /// [`Solver::use_knowledge`]); `false`: plain df-pn.
    pub knowledge: bool,
    /// Whether new children's proof and disproof numbers come from the
    /// game's estimates ([`Knowledge::estimate`], with the knowledge) rather
    /// than 1: df-pn+. Changes the nodes searched, never a value.
    pub estimates: bool,
    /// Whether the knowledge is asked in the form the game's player uses
    /// where the game has a richer, dearer one than its proofs'
    /// ([`Knowledge::use_play_knowledge`]; Hex: play's connections;
    /// Onyx: H-search's combined connections).
    /// Changes the nodes searched and their cost, never a value.
    pub play_knowledge: bool,
    /// Stops the solve when set (the protocol's `stop`, end of input).
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl SolveLimits {
    /// No limit at all, from now.
    pub fn unlimited() -> SolveLimits {
        SolveLimits {
            nodes: None,
            time: None,
            start: Instant::now(),
            by_player: true,
            knowledge: true,
            estimates: false,
            play_knowledge: false,
            interrupt: None,
        }
    }
}

/// The answer to "can the attacker force a win?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Yes.
    Proven,
    /// No.
    Disproven,
    /// The limits were reached first.
    Unknown,
}

/// The exact value of a position for the side it was asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveValue<M> {
    /// A forced win, starting with this move.
    Win(M),
    /// The opponent forces a win.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// Not decided within the limits.
    Unknown,
}

/// What a solve found, and what it cost.
#[derive(Clone, Debug)]
pub struct SolveReport<M> {
    /// The value.
    pub value: SolveValue<M>,
    /// Nodes expanded.
    pub nodes: u64,
    /// Time spent (with counting the proof).
    pub elapsed: Duration,
    /// The size of the proof of a win or a loss, as the table holds it
    /// ([`Solver::proof_size`]); `None` for a draw or an unknown value,
    /// or when the table no longer holds the whole proof.
    pub proof: Option<u64>,
}

/// What the table holds for a position: φ and δ of the side to move.
#[derive(Clone, Copy)]
struct Entry {
    phi: u32,
    delta: u32,
}

/// The solver's transposition table: buckets of four entries, each two
/// words (the key's top 52 bits with a code of the work in the low 12;
/// φ and δ), a bucket one 64-byte cache line, in zeroed memory from the
/// allocator, so its pages are committed only as the solver touches them.
///
/// Replacement keeps proofs: a new entry takes the slot of the same key,
/// else an empty slot, else the unproven entry that cost the fewest nodes;
/// a bucket holding four proofs takes a new proof in place of its
/// cheapest proof, and drops a new unproven entry. So a proof (or
/// disproof) is never evicted in favour of an estimate, and the table
/// degrades into a store of proofs when full.
///
/// A key is known by its top 52 bits (the bucket is chosen by them too):
/// two positions whose 64-bit hashes share them are taken for one, as two
/// whose whole hashes agree always were. Among the 2^28 entries of a large
/// table, a read finds a stranger's entry with odds of about 2^-50.
struct Table {
    words: Vec<[u64; 2]>,
    /// The first bucket's index in `words`: the one at a cache line's start.
    start: usize,
    buckets: usize,
}

/// The low bits of an entry's first word: the work's code ([`work_code`]);
/// zero in an empty slot.
const WORK_BITS: u32 = 12;
const WORK_MASK: u64 = (1 << WORK_BITS) - 1;

/// The nodes a result cost, in 12 bits, keeping their order: exact below
/// 64, else the leading bit's place and the six bits after it (within
/// 1/64). At least 1, so that a stored entry's code is never 0.
fn work_code(work: u64) -> u64 {
    let work = work.max(1);
    if work < 64 {
        return work;
    }
    let lead = 63 - work.leading_zeros() as u64;
    ((lead - 5) << 6) | (work >> (lead - 6) & 63)
}

/// The least work [`work_code`] gives `code`.
fn work_of(code: u64) -> u64 {
    if code < 64 {
        return code;
    }
    let lead = (code >> 6) + 5;
    (64 | code & 63) << (lead - 6)
}

/// Whether a table slot holds an entry (an empty one is all zero).
fn used(w: &[u64; 2]) -> bool {
    w[0] & WORK_MASK != 0
}

/// Whether a table slot holds the entry of `key` (its top 52 bits).
fn holds(w: &[u64; 2], key: u64) -> bool {
    used(w) && w[0] & !WORK_MASK == key & !WORK_MASK
}

/// Whether a table entry's numbers are final (a proof or a disproof).
fn proven(w: &[u64; 2]) -> bool {
    used(w) && (w[1] as u32 == 0 || (w[1] >> 32) as u32 == 0)
}

impl Table {
    fn with_mb(mb: usize) -> Table {
        Self::with_entries((mb.max(1) << 20) / std::mem::size_of::<[u64; 2]>())
    }

    fn with_entries(n: usize) -> Table {
        let buckets = (n / 4).max(1);
        // Zeroed, so untouched until used: the advice still applies. Three
        // entries more, to start the buckets at a cache line.
        let words = vec![[0u64; 2]; buckets * 4 + 3];
        crate::search::tt::advise_huge_pages(&words);
        let at = words.as_ptr() as usize;
        let start = (0..4)
            .find(|i| (at + 16 * i).is_multiple_of(64))
            .unwrap_or(0);
        Table {
            words,
            start,
            buckets,
        }
    }

    /// How many entries the table holds at most.
    fn capacity(&self) -> usize {
        self.buckets * 4
    }

    /// Where `key`'s bucket starts in `words` (chosen by its top 52 bits).
    fn bucket(&self, key: u64) -> usize {
        let i = (((key & !WORK_MASK) as u128 * self.buckets as u128) >> 64) as usize;
        self.start + i * 4
    }

    fn entry(w: &[u64; 2]) -> Entry {
        Entry {
            phi: w[1] as u32,
            delta: (w[1] >> 32) as u32,
        }
    }

    /// The entries in the buckets, empty ones too.
    fn slots(&self) -> &[[u64; 2]] {
        &self.words[self.start..self.start + self.capacity()]
    }

    /// Asks the processor to bring `key`'s bucket into the cache, for a
    /// read soon after.
    fn prefetch(&self, key: u64) {
        let b = self.bucket(key);
        let bucket = &self.words[b..b + 4];
        crate::search::tt::prefetch(bucket.as_ptr(), std::mem::size_of_val(bucket));
    }

    fn get(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.words[b..b + 4]
            .iter()
            .find(|w| holds(w, key))
            .map(Self::entry)
    }

    fn put(&mut self, key: u64, phi: u32, delta: u32, work: u64) {
        let b = self.bucket(key);
        let bucket = &mut self.words[b..b + 4];
        let new_proven = phi == 0 || delta == 0;
        let slot = match bucket.iter().position(|w| holds(w, key)) {
            // A proof stays (another path's estimate of the same position
            // must not overwrite it).
            Some(i) if proven(&bucket[i]) && !new_proven => return,
            Some(i) => i,
            None => {
                // The cheapest unproven entry goes (an empty one has no
                // work); among four proofs, the cheapest proof, for a proof.
                let victim = (0..4)
                    .filter(|&i| !proven(&bucket[i]))
                    .min_by_key(|&i| bucket[i][0] & WORK_MASK);
                match victim {
                    Some(i) => i,
                    None if new_proven => (0..4)
                        .min_by_key(|&i| bucket[i][0] & WORK_MASK)
                        .unwrap_or(0),
                    None => return,
                }
            }
        };
        let old = if holds(&bucket[slot], key) {
            work_of(bucket[slot][0] & WORK_MASK)
        } else {
            0
        };
        bucket[slot] = [
            key & !WORK_MASK | work_code(work.max(1).saturating_add(old)),
            phi as u64 | (delta as u64) << 32,
        ];
    }

    /// Stores a saved entry (key, φ and δ, work) as `put` would store its
    /// numbers, keeping its work.
    fn restore(&mut self, w: [u64; 3]) {
        let (phi, delta) = (w[1] as u32, (w[1] >> 32) as u32);
        self.put(w[0], phi, delta, w[2]);
    }

    /// The entries in use as saved: key (its top 52 bits), φ and δ, work.
    fn saved(&self) -> impl Iterator<Item = [u64; 3]> + '_ {
        self.slots()
            .iter()
            .filter(|w| used(w))
            .map(|w| [w[0] & !WORK_MASK, w[1], work_of(w[0] & WORK_MASK)])
    }

    /// Entries in use, and how many of them are proofs or disproofs.
    fn counts(&self) -> (usize, usize) {
        let used = self.saved().count();
        let proofs = self.slots().iter().filter(|w| proven(w)).count();
        (used, proofs)
    }
}

/// A child of the node being searched, as the node's loop sees it.
///
/// φ and δ are the child's own when the child's side to move is the
/// node's opponent; when the same side moves again (counting by colour,
/// across a swap) they are exchanged, so that the node's φ is always the
/// least δ of its children.
struct Child<M> {
    mv: M,
    /// Whether φ and δ are exchanged (the same colour moves again and
    /// wins are counted by colour).
    same: bool,
    /// Whether the attacker's colour changes in the child (the swap, when
    /// wins are counted by player).
    flip: bool,
    /// The child's hash, and its key in the table.
    hash: u64,
    key: u64,
    phi: u32,
    delta: u32,
    rep: u32,
    /// Final (terminal, repeated, or solved): not read from the table again.
    fixed: bool,
    /// The child's values should the attacker have no win there
    /// ([`Solver::non_win`]), while its table entry is still to be read
    /// ([`Solver::settle`]).
    pending: Option<(u32, u32)>,
}

/// Writes a move in the game's notation, for the progress lines (the
/// solver itself knows moves only as values).
pub type MoveNames<M> = Box<dyn Fn(M) -> String + Send>;

/// The first line of a saved table ([`Solver::save_table`]).
const TABLE_FORMAT: &[u8] = b"crosscut df-pn table 1\n";

/// The df-pn solver: its table, kept between calls.
pub struct Solver<G: Knowledge> {
    table: Option<Table>,
    hash_mb: usize,
    /// The table's size in entries when set by
    /// [`Solver::set_hash_entries`] (else from `hash_mb`).
    entries: Option<usize>,
    attacker: Color,
    /// Positions on the current path: hash → path index (root = 1).
    path: PathMap,
    /// How nodes were expanded in this proof ([`Expansions`]).
    expansions: Expansions<G::Move>,
    nodes: u64,
    limits: SolveLimits,
    stopped: bool,
    root: (u32, u32),
    /// The attacker at the root (a swap below changes `attacker`).
    root_attacker: Color,
    /// Whether the attacker is to move at the root.
    root_attacker_moves: bool,
    root_best: Option<G::Move>,
    /// The root's moves as its last iteration saw them: (move, proof and
    /// disproof numbers of the move for the side to move at the root).
    root_moves: Vec<(G::Move, u32, u32)>,
    /// How moves are written, when the progress lines list the root's
    /// moves ([`Solver::set_move_names`]).
    move_names: Option<MoveNames<G::Move>>,
    last_report: Instant,
    /// ε of the 1+ε trick as a divisor: a child may grow up to
    /// δ₂ + 1 + δ₂ / `eps_divisor` before its sibling is tried (ε = 1/4).
    eps_divisor: u32,
    /// See [`SolveLimits::by_player`].
    by_player: bool,
    /// Whether the game's [`Knowledge`] is used (on by default; off, the
    /// solver is plain df-pn: what the tests check the knowledge against).
    pub use_knowledge: bool,
    /// Whether the game orders each node's moves
    /// ([`Knowledge::order_moves`], with the knowledge; on by default):
    /// ties between children go to the first.
    pub order: bool,
    /// Whether φ looks at the first children only ([`Solver::window`]),
    /// when the knowledge orders them ([`Knowledge::ORDERS`]; on by
    /// default).
    pub widening: bool,
    /// Whether a node entered again is expanded from memory
    /// ([`Knowledge::ANSWERS_BY_POSITION`]; on by default): the same
    /// tree, without asking the knowledge again.
    pub remember: bool,
    /// Whether a new node's children's table entries are all asked for
    /// (prefetched) before any is read, where the knowledge asks nothing
    /// of a new child ([`Solver::look`]; on by default): the same tree,
    /// with the memory's waits overlapped.
    pub prefetch: bool,
    /// Nodes of the last call expanded from memory.
    remembered: u64,
}

impl<G: Knowledge> Default for Solver<G> {
    fn default() -> Self {
        Self::new(64)
    }
}

impl<G: Knowledge> Solver<G> {
    /// A solver whose table will have `hash_mb` megabytes (allocated at the
    /// first solve).
    pub fn new(hash_mb: usize) -> Solver<G> {
        Solver {
            table: None,
            hash_mb,
            entries: None,
            attacker: Color::Black,
            path: PathMap::default(),
            expansions: Expansions::default(),
            nodes: 0,
            limits: SolveLimits::unlimited(),
            stopped: false,
            root: (1, 1),
            root_attacker: Color::Black,
            root_attacker_moves: true,
            root_best: None,
            root_moves: Vec::new(),
            move_names: None,
            last_report: Instant::now(),
            eps_divisor: 4,
            by_player: true,
            use_knowledge: true,
            order: true,
            widening: true,
            remember: true,
            prefetch: true,
            remembered: 0,
        }
    }

    /// Writes the entries of the table in use to `out`, so that a later
    /// solve of the same position can go on from them
    /// ([`Solver::load_table`]): a first line naming the format, a line
    /// with the count (`by=player` or `by=color`), the line `tag` (what the
    /// caller needs to match on loading: the game, its size and options,
    /// the position), then each entry as three little-endian 64-bit words
    /// (key, φ and δ, work; the key as the table knows it, its low 12
    /// bits zero, and the work within 1/64). Returns the number of entries written.
    pub fn save_table(&self, out: &mut dyn Write, tag: &str) -> io::Result<u64> {
        let mut out = io::BufWriter::new(out);
        out.write_all(TABLE_FORMAT)?;
        let by = if self.by_player { "player" } else { "color" };
        writeln!(out, "by={by}")?;
        writeln!(out, "{}", tag.replace('\n', " "))?;
        let mut written = 0;
        for w in self.table.iter().flat_map(Table::saved) {
            for word in w {
                out.write_all(&word.to_le_bytes())?;
            }
            written += 1;
        }
        out.flush()?;
        Ok(written)
    }

    /// Fills a fresh table of `hash_mb` megabytes with the entries
    /// [`Solver::save_table`] wrote to `input` under `tag`, and takes the
    /// saved count (by player or by colour), so that the next solve of
    /// the same position (with the same count) goes on from where the
    /// saved one stopped: its proofs stand, and its numbers steer the
    /// search as they did. Every entry is stored as when it was found (a
    /// smaller table keeps the proofs first and the costliest of the
    /// rest). Returns the number of entries read; an input of another
    /// format or tag is refused (`InvalidData`), the solver left as it
    /// was.
    pub fn load_table(
        &mut self,
        input: &mut dyn Read,
        tag: &str,
        hash_mb: usize,
    ) -> io::Result<u64> {
        let bad = |what: String| io::Error::new(io::ErrorKind::InvalidData, what);
        let mut input = io::BufReader::new(input);
        let mut line = Vec::new();
        let mut read_line = |input: &mut io::BufReader<&mut dyn Read>| -> io::Result<String> {
            line.clear();
            input.by_ref().take(4096).read_until(b'\n', &mut line)?;
            Ok(String::from_utf8_lossy(&line)
                .trim_end_matches('\n')
                .to_string())
        };
        let format = read_line(&mut input)?;
        if format.as_bytes() != TABLE_FORMAT.strip_suffix(b"\n").unwrap_or(TABLE_FORMAT) {
            return Err(bad("not a saved df-pn table".into()));
        }
        let by_player = match read_line(&mut input)?.as_str() {
            "by=player" => true,
            "by=color" => false,
            other => return Err(bad(format!("a saved table's count is '{other}'"))),
        };
        let saved = read_line(&mut input)?;
        let wanted = tag.replace('\n', " ");
        if saved != wanted {
            return Err(bad(format!(
                "the saved table is of '{saved}', not of '{wanted}'"
            )));
        }
        self.hash_mb = hash_mb;
        self.entries = None;
        self.by_player = by_player;
        self.table = Some(Table::with_mb(hash_mb));
        let table = self.table.as_mut().expect("just made");
        let mut entry = [0u8; 24];
        let mut read = 0;
        loop {
            match input.read_exact(&mut entry) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(e),
            }
            let word = |k: usize| {
                u64::from_le_bytes(entry[8 * k..8 * k + 8].try_into().expect("eight bytes"))
            };
            table.restore([word(0), word(1), word(2)]);
            read += 1;
        }
        Ok(read)
    }

    /// Resizes the table (cleared when the size changes).
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        if hash_mb != self.hash_mb || self.entries.is_some() {
            self.hash_mb = hash_mb;
            self.entries = None;
            self.table = None;
        }
    }

    /// With `names`, each progress report is preceded by a line of the
    /// root's moves and their values for the side to move there: `info
    /// solve moves MOVE VALUE ...`, VALUE being `W` (proven to win), `L`
    /// (proven to lose) or `PN/DN` (the move's proof and disproof numbers,
    /// `inf` for infinity). `None` (the default) writes no such line.
    pub fn set_move_names(&mut self, names: Option<MoveNames<G::Move>>) {
        self.move_names = names;
    }

    /// Sets ε of the 1+ε trick as a divisor: a child may grow up to
    /// δ₂ + 1 + δ₂ / `divisor` before its sibling is tried (the default 4:
    /// ε = 1/4; at least 1).
    pub fn set_eps_divisor(&mut self, divisor: u32) {
        self.eps_divisor = divisor.max(1);
    }

    /// Gives the table room for `entries` entries (rounded down to whole
    /// buckets of four, at least one), cleared: for tests of a table
    /// that overflows. [`Solver::set_hash_mb`] sizes it in megabytes.
    pub fn set_hash_entries(&mut self, entries: usize) {
        self.entries = Some(entries);
        self.table = None;
    }

    /// The table's entries in use, and how many of them hold a proof or a
    /// disproof (both 0 before the first solve).
    pub fn table_counts(&self) -> (usize, usize) {
        self.table.as_ref().map_or((0, 0), Table::counts)
    }

    /// Forgets every result (a new game).
    pub fn clear(&mut self) {
        // Reallocated (zeroed) at the next solve.
        self.table = None;
    }

    /// Nodes expanded by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// How many of the last call's nodes were expanded from memory
    /// ([`Solver::remember`]).
    pub fn remembered(&self) -> u64 {
        self.remembered
    }

    /// The table key of a position: its hash, mixed with the attacker's
    /// colour unless the game is
    /// [`Game::DECISIVE`](crate::game::Game::DECISIVE) (there φ is the
    /// proof number of "the side to move wins" whoever attacks, so the two
    /// colours' searches share their entries).
    fn key(&self, hash: u64) -> u64 {
        match self.attacker {
            Color::White if !G::DECISIVE => hash ^ WHITE_ATTACKER,
            _ => hash,
        }
    }

    fn table(&mut self) -> &mut Table {
        let (mb, entries) = (self.hash_mb, self.entries);
        self.table.get_or_insert_with(|| match entries {
            Some(n) => Table::with_entries(n),
            None => Table::with_mb(mb),
        })
    }

    /// Whether the side to move in `game` is the attacker.
    fn attacker_to_move(&self, game: &G) -> bool {
        game.to_move() == self.attacker
    }

    /// Values of the side to move when the attacker has no win here
    /// (a draw, a repetition, a defender's win): (φ, δ).
    fn non_win(&self, game: &G) -> (u32, u32) {
        if self.attacker_to_move(game) {
            (INF, 0)
        } else {
            (0, INF)
        }
    }

    /// The values of the position `game` is in, as its parent first sees
    /// it. With `defer`, when nothing after the table's entry needs the
    /// position (the knowledge asks no question of a new child here), the
    /// entry is only asked for (prefetched) and read by [`Solver::settle`]
    /// once every child's is on its way: a node's children's entries lie
    /// at random in a large table, and read one by one each waited for
    /// memory.
    fn look(
        &self,
        game: &mut G,
        mv: G::Move,
        same: bool,
        flip: bool,
        defer: bool,
    ) -> Child<G::Move> {
        let hash = game.hash();
        let key = self.key(hash);
        let child = |phi, delta, rep, fixed| {
            let (phi, delta) = if same { (delta, phi) } else { (phi, delta) };
            Child {
                mv,
                same,
                flip,
                hash,
                key,
                phi,
                delta,
                rep,
                fixed,
                pending: None,
            }
        };
        if let Some(o) = game.outcome() {
            if o == Outcome::Win(self.attacker) {
                let (p, d) = self.non_win(game);
                return child(d, p, GENUINE, true);
            }
            let (p, d) = self.non_win(game);
            // A draw the rules declared may come from the history before
            // the root (Akron's threefold repetition).
            let rep = if o == Outcome::Draw { 0 } else { GENUINE };
            return child(p, d, rep, true);
        }
        let knowledge = self.use_knowledge && self.limits.knowledge;
        let asks_position = knowledge && (!G::LAZY || self.limits.estimates);
        let mut c = child(1, 1, GENUINE, false);
        c.pending = Some(self.non_win(game));
        if defer && !asks_position {
            if let Some(t) = &self.table {
                t.prefetch(key);
            }
            return c;
        }
        if self.settle(&mut c) || c.fixed || !knowledge {
            return c;
        }
        if !G::LAZY
            && let Some(winner) = game.forced_winner()
        {
            // Seen without search: as final as a win by the rules.
            let (p, d) = self.non_win(game);
            return if winner == self.attacker {
                child(d, p, GENUINE, true)
            } else {
                child(p, d, GENUINE, true)
            };
        }
        if self.limits.estimates {
            // An estimate steers the search only: never 0 nor infinity.
            let (p, d) = game.estimate();
            let within = |n: u32| n.clamp(1, MAX_ESTIMATE);
            return child(within(p), within(d), GENUINE, false);
        }
        c
    }

    /// Reads the table's entry of a child [`Solver::look`] left pending:
    /// a proof or disproof there is final, then a position on the current
    /// path is a repetition, then the entry's numbers (else 1 and 1).
    /// Whether the table held an entry.
    fn settle(&self, c: &mut Child<G::Move>) -> bool {
        let Some((p, d)) = c.pending.take() else {
            return true;
        };
        let stored = self.table.as_ref().and_then(|t| t.get(c.key));
        let (phi, delta, rep, fixed) = match (stored, self.path.get(&c.hash)) {
            (Some(e), _) if e.phi == 0 || e.delta == 0 => (e.phi, e.delta, GENUINE, true),
            (_, Some(&index)) => (p, d, index, true),
            (Some(e), None) => (e.phi, e.delta, GENUINE, false),
            (None, None) => (1, 1, GENUINE, false),
        };
        (c.phi, c.delta) = if c.same { (delta, phi) } else { (phi, delta) };
        c.rep = rep;
        c.fixed = fixed;
        stored.is_some()
    }

    /// φ, δ and `rep` of a node from its children.
    fn combine(children: &[Child<G::Move>], window: usize) -> (u32, u32, u32) {
        let mut phi = INF;
        let mut delta: u64 = 0;
        for (i, c) in children.iter().enumerate() {
            if i < window || c.delta == 0 {
                phi = phi.min(c.delta);
            }
            delta += c.phi as u64;
        }
        let delta = if children.iter().any(|c| c.phi >= INF) {
            INF
        } else {
            delta.min(INF as u64 - 1) as u32
        };
        let rep = if phi == 0 {
            // The side to move wins: by its least path-dependent winning move.
            children
                .iter()
                .filter(|c| c.delta == 0)
                .map(|c| c.rep)
                .max()
                .unwrap_or(GENUINE)
        } else if phi >= INF {
            // It loses: every move counts.
            children.iter().map(|c| c.rep).min().unwrap_or(GENUINE)
        } else {
            GENUINE
        };
        (phi, delta, rep)
    }

    /// How many children, in order, a node's φ and its choice of child look
    /// at (progressive widening, as Benzene's solver does): the first
    /// `1 + ⌈live / 4⌉` of its `live` children not yet lost, and all of
    /// them when fewer than two are live. δ counts every child, and a
    /// won child anywhere makes φ 0, so no value changes: only the order
    /// children are searched in.
    fn window(&self, children: &[Child<G::Move>]) -> usize {
        let ordered = G::ORDERS && self.use_knowledge && self.limits.knowledge && self.order;
        if !(self.widening && ordered) {
            return children.len();
        }
        let live = children.iter().filter(|c| c.delta < INF).count();
        if live < 2 {
            return children.len();
        }
        let wanted = 1 + live.div_ceil(4);
        let mut seen = 0;
        for (i, c) in children.iter().enumerate() {
            if c.delta < INF {
                seen += 1;
                if seen == wanted {
                    return i + 1;
                }
            }
        }
        children.len()
    }

    /// Whether a limit is reached (nodes, time, an interrupt); sets
    /// `stopped` when it is.
    fn limit_reached(&mut self) -> bool {
        let limits = &self.limits;
        if limits.nodes.is_some_and(|n| self.nodes >= n)
            || limits.time.is_some_and(|t| limits.start.elapsed() >= t)
            || limits
                .interrupt
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn check_limits(&mut self, progress: &mut dyn FnMut(&str)) {
        if !self.nodes.is_multiple_of(CHECK_EVERY) {
            return;
        }
        self.limit_reached();
        let now = Instant::now();
        let elapsed = now - self.limits.start;
        if now - self.last_report >= Duration::from_secs(1) {
            self.last_report = now;
            if let Some(names) = &self.move_names
                && !self.root_moves.is_empty()
            {
                let number = |n: u32| {
                    if n >= INF {
                        "inf".to_string()
                    } else {
                        n.to_string()
                    }
                };
                let moves: Vec<String> = self
                    .root_moves
                    .iter()
                    .map(|&(mv, pn, dn)| {
                        let value = match (pn, dn) {
                            (0, _) => "W".to_string(),
                            (_, 0) => "L".to_string(),
                            _ => format!("{}/{}", number(pn), number(dn)),
                        };
                        format!("{} {value}", names(mv))
                    })
                    .collect();
                progress(&format!("info solve moves {}", moves.join(" ")));
            }
            let secs = elapsed.as_secs_f64().max(1e-9);
            // φ and δ are the root's side to move's: proof and disproof
            // numbers when the attacker is to move there.
            let (pn, dn) = if self.root_attacker_moves {
                self.root
            } else {
                (self.root.1, self.root.0)
            };
            progress(&format!(
                "info solve attacker {} pn {} dn {} nodes {} time {:.1} nps {:.0}",
                self.root_attacker.name(),
                pn,
                dn,
                self.nodes,
                secs,
                self.nodes as f64 / secs
            ));
        }
    }

    /// The multiple iterative deepening at a node `depth` plies below the
    /// root: searches until φ ≥ `th_phi` or δ ≥ `th_delta` (or the
    /// limits), and returns (φ, δ, rep).
    fn mid(
        &mut self,
        game: &mut G,
        depth: u32,
        th_phi: u32,
        th_delta: u32,
        progress: &mut dyn FnMut(&str),
    ) -> (u32, u32, u32) {
        self.nodes += 1;
        self.check_limits(progress);
        let start_nodes = self.nodes;
        let index = depth + 1;
        let hash = game.hash();
        let key = self.key(hash);
        let knowledge = self.use_knowledge && self.limits.knowledge;
        if self.stopped {
            // Nothing learnt: a value that claims nothing, not stored.
            return (1, 1, GENUINE);
        }
        let mut moves = Vec::new();
        // A node entered again is expanded as the first time, from memory.
        let lazy = G::LAZY && knowledge;
        let remember = lazy && G::ANSWERS_BY_POSITION && self.remember;
        let remembered = if remember {
            self.expansions.get(hash, &mut moves)
        } else {
            None
        };
        let forced = match remembered {
            Some(forced) => {
                self.remembered += 1;
                forced
            }
            None if lazy => game.forced_winner(),
            None => None,
        };
        if let Some(c) = forced {
            // Seen without search when the node is expanded; but a win of
            // the side to move at the root is searched, to name its move.
            let mover_wins = c == game.to_move();
            if depth > 0 || !mover_wins {
                let (phi, delta) = if mover_wins { (0, INF) } else { (INF, 0) };
                if depth == 0 {
                    self.root = (phi, delta);
                }
                self.table().put(key, phi, delta, 1);
                return (phi, delta, GENUINE);
            }
        }
        if remembered.is_none() {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                // Not over but no move: never claim anything from it.
                let (p, d) = self.non_win(game);
                return (p, d, 0);
            }
            if knowledge {
                // The knowledge is the costly step on a large board: the
                // limits are read before it.
                if self.limit_reached() {
                    return (1, 1, GENUINE);
                }
                game.prune_losing(&mut moves);
                if !moves.is_empty() {
                    game.prune_inferior(&mut moves);
                }
            }
            if moves.is_empty() {
                // Every move loses by force (or is no better than one that
                // does): the side to move has lost, on every path.
                if depth == 0 {
                    self.root = (INF, 0);
                }
                self.table().put(key, INF, 0, 1);
                return (INF, 0, GENUINE);
            }
            if knowledge && self.order {
                game.order_moves(&mut moves);
            }
            if remember {
                self.expansions.put(hash, forced, &moves);
            }
        }
        self.path.insert(hash, index);
        let mut children = Vec::with_capacity(moves.len());
        let mover = game.to_move();
        for (i, mv) in moves.into_iter().enumerate() {
            // Expanding a node of a large board with knowledge can take
            // seconds: the limits are read along the way, and a node left
            // half expanded claims nothing.
            if i % CHECK_CHILDREN == CHECK_CHILDREN - 1 && self.limit_reached() {
                self.path.remove(&hash);
                return (1, 1, GENUINE);
            }
            game.play_with(mv, Effort::Exact);
            let again = game.to_move() == mover;
            let flip = again && self.by_player;
            if flip {
                self.attacker = self.attacker.opponent();
            }
            children.push(self.look(game, mv, again && !flip, flip, self.prefetch));
            if flip {
                self.attacker = self.attacker.opponent();
            }
            game.undo();
        }
        for c in &mut children {
            self.settle(c);
        }
        let result = loop {
            for c in children.iter_mut().filter(|c| !c.fixed) {
                if let Some(e) = self.table.as_ref().and_then(|t| t.get(c.key)) {
                    (c.phi, c.delta) = if c.same {
                        (e.delta, e.phi)
                    } else {
                        (e.phi, e.delta)
                    };
                    c.fixed = e.phi == 0 || e.delta == 0;
                }
            }
            let window = self.window(&children);
            let (phi, delta, rep) = Self::combine(&children, window);
            if depth == 0 {
                self.root = (phi, delta);
                // A move's proof number for the side to move is its
                // child's δ (φ(root) = min δ), its disproof number φ.
                self.root_moves.clear();
                self.root_moves
                    .extend(children.iter().map(|c| (c.mv, c.delta, c.phi)));
            }
            if phi >= th_phi || delta >= th_delta || self.stopped {
                break (phi, delta, rep);
            }
            // The most proving child, and the second best δ.
            let (mut best, mut delta2) = (0, INF);
            for (i, c) in children.iter().enumerate().take(window).skip(1) {
                if c.delta < children[best].delta {
                    delta2 = children[best].delta;
                    best = i;
                } else if c.delta < delta2 {
                    delta2 = c.delta;
                }
            }
            let c = &children[best];
            let child_th_phi =
                (th_delta as u64 - delta as u64 + c.phi as u64).min(INF as u64) as u32;
            let eps = delta2 / self.eps_divisor;
            let child_th_delta = th_phi.min(delta2.saturating_add(1).saturating_add(eps));
            let (mv, same, flip) = (c.mv, c.same, c.flip);
            game.play_with(mv, Effort::Exact);
            if flip {
                self.attacker = self.attacker.opponent();
            }
            let (p, d, r) = if same {
                let (p, d, r) = self.mid(game, depth + 1, child_th_delta, child_th_phi, progress);
                (d, p, r)
            } else {
                self.mid(game, depth + 1, child_th_phi, child_th_delta, progress)
            };
            if flip {
                self.attacker = self.attacker.opponent();
            }
            game.undo();
            let c = &mut children[best];
            c.phi = p;
            c.delta = d;
            c.rep = r;
            c.fixed = p == 0 || d == 0;
        };
        self.path.remove(&hash);
        let (phi, delta, mut rep) = result;
        if depth == 0 && phi == 0 {
            self.root_best = children
                .iter()
                .filter(|c| c.delta == 0)
                .max_by_key(|c| c.rep)
                .map(|c| c.mv);
        }
        let work = self.nodes - start_nodes + 1;
        let solved = phi == 0 || delta == 0;
        let attacker_wins = solved && ((phi == 0) == self.attacker_to_move(game));
        if attacker_wins {
            rep = GENUINE;
        }
        if !solved || attacker_wins || rep >= index {
            if solved {
                rep = GENUINE;
            }
            self.table().put(key, phi, delta, work);
        }
        (phi, delta, rep)
    }

    /// Can `attacker` force a win from `game`? `game` is left as it was.
    /// Progress lines go to `progress` about once a second.
    pub fn prove(
        &mut self,
        game: &mut G,
        attacker: Color,
        limits: &SolveLimits,
        progress: &mut dyn FnMut(&str),
    ) -> Proof {
        self.attacker = attacker;
        self.root_attacker = attacker;
        self.root_attacker_moves = game.to_move() == attacker;
        self.limits = limits.clone();
        G::use_play_knowledge(limits.play_knowledge);
        if self.by_player != limits.by_player {
            // Results of the other count do not hold in this one.
            self.by_player = limits.by_player;
            self.clear();
        }
        self.stopped = false;
        self.nodes = 0;
        self.path.clear();
        self.remembered = 0;
        self.root_best = None;
        self.root_moves.clear();
        self.root = (1, 1);
        self.last_report = Instant::now();
        let table_entries = self.table().capacity();
        self.expansions
            .forget(super::expansions::entries_for(table_entries));
        if let Some(o) = game.outcome() {
            return if o == Outcome::Win(attacker) {
                Proof::Proven
            } else {
                Proof::Disproven
            };
        }
        if self.limit_reached() {
            return Proof::Unknown;
        }
        let (phi, delta, _) = self.mid(game, 0, INF, INF, progress);
        self.path.clear();
        let attacker_to_move = self.attacker_to_move(game);
        match (phi, delta) {
            (0, _) if attacker_to_move => Proof::Proven,
            (_, 0) if !attacker_to_move => Proof::Proven,
            (0, _) | (_, 0) => Proof::Disproven,
            _ => Proof::Unknown,
        }
    }

    /// The value of `game` for the side to move: win (with a winning
    /// move), loss, draw or unknown within `limits`. `game` is left as it
    /// was.
    pub fn solve(
        &mut self,
        game: &mut G,
        limits: &SolveLimits,
        progress: &mut dyn FnMut(&str),
    ) -> SolveReport<G::Move> {
        let me = game.to_move();
        let mut nodes = 0;
        let first = self.prove(game, me, limits, progress);
        nodes += self.nodes;
        let best = self.root_best;
        let value = match first {
            Proof::Unknown => SolveValue::Unknown,
            Proof::Proven => match best {
                Some(m) => SolveValue::Win(m),
                None => SolveValue::Unknown,
            },
            // Without draws, the attacker's disproof is the opponent's
            // win: the table already holds it (one key for both).
            Proof::Disproven if G::DECISIVE => SolveValue::Loss,
            Proof::Disproven => {
                let rest = SolveLimits {
                    nodes: limits.nodes.map(|n| n.saturating_sub(nodes).max(1)),
                    ..limits.clone()
                };
                let second = self.prove(game, me.opponent(), &rest, progress);
                nodes += self.nodes;
                match second {
                    Proof::Proven => SolveValue::Loss,
                    Proof::Disproven => SolveValue::Draw,
                    Proof::Unknown => SolveValue::Unknown,
                }
            }
        };
        // Counting may prove again what the knowledge now leaves open: at
        // most a quarter of the solve's nodes more.
        let count_limits = SolveLimits {
            nodes: Some((nodes / 4).max(PROOF_RECHECK_NODES)),
            ..limits.clone()
        };
        let proof = match value {
            SolveValue::Win(_) => self.proof_size(game, me, &count_limits),
            SolveValue::Loss => self.proof_size(game, me.opponent(), &count_limits),
            _ => None,
        };
        SolveReport {
            value,
            nodes,
            elapsed: limits.start.elapsed(),
            proof,
        }
    }
}

/// Nodes [`Solver::solve`] allows its proof count at least, to prove
/// again what the table does not hold ([`Solver::proof_size`]).
const PROOF_RECHECK_NODES: u64 = 10_000;

/// The state of a proof's count ([`Solver::proof_size`]).
struct ProofCount {
    /// The positions of the proof counted so far (hash, attacker).
    seen: std::collections::HashSet<(u64, Color)>,
    /// Positions on the current line: a line may not go round.
    line: std::collections::HashSet<u64>,
    knowledge: bool,
    /// The limits of the count's searches; their node limit is what is
    /// left of the count's budget.
    limits: SolveLimits,
}

impl<G: Knowledge> Solver<G> {
    /// The size of the proof that `attacker` wins from `game`, as the
    /// solver proved it and the table holds it: the number of distinct
    /// positions of the proof tree (a position reached by two lines counts
    /// once), with one move of the attacker where it is to move (a child
    /// won by the rules, or proven in the table) and every move of the
    /// defender that the knowledge left (with `limits.knowledge`: the
    /// moves after [`Knowledge::prune_losing`] and
    /// [`Knowledge::prune_inferior`]; a position that
    /// [`Knowledge::forced_winner`] decides, or where no defender move is
    /// left, is a leaf). The knowledge may depend on the positions asked
    /// before (Hex's connections are updated from an ancestor's, its
    /// fill-in inherited), so it may leave a defender move the solve had
    /// cut, or a table entry may have been replaced: a position of the
    /// attacker's that the table does not prove is then proven again,
    /// within `limits.nodes` in all (none: no search), and the proof
    /// counted is the one the table then holds. `None` when that fails
    /// too (or there is no win), or `limits.interrupt` is set. The game is
    /// left as it was.
    pub fn proof_size(
        &mut self,
        game: &mut G,
        attacker: Color,
        limits: &SolveLimits,
    ) -> Option<u64> {
        if self.by_player != limits.by_player {
            return None;
        }
        let mut count = ProofCount {
            seen: Default::default(),
            line: Default::default(),
            knowledge: self.use_knowledge && limits.knowledge,
            limits: SolveLimits {
                nodes: Some(limits.nodes.unwrap_or(0)),
                time: None,
                ..limits.clone()
            },
        };
        self.count_proof(game, attacker, &mut count)
            .then_some(count.seen.len() as u64)
    }

    /// Adds the proof for `attacker` from `game` to the count; whether
    /// the table holds one.
    fn count_proof(&mut self, game: &mut G, attacker: Color, x: &mut ProofCount) -> bool {
        if let Some(o) = game.outcome() {
            let won = o == Outcome::Win(attacker);
            if won {
                x.seen.insert((game.hash(), attacker));
            }
            return won;
        }
        let hash = game.hash();
        let key = (hash, attacker);
        if x.seen.contains(&key) {
            return true;
        }
        if x.limits
            .interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
            || !x.line.insert(hash)
        {
            return false;
        }
        let ok = self.count_node(game, attacker, x);
        x.line.remove(&hash);
        if ok {
            x.seen.insert(key);
        }
        ok
    }

    /// The first two passes over an attacker's children, in a proof's
    /// count and a strategy's extraction: whether the child `game` (`a`
    /// the attacker there) is won by the rules (pass 0) or proven in the
    /// table (pass 1); `None` for a later pass.
    fn won_or_proven(&mut self, game: &G, a: Color, pass: usize) -> Option<bool> {
        match pass {
            0 => Some(game.outcome() == Some(Outcome::Win(a))),
            1 => Some(game.outcome().is_none() && self.proven_for(game, a)),
            _ => None,
        }
    }

    /// The children's part of [`Solver::count_proof`] at a position not
    /// over.
    fn count_node(&mut self, game: &mut G, attacker: Color, x: &mut ProofCount) -> bool {
        let mover = game.to_move();
        if x.knowledge
            && let Some(c) = game.forced_winner()
        {
            // Decided without search (the solver asks the same question
            // before it expands a node).
            return c == attacker;
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            // Not over but no move: the solver never claims such a position.
            return false;
        }
        if x.knowledge {
            game.prune_losing(&mut moves);
            if !moves.is_empty() {
                game.prune_inferior(&mut moves);
            }
        }
        let by_player = self.by_player;
        // The attacker's colour after a move (a swap counted by player
        // changes it).
        let next = |game: &G| {
            if game.to_move() == mover && by_player {
                attacker.opponent()
            } else {
                attacker
            }
        };
        if mover == attacker {
            // A child won by the rules first, then one the table proves,
            // then (a game whose knowledge is asked for every child) one
            // the knowledge decides.
            let passes = if x.knowledge && !G::LAZY { 3 } else { 2 };
            for attempt in 0..2 {
                if attempt == 1 {
                    // No child proven: prove this position again, within
                    // what is left of the budget, then look once more at
                    // every move (the knowledge may cut another way now).
                    let left = x.limits.nodes.unwrap_or(0);
                    if left == 0 {
                        return false;
                    }
                    let limits = SolveLimits {
                        start: Instant::now(),
                        ..x.limits.clone()
                    };
                    let proved = self.prove(game, attacker, &limits, &mut |_| {});
                    x.limits.nodes = Some(left.saturating_sub(self.nodes));
                    if proved != Proof::Proven {
                        return false;
                    }
                    // The winning move it names, whether or not the
                    // table still holds its child.
                    if let Some(mv) = self.root_best {
                        game.play_with(mv, Effort::Exact);
                        let a = next(game);
                        let ok = self.count_proof(game, a, x);
                        game.undo();
                        return ok;
                    }
                    moves.clear();
                    game.legal_moves(&mut moves);
                }
                for pass in 0..passes {
                    for &mv in &moves {
                        game.play_with(mv, Effort::Exact);
                        let a = next(game);
                        let take = match self.won_or_proven(game, a, pass) {
                            Some(take) => take,
                            None => {
                                game.outcome().is_none()
                                    && !self.proven_for(game, a)
                                    && game.forced_winner() == Some(a)
                            }
                        };
                        let ok = take && self.count_proof(game, a, x);
                        game.undo();
                        if ok {
                            return true;
                        }
                    }
                }
            }
            false
        } else {
            // Every defender move left (none left: it has lost).
            for &mv in &moves {
                game.play_with(mv, Effort::Exact);
                let a = next(game);
                let ok = self.count_proof(game, a, x);
                game.undo();
                if !ok {
                    return false;
                }
            }
            true
        }
    }
}

/// A winning strategy: the attacker's move in every position of a proof
/// where it is to move, keyed by the position's hash and the attacker's
/// colour (a swap, counted by player, changes the attacker's colour).
pub type Strategy<M> = HashMap<(u64, Color), M>;

/// The state of a strategy's extraction ([`Solver::strategy`]).
struct Extraction<M> {
    strategy: Strategy<M>,
    /// Defender positions whose every reply is covered.
    covered: std::collections::HashSet<(u64, Color)>,
    /// Positions on the current line: a line may not go round.
    line: std::collections::HashSet<u64>,
    limits: SolveLimits,
}

impl<G: Knowledge> Solver<G> {
    /// A winning strategy for `attacker` from `game`, for a checker to
    /// replay: the attacker's move wherever it is to move in the proof,
    /// against every reply of the defender, to the end. Each move is one
    /// whose position the table holds as proven, or is proven again
    /// within `limits` (counted from each call, with `limits.by_player`).
    /// `None` when no win is proven within the limits. The game is left as
    /// it was.
    pub fn strategy(
        &mut self,
        game: &mut G,
        attacker: Color,
        limits: &SolveLimits,
    ) -> Option<Strategy<G::Move>> {
        if self.by_player != limits.by_player {
            self.by_player = limits.by_player;
            self.clear();
        }
        let mut x = Extraction {
            strategy: Strategy::new(),
            covered: Default::default(),
            line: Default::default(),
            limits: limits.clone(),
        };
        self.extract(game, attacker, &mut x).then_some(x.strategy)
    }

    /// Whether the table proves a win for `attacker` at `game`.
    fn proven_for(&mut self, game: &G, attacker: Color) -> bool {
        let saved = self.attacker;
        self.attacker = attacker;
        let key = self.key(game.hash());
        self.attacker = saved;
        let Some(e) = self.table.as_ref().and_then(|t| t.get(key)) else {
            return false;
        };
        // φ = 0: the side to move gets what it wants.
        (e.phi == 0) == (game.to_move() == attacker) && (e.phi == 0 || e.delta == 0)
    }

    /// Extends the strategy for `attacker` from `game`; whether every line
    /// from here is covered.
    fn extract(&mut self, game: &mut G, attacker: Color, x: &mut Extraction<G::Move>) -> bool {
        if let Some(o) = game.outcome() {
            return o == Outcome::Win(attacker);
        }
        let hash = game.hash();
        let key = (hash, attacker);
        if x.strategy.contains_key(&key) || x.covered.contains(&key) {
            return true;
        }
        if !x.line.insert(hash) {
            return false;
        }
        let mover = game.to_move();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        // The attacker's colour after a move (a swap counted by player
        // changes it).
        let by_player = self.by_player;
        let next = |game: &G, attacker: Color| {
            if game.to_move() == mover && by_player {
                attacker.opponent()
            } else {
                attacker
            }
        };
        let covered = if mover == attacker {
            let mut chosen = None;
            // Wins at once, then positions the table proves, then the
            // rest, proven again.
            for pass in 0..3 {
                for &mv in &moves {
                    game.play_with(mv, Effort::Exact);
                    let a = next(game, attacker);
                    let take = match self.won_or_proven(game, a, pass) {
                        Some(take) => take,
                        None => {
                            game.outcome().is_none()
                                && !self.proven_for(game, a)
                                && self.prove(
                                    game,
                                    a,
                                    &SolveLimits {
                                        start: Instant::now(),
                                        ..x.limits.clone()
                                    },
                                    &mut |_| {},
                                ) == Proof::Proven
                        }
                    };
                    let ok = take && self.extract(game, a, x);
                    game.undo();
                    if ok {
                        chosen = Some(mv);
                        break;
                    }
                }
                if chosen.is_some() {
                    break;
                }
            }
            if let Some(mv) = chosen {
                x.strategy.insert(key, mv);
            }
            chosen.is_some()
        } else {
            let mut all = !moves.is_empty();
            for &mv in &moves {
                game.play_with(mv, Effort::Exact);
                let a = next(game, attacker);
                all = self.extract(game, a, x);
                game.undo();
                if !all {
                    break;
                }
            }
            if all {
                x.covered.insert(key);
            }
            all
        };
        x.line.remove(&hash);
        covered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_codes_keep_the_order_and_fit_twelve_bits() {
        let mut last = 0;
        let mut samples: Vec<u64> = (1..5000).collect();
        samples.extend((6..64).flat_map(|b| [(1u64 << b) - 1, 1 << b, (1 << b) + (1 << (b - 3))]));
        samples.push(u64::MAX);
        samples.sort_unstable();
        for w in samples {
            let code = work_code(w);
            assert!(code >= last && code > 0 && code <= WORK_MASK, "work {w}");
            let back = work_of(code);
            assert!(
                back <= w && w - back <= w / 64,
                "work {w} came back as {back}"
            );
            assert_eq!(work_code(back), code);
            last = code;
        }
        assert_eq!(work_code(0), 1);
    }

    #[test]
    fn buckets_start_at_a_cache_line_and_keys_lose_only_their_low_bits() {
        let mut t = Table::with_entries(64);
        assert_eq!(t.slots().as_ptr() as usize % 64, 0);
        assert_eq!(t.capacity(), 64);
        let key = 0x1234_5678_9abc_def0;
        t.put(key, 3, 7, 100);
        let e = t.get(key ^ 0xfff).expect("the same top bits");
        assert_eq!((e.phi, e.delta), (3, 7));
        assert!(t.get(key ^ 0x1000).is_none());
        t.put(key, 0, INF, 50);
        let saved: Vec<_> = t.saved().collect();
        assert_eq!(saved.len(), 1);
        assert_eq!(saved[0][0], key & !WORK_MASK);
        assert_eq!(saved[0][1], (INF as u64) << 32);
        assert_eq!(saved[0][2], 150);
        assert_eq!(t.counts(), (1, 1));
    }
}
