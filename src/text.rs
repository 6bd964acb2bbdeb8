//! User text in messages: every message that echoes what a user wrote
//! (a command's argument, a file name) quotes it cut short, the same way
//! in the protocol and in the game records. Depends on nothing else in
//! the crate.

/// How many characters of a user's text an error message quotes.
pub const QUOTED_CHARS: usize = 40;

/// `text` cut to its first `max` characters, with `…` after the cut, so
/// that an echo of user input stays short whatever its length.
pub fn clip(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]).into(),
        None => text.into(),
    }
}

/// User text as an error message quotes it: in single quotes, cut to its
/// first [`QUOTED_CHARS`] characters (see [`clip`]).
pub fn quote(text: &str) -> String {
    format!("'{}'", clip(text, QUOTED_CHARS))
}
