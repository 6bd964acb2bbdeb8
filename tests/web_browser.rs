//! The browser board driven in headless Chromium through WebDriver: for
//! each game, `crosscut web --port 0` is started, the page opened and a
//! game played by clicking; after each click the pieces drawn (the SVG's
//! `circle.piece` elements, by `data-point` and `data-color`) must match
//! the position of an engine that plays the same moves here. Also: an
//! illegal click shows the engine's reason and changes nothing, undo, new
//! game, a game against the engine, and a foreign `Origin` is refused.
//! A screenshot of each game goes to `CARGO_TARGET_TMPDIR/web/`.
//!
//! Needs `chromedriver` (or the program `CHROMEDRIVER` names) and
//! `chromium` on the PATH (Debian: `apt-get install chromium
//! chromium-driver`); without them each test prints `SKIPPED` and why, and
//! passes without running.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crosscut::protocol::Gtp;
use serde_json::{Value, json};

/// One HTTP/1.1 request (Connection: close): status and body.
fn http(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.unwrap_or("");
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    // Read the head, then exactly Content-Length bytes (chromedriver keeps
    // the connection open), or to the end without one.
    let mut reader = BufReader::new(s);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let length = head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("content-length")
            .then(|| v.trim().parse::<usize>().ok())?
    });
    let mut body = Vec::new();
    match length {
        Some(n) => {
            body.resize(n, 0);
            let _ = reader.read_exact(&mut body);
        }
        None => {
            let _ = reader.read_to_end(&mut body);
        }
    }
    let body = String::from_utf8_lossy(&body).to_string();
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(&body)
    } else {
        body
    };
    (status, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A child process killed when dropped.
struct Kill(Child);
impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `crosscut web --port 0`: the process and its port.
fn start_server() -> (Kill, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosscut"))
        .args(["web", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start crosscut web");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    (Kill(child), port)
}

/// A WebDriver session on a chromedriver of our own.
struct Browser {
    _driver: Kill,
    _one_at_a_time: std::sync::MutexGuard<'static, ()>,
    port: u16,
    session: String,
}

impl Browser {
    /// Starts chromedriver and a headless Chromium, or says why not.
    fn start() -> Result<Browser, String> {
        // One browser at a time: two shared cores run one Chromium well.
        static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let port = free_port();
        let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let driver = Command::new(program)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("chromedriver not available ({e})"))?;
        let driver = Kill(driver);
        let t = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if t.elapsed() > Duration::from_secs(10) {
                return Err("chromedriver did not start".into());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--window-size=1300,950"]}}}});
        let (status, body) = http(port, "POST", "/session", Some(&caps.to_string()), &[]);
        let v: Value = serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))?;
        let session = v["value"]["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no browser session ({status}): {body}"))?
            .to_string();
        Ok(Browser {
            _driver: driver,
            _one_at_a_time: guard,
            port,
            session,
        })
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let body = body.map(|b| b.to_string());
        let (_, text) = http(self.port, method, &path, body.as_deref(), &[]);
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        v["value"].clone()
    }

    fn goto(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    fn script(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    fn find(&self, css: &str) -> Option<String> {
        let v = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_object()?.values().next()?.as_str().map(str::to_string)
    }

    fn click(&self, css: &str) {
        let id = self.find(css).unwrap_or_else(|| panic!("no element {css}"));
        let r = self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
        assert!(
            r.is_null() || r.get("error").is_none(),
            "click on {css}: {r}"
        );
    }

    fn wait(&self, what: &str, mut ok: impl FnMut(&Browser) -> bool) {
        let t = Instant::now();
        while !ok(self) {
            assert!(
                t.elapsed() < Duration::from_secs(20),
                "timed out waiting for {what}"
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// The pieces drawn: (point, colour).
    fn pieces(&self) -> BTreeSet<(String, String)> {
        let v = self.script(
            "return Array.from(document.querySelectorAll('#board circle.piece')).map(c => [c.dataset.point, c.dataset.color]);",
        );
        v.as_array()
            .map(|a| {
                a.iter()
                    .map(|p| {
                        (
                            p[0].as_str().unwrap_or("").to_string(),
                            p[1].as_str().unwrap_or("").to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn text(&self, id: &str) -> String {
        self.script(&format!(
            "return document.getElementById('{id}').textContent;"
        ))
        .as_str()
        .unwrap_or("")
        .to_string()
    }

    fn screenshot(&self, name: &str) {
        // The pointer off the board, so no point shows hovered.
        self.call(
            "POST",
            "/actions",
            Some(
                json!({"actions": [{"type": "pointer", "id": "mouse", "actions": [
                {"type": "pointerMove", "x": 1, "y": 1, "origin": "viewport"}]}]}),
            ),
        );
        let v = self.call("GET", "/screenshot", None);
        let data = decode_base64(v.as_str().unwrap_or(""));
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), data).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        http(self.port, "DELETE", &path, None, &[]);
    }
}

fn decode_base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=' && c != b'\n').collect();
    let mut out = Vec::new();
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= (val(c) as u32) << (18 - 6 * i);
        }
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// The browser, or `None` after saying why the test is skipped.
fn browser() -> Option<Browser> {
    match Browser::start() {
        Ok(b) => Some(b),
        Err(e) => {
            eprintln!("SKIPPED: browser tests need chromedriver and chromium: {e}");
            None
        }
    }
}

/// Our own engine replaying the moves the page plays.
struct Mirror(Gtp);

impl Mirror {
    fn new(game: &str, size: usize, extra: &[&str]) -> Mirror {
        let mut g = Gtp::new();
        for c in [format!("game {game}")]
            .into_iter()
            .chain(extra.iter().map(|s| s.to_string()))
            .chain([format!("boardsize {size}")])
        {
            assert!(g.execute(&c).unwrap().starts_with('='), "{c}");
        }
        Mirror(g)
    }
    fn run(&mut self, c: &str) -> (bool, String) {
        let a = self.0.execute(c).unwrap();
        (a.starts_with('='), a[1..].trim().to_string())
    }
    fn position(&mut self) -> Value {
        serde_json::from_str(&self.run("position").1).unwrap()
    }
    fn pieces(&mut self) -> BTreeSet<(String, String)> {
        self.position()["points"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["piece"].is_string())
            .map(|p| {
                (
                    p["name"].as_str().unwrap().to_string(),
                    p["piece"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }
}

/// Clicks `mv` on the page (Akron's ball moves: origin, then destination),
/// plays it on the mirror, and checks that the board drawn matches.
fn click_move(b: &Browser, m: &mut Mirror, mv: &str) {
    let color = m.position()["to_move"].as_str().unwrap().to_string();
    match mv {
        "swap" => b.click("#swap"),
        "pass" => b.click("#pass"),
        _ => match mv.split_once('-') {
            Some((from, to)) => {
                b.click(&format!("circle.target[data-point='{from}']"));
                b.wait("destinations", |b| {
                    b.find(&format!("circle.target[data-point='{to}']"))
                        .is_some()
                });
                b.click(&format!("circle.target[data-point='{to}']"));
            }
            None => b.click(&format!("circle.target[data-point='{mv}']")),
        },
    }
    let (ok, e) = m.run(&format!("play {color} {mv}"));
    assert!(ok, "{mv}: {e}");
    let want = m.pieces();
    let history = m.position()["history"].as_array().unwrap().len();
    b.wait(&format!("the board after {mv}"), |b| {
        b.script("return document.querySelectorAll('#moves li').length;") == json!(history)
            && b.pieces() == want
    });
}

/// Plays `moves` moves chosen from the mirror's legal moves (placements,
/// then ball moves, then pass/swap never), the `pick`-th each time.
fn play_game(b: &Browser, m: &mut Mirror, moves: usize) {
    for i in 0..moves {
        let pos = m.position();
        if pos["result"].is_string() {
            break;
        }
        let legal: Vec<String> = pos["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .filter(|v| v != "swap" && v != "pass")
            .collect();
        // Akron: a ball move every third turn when there is one.
        let steps: Vec<&String> = legal.iter().filter(|v| v.contains('-')).collect();
        // A ball onto a higher level when it can, to stack balls.
        let up = steps.iter().find(|s| {
            let to = s.split('-').nth(1).unwrap_or("");
            to.chars().filter(char::is_ascii_alphabetic).count() == 2
        });
        let mv = if i % 3 == 2 && !steps.is_empty() {
            up.copied().unwrap_or(steps[(i * 7) % steps.len()]).clone()
        } else {
            let adds: Vec<&String> = legal.iter().filter(|v| !v.contains('-')).collect();
            adds[(i * 37 + 11) % adds.len()].clone()
        };
        click_move(b, m, &mv);
    }
}

fn open(b: &Browser, port: u16, query: &str) {
    b.goto(&format!("http://127.0.0.1:{port}/?{query}"));
    b.wait("the page", |b| {
        b.script("return document.body.dataset.ready || '';") == json!("yes")
    });
}

fn play_one_game(game: &str, size: usize, extra_query: &str, extra: &[&str], moves: usize) {
    let Some(b) = browser() else { return };
    let (_server, port) = start_server();
    open(
        &b,
        port,
        &format!("game={game}&size={size}&black=human&white=human{extra_query}"),
    );
    let mut m = Mirror::new(game, size, extra);
    b.wait("the start position", |b| b.pieces() == m.pieces());
    play_game(&b, &mut m, moves);
    b.screenshot(game);

    // An illegal click: an occupied point. The page shows the engine's
    // reason; nothing changes.
    if m.position()["result"].is_null() {
        let to_move = m.position()["to_move"].as_str().unwrap().to_string();
        // Akron: a ball of the mover would be selected; take the other's.
        let occupied = m
            .pieces()
            .into_iter()
            .find(|(_, c)| game != "akron" || *c != to_move);
        if let Some((p, _)) = occupied {
            let color = m.position()["to_move"].as_str().unwrap().to_string();
            let before = b.pieces();
            b.click(&format!("circle.target[data-point='{p}']"));
            let (ok, reason) = m.run(&format!("play {color} {p}"));
            assert!(!ok);
            b.wait("the reason", |b| b.text("message") == reason);
            assert_eq!(b.pieces(), before);
        }
    }

    // Undo takes one move back (human against human).
    b.click("#undo");
    m.run("undo");
    let want = m.pieces();
    b.wait("undo", |b| b.pieces() == want);

    // New game: the start position again.
    b.click("#new");
    let mut fresh = Mirror::new(game, size, extra);
    let want = fresh.pieces();
    b.wait("a new game", |b| {
        b.pieces() == want
            && b.script("return document.querySelectorAll('#moves li').length;") == json!(0)
    });
}

#[test]
fn onyx_in_the_browser() {
    play_one_game("onyx", 8, "", &[], 16);
}

#[test]
fn orcoon_in_the_browser() {
    play_one_game("orcoon", 7, "", &[], 14);
}

#[test]
fn akron_in_the_browser() {
    play_one_game("akron", 5, "", &[], 14);
}

#[test]
fn hex_in_the_browser() {
    play_one_game("hex", 7, "", &[], 14);
}

#[test]
fn hex_win_highlights_the_chain_and_the_engine_answers() {
    let Some(b) = browser() else { return };
    let (_server, port) = start_server();
    open(&b, port, "game=hex&size=3&black=human&white=human");
    let mut m = Mirror::new("hex", 3, &[]);
    for mv in ["b1", "a1", "b2", "a2", "b3"] {
        click_move(&b, &mut m, mv);
    }
    b.wait("the chain", |b| {
        b.script("return document.querySelectorAll('#board circle.chain').length;") == json!(3)
    });
    assert!(
        b.text("status").contains("black wins"),
        "{}",
        b.text("status")
    );
    b.screenshot("hex-won");

    // Against the engine: White answers by itself, the analysis shows.
    open(&b, port, "game=hex&size=5&black=human&white=engine");
    b.click("circle.target[data-point='c3']");
    b.wait("the engine's answer", |b| {
        b.pieces().len() == 2 && b.script("return document.body.dataset.thinking;") == json!("no")
    });
    assert!(
        b.text("analysis").contains("depth"),
        "{}",
        b.text("analysis")
    );
}

#[test]
fn a_foreign_origin_is_refused() {
    let (_server, port) = start_server();
    let (status, body) = http(
        port,
        "POST",
        "/api/session",
        Some("{}"),
        &[("Origin", "http://evil.example")],
    );
    assert_eq!(status, 403, "{body}");
    let (status, _) = http(port, "POST", "/api/session", Some("{}"), &[]);
    assert_eq!(status, 200);
    let (status, _) = http(
        port,
        "POST",
        "/api/session",
        Some("{}"),
        &[("Origin", &format!("http://127.0.0.1:{port}"))],
    );
    assert_eq!(status, 200);
}

#[test]
fn akron_balls_climb_to_level_two() {
    let Some(b) = browser() else { return };
    let (_server, port) = start_server();
    open(&b, port, "game=akron&size=5&black=human&white=human");
    let mut m = Mirror::new("akron", 5, &[]);
    let moves = "C4 D4 B2 D2 D3 C2 B3 C3 B4 C2-BC34 B2-CD34 B2 C2 BC34-BC23 B3-CD23 B2-BC34 \
                 B2 BC34-BC23 B2-BC34 B1 B4-BC23 B1-BC34 C5 C1 C5-BD24";
    for mv in moves.split_whitespace() {
        click_move(&b, &mut m, mv);
    }
    // The level-2 ball is drawn with its level.
    let level = b.script(
        "return document.querySelector(\"#board circle.piece[data-point='BD24']\").dataset.level;",
    );
    assert_eq!(level, json!("2"));
    b.screenshot("akron-levels");
}

#[test]
fn orcoon_pass_shows_the_adjudication() {
    let Some(b) = browser() else { return };
    let (_server, port) = start_server();
    open(&b, port, "game=orcoon&size=5&black=human&white=human");
    let mut m = Mirror::new("orcoon", 5, &[]);
    for mv in ["C1", "B3", "C2", "D3", "C3", "A1", "C4", "pass"] {
        click_move(&b, &mut m, mv);
    }
    let seq = m.run("winning_sequence");
    b.wait("the winning sequence", |b| {
        b.text("status").contains("passed") && (!seq.0 || b.text("status").contains(seq.1.as_str()))
    });
    b.screenshot("orcoon-pass");
}

#[test]
fn swap_button_and_sgf_upload() {
    let Some(b) = browser() else { return };
    let (_server, port) = start_server();
    open(&b, port, "game=hex&size=4&black=human&white=human");
    let mut m = Mirror::new("hex", 4, &[]);
    click_move(&b, &mut m, "b2");
    // Swap is offered after Black's first move and played by its button.
    b.wait("the swap button", |b| {
        b.script("return document.getElementById('swap').disabled;") == json!(false)
    });
    click_move(&b, &mut m, "swap");
    b.wait("swap listed", |b| b.text("moves").contains("swap"));

    // Open a record through the file input: the board shows its position.
    let sgf = "(;FF[4]GM[11]XG[hex]SZ[5];B[c3];W[b4];B[d2])";
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-upload.sgf");
    std::fs::write(&path, sgf).unwrap();
    let input = b.find("#upload").expect("the file input");
    b.call(
        "POST",
        &format!("/element/{input}/value"),
        Some(json!({ "text": path.to_str().unwrap() })),
    );
    let mut loaded = Mirror::new("hex", 5, &[]);
    for mv in ["b c3", "w b4", "b d2"] {
        loaded.run(&format!("play {mv}"));
    }
    let want = loaded.pieces();
    b.wait("the uploaded game", |b| b.pieces() == want);
    assert!(b.text("status").contains("hex 5×5"), "{}", b.text("status"));
}
