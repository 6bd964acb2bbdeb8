//! GoGui mode, driven the way GoGui drives an engine. GoGui itself cannot
//! be run here, so its two parsers are emulated faithfully (from GoGui's
//! sources, `GenericBoard.setup` and `GoPoint.parsePoint`):
//!
//! - `gogui-rules_board` is read as the first N×N characters `X`, `O` and
//!   `.` of the answer (every other character skipped, newlines included),
//!   row by row from the top, N being `gogui-rules_board_size`;
//! - a point is a column letter `A`..`Z` without `I` and a row number from
//!   1 at the bottom, on boards of at most 25.
//!
//! After every command that changes the position, the emulated reading of
//! the board must equal the engine's position, looked up independently of
//! the engine's GoGui code (this file's own map from GoGui's cells to
//! crosscut's points, and the games' boards).

use crosscut::game::Color;
use crosscut::games::{akron::Akron, hex::Hex, onyx::Onyx, orcoon::Orcoon};
use crosscut::protocol::Gtp;

// ---------------------------------------------------------------- GoGui

/// GoGui's column letters (`GoPoint.s_xString`).
const GOGUI_X: [&str; 25] = [
    "A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T",
    "U", "V", "W", "X", "Y", "Z",
];

/// `GoPoint.toString`.
fn gogui_name(x: usize, y: usize) -> String {
    format!("{}{}", GOGUI_X[x], y + 1)
}

/// `GoPoint.parsePoint`: `None` for a pass, an error for what GoGui
/// refuses.
fn gogui_parse_point(text: &str, size: usize) -> Result<Option<(usize, usize)>, String> {
    assert!(size <= 25, "GoGui's MAXSIZE is 25");
    let s = text.trim().to_uppercase();
    if s == "PASS" {
        return Ok(None);
    }
    if s.len() < 2 {
        return Err(format!("invalid point {s}"));
    }
    let mut x_char = s.as_bytes()[0];
    if x_char >= b'J' {
        x_char -= 1;
    }
    let x = x_char as i64 - b'A' as i64;
    let y = s[1..]
        .parse::<i64>()
        .map_err(|_| format!("invalid point {s}"))?
        - 1;
    if x < 0 || x >= size as i64 || y < 0 || y >= size as i64 {
        return Err(format!("invalid point {s}"));
    }
    Ok(Some((x as usize, y as usize)))
}

/// What GoGui's `GtpClient` returns for an answer: the text after `= `.
fn gogui_response(answer: &str) -> Result<String, String> {
    let body = answer
        .strip_suffix("\n\n")
        .expect("answer ends with a blank line");
    let (status, rest) = body.split_at(1);
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = rest.strip_prefix(' ').unwrap_or(rest).to_string();
    match status {
        "=" => Ok(rest),
        _ => Err(rest),
    }
}

/// `GenericBoard.setup`: the board GoGui reads from a `gogui-rules_board`
/// response, as `board[y][x]` (`y` from the bottom) of `X`, `O`, `.`.
fn gogui_read_board(position: &str, size: usize) -> Vec<Vec<char>> {
    let chars: Vec<char> = position.chars().collect();
    let mut board = vec![vec!['?'; size]; size];
    let mut nb_char = 0;
    for i in 0..size {
        let mut j: i64 = -1;
        loop {
            let mut c;
            loop {
                c = *chars
                    .get(nb_char)
                    .unwrap_or_else(|| panic!("GoGui runs out of cells in {position:?}"));
                nb_char += 1;
                if matches!(c, 'X' | 'O' | '.' | '\n') {
                    break;
                }
            }
            if c != '\n' {
                j += 1;
                board[size - i - 1][j as usize] = c;
            }
            if j >= size as i64 - 1 {
                break;
            }
        }
    }
    board
}

// ------------------------------------------------------- the engine side

fn raw(gtp: &mut Gtp, line: &str) -> String {
    gtp.execute(line).unwrap_or_default()
}

/// Sends a command as GoGui does; its response or error text.
fn send(gtp: &mut Gtp, line: &str) -> Result<String, String> {
    gogui_response(&raw(gtp, line))
}

fn ok(gtp: &mut Gtp, line: &str) -> String {
    send(gtp, line).unwrap_or_else(|e| panic!("'{line}' failed: {e}"))
}

/// This test's own map from GoGui's cell to crosscut's point name.
fn crosscut_point(game: &str, n: usize, x: usize, y: usize) -> Option<String> {
    let letter = |c: usize| (b'A' + c as u8) as char;
    match game {
        "onyx" => {
            if x.is_multiple_of(2) && y.is_multiple_of(2) {
                Some(format!("{}{}", letter(x / 2), y / 2 + 1))
            } else if x % 2 == 1 && y % 2 == 1 {
                let (c, r) = (x / 2, y / 2 + 1);
                (c + r)
                    .is_multiple_of(2)
                    .then(|| format!("{}{}{}{}", letter(c), letter(c + 1), r, r + 1))
            } else {
                None
            }
        }
        "hex" => Some(format!("{}{}", letter(x).to_ascii_lowercase(), n - y)),
        _ => Some(format!("{}{}", letter(x), y + 1)),
    }
}

/// The colour on crosscut's point `name` in the engine (Akron: surface).
fn engine_color(gtp: &mut Gtp, name: &str) -> Option<Color> {
    let pos = gtp.engine.rules_mut().unwrap().position_mut();
    if let Some(g) = pos.downcast_ref::<Onyx>() {
        return g.at(g.geometry().parse_point(name).unwrap());
    }
    if let Some(g) = pos.downcast_ref::<Orcoon>() {
        return g.at(g.geometry().parse_point(name).unwrap());
    }
    if let Some(g) = pos.downcast_ref::<Akron>() {
        return g.at(g.geometry().parse_point(name).unwrap());
    }
    if let Some(g) = pos.downcast_ref::<Hex>() {
        return g.at(g.geometry().parse_cell(name).unwrap());
    }
    panic!("unknown game");
}

/// What GoGui reads now.
fn gogui_board(gtp: &mut Gtp) -> Vec<Vec<char>> {
    // `N`, or `N hex` for a rhombus of hexagons (GoGui then draws one).
    let answer = ok(gtp, "gogui-rules_board_size");
    let size: usize = answer.split_whitespace().next().unwrap().parse().unwrap();
    gogui_read_board(&ok(gtp, "gogui-rules_board"), size)
}

/// Checks that GoGui's reading of the board is the engine's position.
fn check_board(gtp: &mut Gtp) -> Vec<Vec<char>> {
    let game = ok(gtp, "gogui-rules_game_id");
    // `N`, or `N hex` for a rhombus of hexagons (GoGui then draws one).
    let answer = ok(gtp, "gogui-rules_board_size");
    let mut words = answer.split_whitespace();
    let size: usize = words.next().unwrap().parse().unwrap();
    assert_eq!(words.next(), (game == "hex").then_some("hex"), "{answer}");
    let n = gtp.engine.rules().unwrap().size();
    let board = gogui_board(gtp);
    for (y, row) in board.iter().enumerate() {
        for (x, &cell) in row.iter().enumerate() {
            let expected = match crosscut_point(&game, n, x, y).and_then(|p| engine_color(gtp, &p))
            {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            };
            assert_eq!(
                cell,
                expected,
                "{game}: GoGui reads {cell} at {} ({:?})\n{}",
                gogui_name(x, y),
                crosscut_point(&game, n, x, y),
                gtp.engine.rules().unwrap().showboard()
            );
        }
    }
    assert!(size <= 25);
    board
}

/// The commands GoGui sends when it attaches the engine, checked as GoGui
/// reads them. Returns GoGui's board size.
fn gogui_start(gtp: &mut Gtp, game: &str) -> usize {
    assert_eq!(ok(gtp, "name"), "crosscut");
    ok(gtp, "version");
    assert_eq!(ok(gtp, "protocol_version"), "2");
    let commands: Vec<String> = ok(gtp, "list_commands").lines().map(String::from).collect();
    for c in [
        "gogui-rules_game_id",
        "gogui-rules_board_size",
        "gogui-rules_board",
        "gogui-rules_legal_moves",
        "gogui-rules_side_to_move",
        "gogui-rules_final_result",
        "gogui-analyze_commands",
    ] {
        assert!(commands.iter().any(|x| x == c), "{c} not listed");
    }
    assert_eq!(ok(gtp, "gogui-rules_game_id"), game);
    // `N`, or `N hex` for a rhombus of hexagons (GoGui then draws one).
    let answer = ok(gtp, "gogui-rules_board_size");
    let mut words = answer.split_whitespace();
    let size: usize = words.next().unwrap().parse().unwrap();
    assert_eq!(words.next(), (game == "hex").then_some("hex"), "{answer}");
    assert!(size <= 25);
    check_board(gtp);
    for m in ok(gtp, "gogui-rules_legal_moves").split_whitespace() {
        gogui_parse_point(m, size).unwrap();
    }
    assert_eq!(ok(gtp, "gogui-rules_side_to_move"), "black");
    // gogui-analyze_commands: type/label/command lines whose commands exist.
    let analyze = ok(gtp, "gogui-analyze_commands");
    for line in analyze.lines() {
        let parts: Vec<&str> = line.split('/').collect();
        assert_eq!(parts.len(), 3, "{line}");
        assert!(["plist", "var", "string"].contains(&parts[0]), "{line}");
        let command = parts[2].split_whitespace().next().unwrap();
        assert_eq!(ok(gtp, &format!("known_command {command}")), "true");
    }
    // A new game as GoGui starts it.
    ok(gtp, &format!("boardsize {size}"));
    ok(gtp, "clear_board");
    assert_eq!(
        ok(gtp, "gogui-rules_board_size").split_whitespace().next(),
        Some(size.to_string().as_str())
    );
    size
}

/// Checks an analyze command's answer as GoGui would display it.
fn check_analyze(gtp: &mut Gtp, size: usize) {
    if ok(gtp, "gogui-rules_final_result") != "unknown" {
        assert_eq!(ok(gtp, "crosscut-best_line"), "");
        return;
    }
    for m in ok(gtp, "crosscut-legal_points").split_whitespace() {
        gogui_parse_point(m, size)
            .unwrap()
            .expect("a point, not pass");
    }
    for m in ok(gtp, "crosscut-best_line").split_whitespace() {
        gogui_parse_point(m, size).unwrap();
    }
    let text = ok(gtp, "analyze b");
    if let Some((_, pv)) = text.lines().next().unwrap().split_once(" pv ") {
        for m in pv.split_whitespace() {
            gogui_parse_point(m, size).unwrap();
        }
    }
}

fn color_name(ply: usize) -> &'static str {
    if ply.is_multiple_of(2) { "b" } else { "w" }
}

/// A GoGui game: the user clicks a listed point for Black, the engine is
/// asked for White's move; after each, GoGui reads the board and the side
/// to move. Returns the moves GoGui saw.
fn gogui_game(gtp: &mut Gtp, size: usize, plies: usize) -> Vec<String> {
    let mut seen = Vec::new();
    for ply in 0..plies {
        if !ok(gtp, "gogui-rules_final_result").eq("unknown") {
            break;
        }
        let side = ok(gtp, "gogui-rules_side_to_move");
        let color = &side[..1];
        let before = gogui_board(gtp);
        let legal: Vec<String> = ok(gtp, "gogui-rules_legal_moves")
            .split_whitespace()
            .map(String::from)
            .collect();
        if legal.is_empty() {
            break;
        }
        let clicked = || {
            let points: Vec<&String> = legal.iter().filter(|m| *m != "pass").collect();
            let m = points[(ply * 7 + 3) % points.len()].clone();
            let (x, y) = gogui_parse_point(&m, size).unwrap().unwrap();
            assert_eq!(before[y][x], '.', "{m} is listed but not empty");
            m
        };
        let mv = if color_name(ply) == "b" {
            let m = clicked();
            ok(gtp, &format!("play {color} {m}"));
            m
        } else {
            match send(gtp, &format!("genmove {color}")) {
                Ok(m) => m,
                Err(e) => {
                    // A move GoGui cannot show is refused and not played.
                    assert!(e.contains("cannot show"), "{e}");
                    assert_eq!(gogui_board(gtp), before);
                    assert_eq!(ok(gtp, "gogui-rules_side_to_move"), side);
                    let m = clicked();
                    ok(gtp, &format!("play {color} {m}"));
                    m
                }
            }
        };
        let board = check_board(gtp);
        if mv != "resign" {
            match gogui_parse_point(&mv, size).unwrap() {
                Some((x, y)) => {
                    let mark = if color == "b" { 'X' } else { 'O' };
                    assert_eq!(board[y][x], mark, "{mv} is not shown");
                }
                None => assert_eq!(mv.to_lowercase(), "pass"),
            }
        }
        seen.push(mv);
    }
    seen
}

fn gogui_session(game: &str) -> Gtp {
    let mut gtp = Gtp::new();
    gtp.set_gogui(true).unwrap();
    assert_eq!(ok(&mut gtp, &format!("game {game}")), "");
    ok(&mut gtp, "param move_time 0.02");
    ok(&mut gtp, "param max_depth 2");
    ok(&mut gtp, "param verbose false");
    gtp
}

#[test]
fn onyx_in_gogui() {
    let mut gtp = gogui_session("onyx");
    // Onyx 12x12 is 23x23 cells: points and midpoints.
    let size = gogui_start(&mut gtp, "onyx");
    assert_eq!(size, 23);
    // The standard start is shown.
    let board = check_board(&mut gtp);
    assert_eq!(board[10][0], 'X'); // A6 is GoGui's A11
    assert_eq!(board[0][10], 'O'); // F1 is GoGui's L1
    // Every listed cell is a point or a midpoint; nothing else is playable.
    let legal = ok(&mut gtp, "gogui-rules_legal_moves");
    // 204 points less the 8 stones and the 4 midpoints of their squares.
    assert_eq!(legal.split_whitespace().count(), 192);
    for m in legal.split_whitespace() {
        let (x, y) = gogui_parse_point(m, size).unwrap().unwrap();
        assert!(crosscut_point("onyx", 12, x, y).is_some(), "{m}");
    }
    // GoGui's B2 is the cell between A1, B1, A2 and B2: column 0 + row 1
    // is odd, so that cell is no square and has no midpoint.
    let err = send(&mut gtp, "play b B2").unwrap_err();
    assert!(err.contains("no point of this board"), "{err}");
    assert!(err.starts_with("invalid move"), "{err}");
    // GoGui's B4 is the midpoint of the square A2 B2 A3 B3 (0 + 2 even).
    ok(&mut gtp, "play b B4");
    assert_eq!(engine_color(&mut gtp, "AB23"), Some(Color::Black));
    check_board(&mut gtp);
    ok(&mut gtp, "undo");
    // Board order in GoGui's coordinates: row by row from the bottom.
    let first: Vec<&str> = legal.split_whitespace().take(3).collect();
    assert_eq!(first, ["A1", "C1", "E1"]);
    let mut moves = gogui_game(&mut gtp, size, 6);
    check_analyze(&mut gtp, size);
    moves.extend(gogui_game(&mut gtp, size, 24));
    assert!(moves.len() >= 10, "{moves:?}");
    check_analyze(&mut gtp, size);
    // Sizes: 14x14 would be 27 cells: refused; GoGui's 15 is Onyx 8x8.
    let err = send(&mut gtp, "boardsize 14").unwrap_err();
    assert!(err.contains("25"), "{err}");
    assert_eq!(ok(&mut gtp, "gogui-rules_board_size"), "23");
    ok(&mut gtp, "boardsize 15");
    assert_eq!(gtp.engine.rules().unwrap().size(), 8);
    assert_eq!(ok(&mut gtp, "gogui-rules_board_size"), "15");
    check_board(&mut gtp);
}

#[test]
fn orcoon_in_gogui() {
    let mut gtp = gogui_session("orcoon");
    let size = gogui_start(&mut gtp, "orcoon");
    assert_eq!(size, 11);
    let mut moves = gogui_game(&mut gtp, size, 6);
    check_analyze(&mut gtp, size);
    moves.extend(gogui_game(&mut gtp, size, 24));
    assert!(moves.len() >= 10, "{moves:?}");
    check_analyze(&mut gtp, size);
    // GoGui skips I: its ninth column J is crosscut's I.
    ok(&mut gtp, "boardsize 12");
    ok(&mut gtp, "clear_board");
    ok(&mut gtp, "play b J1");
    assert_eq!(engine_color(&mut gtp, "I1"), Some(Color::Black));
    assert_eq!(engine_color(&mut gtp, "J1"), None);
    check_board(&mut gtp);
    let err = send(&mut gtp, "play w I2").unwrap_err();
    assert!(err.contains("skip the letter I"), "{err}");
    // Out: no I in any list or answer.
    let legal = ok(&mut gtp, "gogui-rules_legal_moves");
    assert!(legal.split_whitespace().all(|m| !m.starts_with('I')));
    assert!(legal.contains("M12") && legal.ends_with("pass"), "{legal}");
    // Boards over 25 are refused, and nothing changes.
    let err = send(&mut gtp, "boardsize 26").unwrap_err();
    assert!(err.contains("GoGui") && err.contains("25"), "{err}");
    assert_eq!(ok(&mut gtp, "gogui-rules_board_size"), "12");
    ok(&mut gtp, "boardsize 25");
    check_board(&mut gtp);
}

#[test]
fn hex_in_gogui() {
    let mut gtp = gogui_session("hex");
    let size = gogui_start(&mut gtp, "hex");
    assert_eq!(size, 11);
    // Benzene's a1 (top left) is GoGui's A11.
    ok(&mut gtp, "play b A11");
    assert_eq!(engine_color(&mut gtp, "a1"), Some(Color::Black));
    assert_eq!(gogui_board(&mut gtp)[10][0], 'X');
    ok(&mut gtp, "undo");
    let mut moves = gogui_game(&mut gtp, size, 6);
    check_analyze(&mut gtp, size);
    moves.extend(gogui_game(&mut gtp, size, 24));
    assert!(moves.len() >= 10, "{moves:?}");
    check_analyze(&mut gtp, size);
}

#[test]
fn akron_in_gogui() {
    // GoGui can neither show nor enter Akron's ball moves: the game is
    // refused when GoGui mode starts with it and when it is selected in
    // it, with a pointer to the browser board; nothing changes.
    let mut gtp = Gtp::new();
    ok(&mut gtp, "game akron");
    let err = gtp.set_gogui(true).unwrap_err();
    assert!(err.contains("crosscut web"), "{err}");
    let mut gtp = gogui_session("orcoon");
    let before = ok(&mut gtp, "showboard");
    let err = send(&mut gtp, "game akron").unwrap_err();
    assert!(err.contains("crosscut web"), "{err}");
    assert_eq!(ok(&mut gtp, "gogui-rules_game_id"), "orcoon");
    assert_eq!(ok(&mut gtp, "showboard"), before);
    let out = crosscut(&["--gogui", "--game", "akron"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("crosscut web"));
}

/// Runs the engine with `args` and `input`.
fn crosscut(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosscut"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("crosscut starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// GoGui takes the board size from a fresh engine: `--size` and `--option`
/// on the engine's command line choose them (GoGui mode then turns the
/// swap off); a bad size or option is named at start.
#[test]
fn the_command_line_chooses_the_size_and_options() {
    let out = crosscut(
        &[
            "--game",
            "onyx",
            "--size",
            "8",
            "--option",
            "start=blank",
            "--gogui",
        ],
        "gogui-rules_board_size\nposition\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("= 15\n\n= "), "{text}");
    assert!(
        text.contains(r#""options":{"start":"blank","swap":"off"}"#),
        "{text}"
    );
    let out = crosscut(
        &["--game", "hex", "--size", "9", "--option", "swap=off"],
        "",
    );
    assert!(out.status.success());
    for bad in [
        &["--game", "onyx", "--size", "7"][..],
        &["--game", "hex", "--option", "start=blank"],
        &["--size", "9"],
        &["--game", "hex", "--option"],
    ] {
        let out = crosscut(bad, "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty(), "{bad:?}");
    }
}

#[test]
fn gogui_mode_plays_without_swap_and_passes_after_the_end() {
    // GoGui can enter no swap: every game is played without it in GoGui
    // mode, whatever was chosen before.
    let mut gtp = gogui_session("hex");
    gogui_start(&mut gtp, "hex");
    ok(&mut gtp, "play b F6");
    assert!(!ok(&mut gtp, "legal_moves").contains("swap"));
    assert!(send(&mut gtp, "play w swap").is_err());
    let m = ok(&mut gtp, "reg_genmove w");
    assert!(gogui_parse_point(&m, 11).is_ok(), "{m}");
    assert!(ok(&mut gtp, "position").contains(r#""options":{"swap":"off"}"#));
    // After the end (gogui-twogtp asks on until two passes): genmove
    // answers pass, a pass is taken, nothing changes, undo takes it back.
    let mut gtp = gogui_session("hex");
    ok(&mut gtp, "boardsize 3");
    for m in ["b A1", "w B1", "b A2", "w B2", "b A3"] {
        ok(&mut gtp, &format!("play {m}"));
    }
    let won = gogui_board(&mut gtp);
    assert_eq!(ok(&mut gtp, "genmove w"), "pass");
    ok(&mut gtp, "play w pass");
    assert_eq!(ok(&mut gtp, "genmove b"), "pass");
    ok(&mut gtp, "play b pass");
    assert_eq!(gogui_board(&mut gtp), won);
    assert_eq!(ok(&mut gtp, "final_score"), "B+");
    ok(&mut gtp, "undo");
    ok(&mut gtp, "undo");
    assert_eq!(ok(&mut gtp, "final_score"), "B+");
    ok(&mut gtp, "undo");
    assert!(
        send(&mut gtp, "final_score").is_err(),
        "the last stone undone"
    );
}

#[test]
fn gogui_commands_need_gogui_mode() {
    let mut gtp = Gtp::new();
    ok(&mut gtp, "game orcoon");
    assert_eq!(
        ok(&mut gtp, "known_command gogui-analyze_commands"),
        "false"
    );
    assert!(send(&mut gtp, "gogui-analyze_commands").is_err());
    // Outside GoGui mode, crosscut's own coordinates: J is the tenth column.
    ok(&mut gtp, "play b J1");
    assert_eq!(engine_color(&mut gtp, "J1"), Some(Color::Black));
}

#[test]
fn the_emulated_parser_is_gogui_s() {
    // The problems the tester saw, as GoGui's parser reads them: Onyx's
    // showboard shifts the board (its grid lines are skipped, but the
    // header's column letter O on 16x16 and midpoints are taken as cells).
    let mut gtp = Gtp::new();
    ok(&mut gtp, "game orcoon");
    ok(&mut gtp, "boardsize 16");
    let showboard = ok(&mut gtp, "showboard");
    let read = gogui_read_board(&showboard, 16);
    assert_eq!(read[15][0], 'O', "the header's O is read as a white stone");
    // GoGui's point names.
    assert_eq!(gogui_name(8, 0), "J1");
    assert_eq!(gogui_parse_point("j1", 19).unwrap(), Some((8, 0)));
    assert_eq!(gogui_parse_point("PASS", 19).unwrap(), None);
    assert!(gogui_parse_point("Z26", 25).is_err());
    assert_eq!(gogui_parse_point("Z25", 25).unwrap(), Some((24, 24)));
}
