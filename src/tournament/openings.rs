//! Openings files: one opening per line, its moves in the game's notation
//! separated by spaces or commas, Black's first (`D4 swap E5`). Blank lines
//! and lines starting with `#` are skipped. Every opening is checked against
//! the rules when the file is loaded.

use super::GameSettings;

/// Reads and checks the openings in `text` for `settings`.
pub fn parse_openings(text: &str, settings: &GameSettings) -> Result<Vec<Vec<String>>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let moves: Vec<String> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .collect();
        let mut session = settings.new_rules()?;
        for m in &moves {
            let color = session.to_move();
            session
                .play(color, m)
                .map_err(|e| format!("opening on line {}: {m}: {e}", n + 1))?;
            if session.outcome().is_some() {
                return Err(format!("opening on line {} ends the game", n + 1));
            }
        }
        // Store the canonical notation (Onyx's capture marks dropped).
        out.push(session.history());
    }
    if out.is_empty() {
        return Err("the openings file has no openings".into());
    }
    Ok(out)
}

/// Reads an openings file.
pub fn load_openings(path: &str, settings: &GameSettings) -> Result<Vec<Vec<String>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("openings file {path}: {e}"))?;
    parse_openings(&text, settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn onyx() -> GameSettings {
        GameSettings {
            game: "onyx".into(),
            size: 12,
            options: vec![("start".into(), "standard".into())],
        }
    }

    #[test]
    fn reads_and_checks_openings() {
        let o = parse_openings("# test\nD4 E5\n\nF6, swap\n", &onyx()).unwrap();
        assert_eq!(o, vec![vec!["D4", "E5"], vec!["F6", "swap"]]);
        let e = parse_openings("D4 D4\n", &onyx()).unwrap_err();
        assert!(e.contains("line 1"), "{e}");
        assert!(parse_openings("# nothing\n", &onyx()).is_err());
    }
}
