//! The integration tests, one crate (one build, one link): each module
//! is a former test file of its own, and `common` holds the helpers they
//! share. Run one module with `cargo test --release --test it MODULE::`,
//! e.g. `cargo test --release --test it hex_vc:: -- --ignored`. The
//! browser tests are a crate of their own (`tests/web_browser.rs`), so
//! that nothing else runs beside Chromium.

mod common;

mod akron_protocol;
mod akron_rules;
mod akron_vectors;
mod analysis;
mod book;
mod crosscut_match;
mod dfpn;
mod fastest_win;
mod fuzz_streams;
mod gogui_session;
mod hardening_akron;
mod hardening_input;
mod hardening_sgf;
mod hardening_stderr;
mod hex_protocol;
mod hex_rules;
mod hex_vc;
mod interrupt;
mod loadsgf;
mod onyx_examples;
mod onyx_properties;
mod onyx_protocol;
mod onyx_reference;
mod onyx_search;
mod onyx_vc;
mod onyx_vectors;
mod orcoon_adjudication;
mod orcoon_hard;
mod orcoon_protocol;
mod orcoon_rules;
mod panic_safety;
mod position;
mod proofs;
mod protocol_consistency;
mod search;
mod solve;
mod web_api;
