//! What the games share beneath their rules: the edges a colour joins, the
//! Zobrist keys of the points, the side to move with the swap rule and its
//! `swap` option ([`Turn`], [`SWAP`]). A new game takes them from here
//! instead of writing them again.

use super::GameOption;
use crate::game::{Color, MoveError, Outcome, splitmix64};
use crate::session::{Options, option};

/// Edge bit of the first row (row 1: the bottom, or Hex's top).
pub const FIRST_ROW: u8 = 1;
/// Edge bit of the last row.
pub const LAST_ROW: u8 = 2;
/// Edge bit of the first column (`A`).
pub const FIRST_COLUMN: u8 = 4;
/// Edge bit of the last column.
pub const LAST_COLUMN: u8 = 8;

/// The two edges `color` joins, as edge bits: Black the first and last
/// rows, White the first and last columns.
#[inline]
pub fn edge_bits(color: Color) -> (u8, u8) {
    match color {
        Color::Black => (FIRST_ROW, LAST_ROW),
        Color::White => (FIRST_COLUMN, LAST_COLUMN),
    }
}

/// Zobrist keys for `points` points, one for each colour's piece, drawn
/// in order from the SplitMix generator `seed` (which goes on from there
/// for the game's other keys).
pub fn point_keys(seed: &mut u64, points: usize) -> Vec<[u64; 2]> {
    (0..points)
        .map(|_| [splitmix64(seed), splitmix64(seed)])
        .collect()
}

/// The `swap` option of every game: `on` (the default) lets White take
/// over Black's first move (the pie rule); `off` gives the game without it.
pub const SWAP: GameOption = GameOption {
    name: "swap",
    values: &["on", "off"],
    doc: "the pie rule: on (White may take over Black's first move; the default) or off",
    check: |_, _| Ok(()),
};

/// Whether `options` leave the swap on (the [`SWAP`] option, on unless set
/// to `off`).
pub fn swap_on(options: &Options) -> bool {
    option(options, SWAP.name) != Some("off")
}

/// What one entry of a game's history does to the turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Entry {
    /// A move of the game: the turn passes to the opponent.
    Move,
    /// The swap: White takes over Black's first move and moves again.
    Swap,
    /// No move: the turn is handed over (GTP's play out of turn, a
    /// searcher's null move).
    HandOver,
}

impl Entry {
    /// The entry of a history record: `None` for a turn handed over, else
    /// the move, `swap` being the game's swap.
    #[inline]
    pub fn of<M: PartialEq>(mv: Option<M>, swap: M) -> Entry {
        match mv {
            None => Entry::HandOver,
            Some(m) if m == swap => Entry::Swap,
            Some(_) => Entry::Move,
        }
    }
}

/// The side to move and the swap rule, as every game's board keeps them:
/// whether the game has the swap, how many entries its history holds and
/// whether the first was a move, and the Zobrist keys of White to move and
/// of a swap being available. The board calls [`Turn::record`] and
/// [`Turn::take_back`] for each history entry it pushes and pops, so the
/// turn, the swap and their share of the hash stay in step.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    to_move: Color,
    swap: bool,
    entries: usize,
    first_was_move: bool,
    white_key: u64,
    swap_key: u64,
}

impl Turn {
    /// Black to move at the start of a game, with the swap or without, and
    /// the keys of White to move and of a swap available.
    pub fn new(swap: bool, white_key: u64, swap_key: u64) -> Turn {
        Turn {
            to_move: Color::Black,
            swap,
            entries: 0,
            first_was_move: false,
            white_key,
            swap_key,
        }
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Whether the game has the swap (the [`SWAP`] option).
    #[inline]
    pub fn swap_on(&self) -> bool {
        self.swap
    }

    /// The swap rule of every game (RULINGS, Common): when the game has it,
    /// White may swap as the second move of the game, right after Black's
    /// first move (a real move: not a turn handed over), while the game
    /// goes on (`outcome`, the board's).
    #[inline]
    pub fn swap_available(&self, outcome: Option<Outcome>) -> bool {
        self.swap
            && outcome.is_none()
            && self.entries == 1
            && self.to_move == Color::White
            && self.first_was_move
    }

    /// Whether `swap` may be played now, or why not.
    pub fn check_swap(&self, outcome: Option<Outcome>) -> Result<(), MoveError> {
        if outcome.is_some() {
            Err(MoveError::Illegal("the game is over".into()))
        } else if !self.swap {
            Err(MoveError::Illegal("swap is off in this game".into()))
        } else if self.swap_available(outcome) {
            Ok(())
        } else {
            Err(MoveError::Illegal(
                "swap is only allowed for White as the second move".into(),
            ))
        }
    }

    /// The swap's share of the hash: its key while a swap is available.
    #[inline]
    pub fn swap_key(&self, outcome: Option<Outcome>) -> u64 {
        if self.swap_available(outcome) {
            self.swap_key
        } else {
            0
        }
    }

    /// The turn's share of the hash, from scratch: White to move and a
    /// swap available.
    pub fn key(&self, outcome: Option<Outcome>) -> u64 {
        let white = if self.to_move == Color::White {
            self.white_key
        } else {
            0
        };
        white ^ self.swap_key(outcome)
    }

    /// Records one entry pushed on the history, the game's result going
    /// from `before` to `after`: the turn passes (but after a swap), and
    /// `hash` follows.
    #[inline]
    pub fn record(
        &mut self,
        hash: &mut u64,
        before: Option<Outcome>,
        after: Option<Outcome>,
        entry: Entry,
    ) {
        *hash ^= self.swap_key(before);
        if self.entries == 0 {
            self.first_was_move = entry == Entry::Move;
        }
        self.entries += 1;
        if entry != Entry::Swap {
            self.to_move = self.to_move.opponent();
            *hash ^= self.white_key;
        }
        *hash ^= self.swap_key(after);
    }

    /// Records a turn handed over (an entry pushed on the history that is
    /// no move; the game's result, `outcome`, stays): see [`Turn::record`].
    #[inline]
    pub fn hand_over(&mut self, hash: &mut u64, outcome: Option<Outcome>) {
        self.record(hash, outcome, outcome, Entry::HandOver);
    }

    /// Takes back the last entry of the history (`entry`), the game's
    /// `outcome` going back to `restored`: the turn comes back, and `hash`
    /// follows. Call it before changing the board back, which may read
    /// the side to move of before the entry.
    #[inline]
    pub fn take_back(
        &mut self,
        hash: &mut u64,
        outcome: &mut Option<Outcome>,
        restored: Option<Outcome>,
        entry: Entry,
    ) {
        *hash ^= self.swap_key(*outcome);
        self.entries -= 1;
        if entry != Entry::Swap {
            self.to_move = self.to_move.opponent();
            *hash ^= self.white_key;
        }
        *outcome = restored;
        *hash ^= self.swap_key(restored);
    }

    /// Sets the side to move before the first move (`hash` follows).
    pub fn set_to_move(&mut self, hash: &mut u64, color: Color) -> Result<(), String> {
        if self.entries != 0 {
            return Err("the side to move can only be set before the first move".into());
        }
        if color != self.to_move {
            self.to_move = color;
            *hash ^= self.white_key;
        }
        Ok(())
    }

    /// Turns the swap on or off (`hash` follows, with the game's result
    /// `outcome`).
    pub fn set_swap(&mut self, hash: &mut u64, outcome: Option<Outcome>, swap: bool) {
        *hash ^= self.swap_key(outcome);
        self.swap = swap;
        *hash ^= self.swap_key(outcome);
    }
}
