//! The browser board driven in headless Chromium through WebDriver. Each
//! test starts `crosscut web --port 0`, opens the page and plays by
//! clicking, checking after each click that the pieces drawn (the SVG's
//! `circle.piece` elements, by `data-point` and `data-color`) are the
//! engine's: either the page's own engine, asked for its `position`
//! through the API, or an engine here that plays the same moves.
//! - For every game, a whole game against the engine (0.1 s a move) on a
//!   4×4 board to its end, the result and the winning chain shown; on the
//!   way an illegal click (the engine's reason shown, nothing changed),
//!   after it undo and a new game.
//! - Human against human: an Onyx game with a capture played to a win, an
//!   Akron game with a drop played to a win, an Orcoon pass adjudicated
//!   with the winning sequence drawn, Hex's swap button and a win, Akron
//!   balls climbing to level 2.
//! - Legal points light up under the pointer (a real pointer move); an
//!   Akron ball, once selected, shows its destinations.
//! - The SGF downloaded by the page's button (into Chromium's download
//!   folder) is the game, and opening it through the upload control
//!   restores the board.
//! - A foreign `Origin` is refused.
//! - `#[ignore]`d (longer): a random game by clicks on a bigger board for
//!   each game, with an illegal click, undo and new game.
//!
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
    try_http(port, method, path, body, headers).expect("connect")
}

/// [`http`], or the error when nothing accepts the connection.
fn try_http(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> std::io::Result<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
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
    Ok((status, body))
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

/// Why a browser did not start, and whether a new port may help.
struct StartError {
    why: String,
    retry: bool,
}

impl StartError {
    fn retry(why: String) -> StartError {
        StartError { why, retry: true }
    }

    fn fatal(why: String) -> StartError {
        StartError { why, retry: false }
    }
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
    /// A start whose port another test's server took (chosen free, then
    /// bound by someone else first) is tried again on a new port.
    fn start() -> Result<Browser, String> {
        // One browser at a time: two shared cores run one Chromium well.
        static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let mut tries = 0;
        loop {
            tries += 1;
            match Browser::start_on(free_port()) {
                Ok((driver, port, session)) => {
                    return Ok(Browser {
                        _driver: driver,
                        _one_at_a_time: guard,
                        port,
                        session,
                    });
                }
                Err(e) if e.retry && tries < 3 => {
                    eprintln!("chromedriver on a new port: {}", e.why)
                }
                Err(e) => return Err(e.why),
            }
        }
    }

    /// Chromedriver on `port` and a session of it: the driver, the port
    /// and the session's id.
    fn start_on(port: u16) -> Result<(Kill, u16, String), StartError> {
        let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let driver = Command::new(program)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| StartError::fatal(format!("chromedriver not available ({e})")))?;
        let driver = Kill(driver);
        // Ready when chromedriver itself answers its status (not merely
        // when something accepts connections on the port).
        let t = Instant::now();
        while !try_http(port, "GET", "/status", None, &[])
            .is_ok_and(|(status, body)| status == 200 && body.contains("\"ready\""))
        {
            if t.elapsed() > Duration::from_secs(10) {
                return Err(StartError::retry("chromedriver did not start".into()));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let downloads = download_dir();
        std::fs::create_dir_all(&downloads).map_err(|e| StartError::fatal(e.to_string()))?;
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1300,950"],
            "prefs": {"download.default_directory": downloads,
                      "download.prompt_for_download": false,
                      "download.directory_upgrade": true}}}}});
        let (status, body) = try_http(port, "POST", "/session", Some(&caps.to_string()), &[])
            .map_err(|e| StartError::retry(format!("chromedriver went away: {e}")))?;
        let v: Value =
            serde_json::from_str(&body).map_err(|e| StartError::fatal(format!("{e}: {body}")))?;
        let session = v["value"]["sessionId"]
            .as_str()
            .ok_or_else(|| StartError::fatal(format!("no browser session ({status}): {body}")))?
            .to_string();
        Ok((driver, port, session))
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
        // The page redraws the board after each answer: an element found
        // just before a redraw is stale; find it again.
        for _ in 0..20 {
            let id = self.find(css).unwrap_or_else(|| panic!("no element {css}"));
            let r = self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
            if r.is_null() || r.get("error").is_none() {
                return;
            }
            assert_eq!(r["error"], "stale element reference", "click on {css}: {r}");
            std::thread::sleep(Duration::from_millis(30));
        }
        panic!("click on {css}: the element stays stale");
    }

    /// Moves the pointer onto the element `css` names (a real hover).
    fn hover(&self, css: &str) {
        // To the centre of its box, in viewport coordinates.
        let at = self.script(&format!(
            "const r = document.querySelector(\"{css}\").getBoundingClientRect(); \
             return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];"
        ));
        let (x, y) = (at[0].as_i64(), at[1].as_i64());
        let (Some(x), Some(y)) = (x, y) else {
            panic!("no element {css}")
        };
        let r = self.call(
            "POST",
            "/actions",
            Some(
                json!({"actions": [{"type": "pointer", "id": "mouse", "actions": [
                {"type": "pointerMove", "x": x, "y": y, "origin": "viewport"}]}]}),
            ),
        );
        assert!(r.is_null() || r.get("error").is_none(), "hover {css}: {r}");
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
        self.screenshot_as_is(name);
    }

    /// A screenshot with the pointer where it is (a hover shows).
    fn screenshot_as_is(&self, name: &str) {
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

/// Where the browser saves downloads (one browser runs at a time).
fn download_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-downloads")
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
        pieces_of(&self.position())
    }
}

/// The pieces of a `position` answer: (point, colour).
fn pieces_of(pos: &Value) -> BTreeSet<(String, String)> {
    pos["points"]
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

/// The position of the page's own engine (its tab's session), asked
/// through the API as any client would.
fn engine_position(b: &Browser, port: u16) -> Value {
    let id = b.script("return state.id;");
    let body = json!({"id": id, "command": "position"}).to_string();
    let (status, text) = http(port, "POST", "/api/command", Some(&body), &[]);
    assert_eq!(status, 200, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    v["position"].clone()
}

/// The points highlighted as the winning chain.
fn chain_drawn(b: &Browser) -> BTreeSet<String> {
    let v = b.script(
        "return Array.from(document.querySelectorAll('#board circle.chain')).map(c => c.dataset.point);",
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap_or("").to_string())
        .collect()
}

fn chain_of(pos: &Value) -> BTreeSet<String> {
    pos["chain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect()
}

fn moves_listed(b: &Browser) -> usize {
    b.script("return document.querySelectorAll('#moves li').length;")
        .as_u64()
        .unwrap_or(0) as usize
}

/// Clicks `mv` on the page: a button for swap and pass, a point, or for
/// Akron's ball moves the ball, then (once shown) its destination.
fn click_on_page(b: &Browser, mv: &str) {
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
}

/// Clicks `mv` on the page, plays it on the mirror, and checks that the
/// board drawn matches.
fn click_move(b: &Browser, m: &mut Mirror, mv: &str) {
    let color = m.position()["to_move"].as_str().unwrap().to_string();
    click_on_page(b, mv);
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
#[ignore = "longer: a bigger board by clicks; run with --ignored"]
fn onyx_in_the_browser() {
    play_one_game("onyx", 8, "", &[], 16);
}

#[test]
#[ignore = "longer: a bigger board by clicks; run with --ignored"]
fn orcoon_in_the_browser() {
    play_one_game("orcoon", 7, "", &[], 14);
}

#[test]
#[ignore = "longer: a bigger board by clicks; run with --ignored"]
fn akron_in_the_browser() {
    play_one_game("akron", 5, "", &[], 14);
}

#[test]
#[ignore = "longer: a bigger board by clicks; run with --ignored"]
fn hex_in_the_browser() {
    play_one_game("hex", 7, "", &[], 14);
}

#[test]
fn hex_swap_win_and_the_engine_answers() {
    let Some(b) = browser() else { return };
    let (_server, port) = start_server();
    // Swap is offered after Black's first move and played by its button.
    open(&b, port, "game=hex&size=4&black=human&white=human");
    let mut m = Mirror::new("hex", 4, &[]);
    click_move(&b, &mut m, "b2");
    b.wait("the swap button", |b| {
        b.script("return document.getElementById('swap').disabled;") == json!(false)
    });
    click_move(&b, &mut m, "swap");
    b.wait("swap listed", |b| b.text("moves").contains("swap"));

    // A win: the chain highlighted.
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

    // Against the engine: White answers by itself (a corner opening is not
    // worth a swap), the analysis shows.
    open(&b, port, "game=hex&size=5&black=human&white=engine");
    b.click("circle.target[data-point='a1']");
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
    assert!(seq.0 && !seq.1.is_empty(), "{}", seq.1);
    b.wait("the winning sequence", |b| {
        b.text("status").contains("passed") && b.text("status").contains(seq.1.as_str())
    });
    assert!(
        b.text("status").contains("black wins"),
        "{}",
        b.text("status")
    );
    // The sequence is drawn on the board, numbered in order.
    let drawn = b.script(
        "return Array.from(document.querySelectorAll('#board text.seq')).map(t => t.textContent);",
    );
    let n = seq.1.split_whitespace().count();
    let numbers: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    assert_eq!(drawn, json!(numbers));
    assert_eq!(
        b.script("return document.querySelectorAll('#board circle.sequence').length;"),
        json!(n)
    );
    b.screenshot("orcoon-pass");
}

/// The points the page marks with `selector` (by `data-point`).
fn marked(b: &Browser, selector: &str) -> BTreeSet<String> {
    b.script(&format!(
        "return Array.from(document.querySelectorAll(\"{selector}\")).map(c => c.dataset.point);"
    ))
    .as_array()
    .unwrap()
    .iter()
    .map(|v| v.as_str().unwrap_or("").to_string())
    .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[test]
fn onyx_capture_then_a_win() {
    let Some(b) = browser() else { return };
    let (_server, port) = start_server();
    open(
        &b,
        port,
        "game=onyx&size=4&start=blank&black=human&white=human",
    );
    let mut m = Mirror::new("onyx", 4, &["start blank"]);
    for mv in ["B1", "C1", "C2"] {
        click_move(&b, &mut m, mv);
    }
    // White's B2 captures B1 and C2: they leave the board, marked.
    click_move(&b, &mut m, "B2");
    assert_eq!(marked(&b, "#board line.captured"), set(&["B1", "C2"]));
    let facts = b.text("facts");
    assert!(
        facts.contains("captured: B1 C2") || facts.contains("captured: C2 B1"),
        "{facts}"
    );
    b.screenshot("onyx-capture");
    // Marks last one move; the game goes on (White retakes B1) to its end.
    click_move(&b, &mut m, "D3");
    assert!(marked(&b, "#board line.captured").is_empty());
    for mv in ["A2", "BC34", "B1", "B4", "D1"] {
        click_move(&b, &mut m, mv);
    }
    let pos = m.position();
    assert_eq!(pos["winner"], "white");
    b.wait("the result", |b| b.text("status").contains("white wins"));
    assert_eq!(chain_drawn(&b), chain_of(&pos));
    assert_eq!(chain_of(&pos), set(&["A2", "B2", "B1", "C1", "D1"]));
    b.screenshot("onyx-capture-won");
}

#[test]
fn akron_drop_then_a_win() {
    let Some(b) = browser() else { return };
    let (_server, port) = start_server();
    open(&b, port, "game=akron&size=4&black=human&white=human");
    let mut m = Mirror::new("akron", 4, &[]);
    let moves = "B4 A3 C3 B3 D3 A2 C3-D2 D1 C4 A2-C3 B4-D4 A3-CD34";
    for mv in moves.split_whitespace() {
        click_move(&b, &mut m, mv);
    }
    // Black moves D3 from under White's CD34, which drops into D3.
    click_move(&b, &mut m, "D3-C2");
    assert_eq!(marked(&b, "#board line.drop"), set(&["CD34"]));
    assert!(
        b.text("facts").contains("dropped from: CD34"),
        "{}",
        b.text("facts")
    );
    b.screenshot("akron-drop");
    // White joins its edges with A3.
    click_move(&b, &mut m, "A3");
    let pos = m.position();
    assert_eq!(pos["winner"], "white");
    b.wait("the result", |b| b.text("status").contains("white wins"));
    assert_eq!(chain_drawn(&b), chain_of(&pos));
    b.screenshot("akron-drop-won");
}

/// A whole game against the engine (0.1 s a move) by clicks: the human
/// side plays legal moves picked from the engine's own list (never swap,
/// pass only when nothing else is legal); after each move and each answer
/// the board drawn must be the engine's position as the API gives it. The
/// game must end with the result shown and, when the winner joined its
/// edges on the board, its chain highlighted.
fn play_against_the_engine(game: &str, size: usize, human: &str, query: &str, mut seed: u64) {
    let Some(b) = browser() else { return };
    let (_server, port) = start_server();
    let (black, white) = if human == "black" {
        ("human", "engine")
    } else {
        ("engine", "human")
    };
    open(
        &b,
        port,
        &format!("game={game}&size={size}&black={black}&white={white}&movetime=0.1{query}"),
    );
    let mut plies = 0;
    let pos = loop {
        // The engine has answered: a human's turn (the human's colour
        // changes if the engine swaps), or the end.
        b.wait("the engine's move", |b| {
            b.script(
                "return document.body.dataset.thinking === 'no' && !!state.pos \
                 && (!!state.pos.result || players()[state.pos.to_move] === 'human');",
            ) == json!(true)
        });
        let pos = engine_position(&b, port);
        let history = pos["history"].as_array().unwrap().len();
        assert_eq!(moves_listed(&b), history, "{}", pos["history"]);
        assert_eq!(b.pieces(), pieces_of(&pos), "after {}", pos["history"]);
        if pos["result"].is_string() {
            break pos;
        }
        assert!(plies < 80, "no end after {plies} moves: {}", pos["history"]);
        let legal: Vec<&str> = pos["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .filter(|&v| v != "swap")
            .collect();
        let choice: Vec<&str> = legal.iter().copied().filter(|&v| v != "pass").collect();
        let choice = if choice.is_empty() { legal } else { choice };
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = choice[(seed >> 33) as usize % choice.len()];
        if plies == 1 {
            illegal_click_changes_nothing(&b, port, &pos, game);
        }
        click_on_page(&b, mv);
        plies += 1;
        b.wait(&format!("{mv} listed"), |b| moves_listed(b) > history);
    };
    let status = b.text("status");
    assert!(
        status.contains(&format!("{} wins", pos["winner"].as_str().unwrap_or("?"))),
        "{status}"
    );
    let chain = chain_of(&pos);
    if pos["facts"]["passed"].is_null() {
        assert!(!chain.is_empty(), "a win without a chain: {pos}");
    }
    assert_eq!(chain_drawn(&b), chain);
    b.screenshot(&format!("{game}-against-the-engine"));

    // Undo after the end: back to the human's turn before the last move
    // (one move or two), the game open again.
    let history = pos["history"].as_array().unwrap().len();
    b.click("#undo");
    b.wait("undo", |b| {
        b.script(&format!(
            "return document.body.dataset.thinking === 'no' && !state.pos.result \
             && players()[state.pos.to_move] === 'human' && state.pos.history.length < {history};"
        )) == json!(true)
    });
    let pos = engine_position(&b, port);
    assert!(pos["result"].is_null());
    assert_eq!(b.pieces(), pieces_of(&pos));
    assert!(chain_drawn(&b).is_empty());
    // New game: the start again (with the engine's first move when it
    // has Black).
    b.click("#new");
    let first = usize::from(human == "white");
    b.wait("a new game", |b| {
        b.script(&format!(
            "return document.body.dataset.thinking === 'no' && state.pos.history.length === {first};"
        )) == json!(true)
    });
    let pos = engine_position(&b, port);
    assert_eq!(pos["history"].as_array().unwrap().len(), first);
    assert_eq!(b.pieces(), pieces_of(&pos));
}

/// Clicks a point the human may not play (a piece on the board; for
/// Akron one of the other side's balls, as the mover's own would be
/// selected): the page shows the engine's own reason, and nothing
/// changes.
fn illegal_click_changes_nothing(b: &Browser, port: u16, pos: &Value, game: &str) {
    let mover = pos["to_move"].as_str().unwrap();
    let Some((point, _)) = pieces_of(pos)
        .into_iter()
        .find(|(_, c)| game != "akron" || c != mover)
    else {
        return;
    };
    let before = b.pieces();
    b.click(&format!("circle.target[data-point='{point}']"));
    b.wait("the reason", |b| !b.text("message").is_empty());
    // The engine's answer to the same move, through the API.
    let id = b.script("return state.id;");
    let body = json!({"id": id, "command": format!("play {mover} {point}")}).to_string();
    let (_, text) = http(port, "POST", "/api/command", Some(&body), &[]);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["ok"], false, "{text}");
    assert_eq!(b.text("message"), v["answer"].as_str().unwrap());
    assert_eq!(b.pieces(), before);
    assert_eq!(engine_position(b, port)["history"], pos["history"]);
}

#[test]
fn onyx_against_the_engine() {
    play_against_the_engine("onyx", 4, "white", "&start=blank", 1);
}

#[test]
fn orcoon_against_the_engine() {
    play_against_the_engine("orcoon", 4, "black", "", 2);
}

#[test]
fn akron_against_the_engine() {
    play_against_the_engine("akron", 4, "black", "", 3);
}

#[test]
fn hex_against_the_engine() {
    play_against_the_engine("hex", 4, "white", "", 4);
}

/// The class of the click target on `point`, and the fill of what
/// lights up there under the pointer: the mover's piece shown faintly on
/// a legal placement, the target itself for an Akron ball to select.
fn target_look(b: &Browser, point: &str) -> (String, String) {
    let v = b.script(&format!(
        "const t = document.querySelector(\"#board circle.target[data-point='{point}']\"); \
         const g = document.querySelector(\"#board circle.ghost[data-point='{point}']\"); \
         return [t.getAttribute('class'), getComputedStyle(g || t).fill];"
    ));
    (
        v[0].as_str().unwrap_or("").to_string(),
        v[1].as_str().unwrap_or("").to_string(),
    )
}

const TRANSPARENT: &str = "rgba(0, 0, 0, 0)";

#[test]
fn legal_points_light_up_under_the_pointer_and_akron_shows_destinations() {
    let Some(b) = browser() else { return };
    let (_server, port) = start_server();
    // Onyx: a legal point lights up in the mover's colour under the
    // pointer; an occupied point and a midpoint whose square holds a
    // stone do not.
    open(
        &b,
        port,
        "game=onyx&size=4&start=blank&black=human&white=human",
    );
    let mut m = Mirror::new("onyx", 4, &["start blank"]);
    for mv in ["B2", "C3"] {
        click_move(&b, &mut m, mv);
    }
    b.hover("circle.target[data-point='D2']");
    let (class, fill) = target_look(&b, "D2");
    assert!(
        class.contains("legal") && class.contains("hover"),
        "{class}"
    );
    assert_ne!(fill, TRANSPARENT);
    b.screenshot_as_is("onyx-hover");
    for illegal in ["B2", "BC12"] {
        b.hover(&format!("circle.target[data-point='{illegal}']"));
        let (class, fill) = target_look(&b, illegal);
        assert!(
            class.contains("hover") && !class.contains("legal"),
            "{class}"
        );
        assert_eq!(fill, TRANSPARENT);
    }
    // The pointer left D2: it is plain again.
    assert_eq!(target_look(&b, "D2").1, TRANSPARENT);
    // Every legal point and only those is marked.
    let marked = b.script(
        "return Array.from(document.querySelectorAll('#board circle.target.legal')).map(c => c.dataset.point).sort();",
    );
    let mut legal: Vec<String> = m.position()["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .filter(|v| v != "swap" && v != "pass")
        .collect();
    legal.sort();
    assert_eq!(marked, json!(legal));

    // Akron: a ball that can move lights up as selectable; once selected,
    // its legal destinations are shown, and they light up in turn.
    open(&b, port, "game=akron&size=4&black=human&white=human");
    let mut m = Mirror::new("akron", 4, &[]);
    for mv in ["B2", "C2", "B3", "C3", "B1", "C1"] {
        click_move(&b, &mut m, mv);
    }
    b.hover("circle.target[data-point='B1']");
    let (class, _) = target_look(&b, "B1");
    assert!(
        class.contains("select") && class.contains("hover"),
        "{class}"
    );
    b.click("circle.target[data-point='B1']");
    let want: BTreeSet<String> = m.position()["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v.as_str()?.strip_prefix("B1-").map(str::to_string))
        .collect();
    assert!(want.contains("BC23"), "{want:?}");
    let shown = || -> BTreeSet<String> {
        b.script(
            "return Array.from(document.querySelectorAll('#board circle.destination')).map(c => c.dataset.point);",
        )
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
    };
    b.wait("the destinations", |_| shown() == want);
    b.hover("circle.target[data-point='BC23']");
    let (class, fill) = target_look(&b, "BC23");
    assert!(
        class.contains("place") && class.contains("hover"),
        "{class}"
    );
    assert_ne!(fill, TRANSPARENT);
    b.screenshot_as_is("akron-destinations-hover");
    click_move_selected(&b, &mut m, "B1-BC23");
}

/// Finishes an Akron ball move whose ball the page already has selected.
fn click_move_selected(b: &Browser, m: &mut Mirror, mv: &str) {
    let color = m.position()["to_move"].as_str().unwrap().to_string();
    let to = mv.split('-').nth(1).unwrap();
    b.click(&format!("circle.target[data-point='{to}']"));
    let (ok, e) = m.run(&format!("play {color} {mv}"));
    assert!(ok, "{mv}: {e}");
    let want = m.pieces();
    b.wait(&format!("the board after {mv}"), |b| b.pieces() == want);
}

#[test]
fn sgf_download_and_upload_through_the_page() {
    let Some(b) = browser() else { return };
    let (_server, port) = start_server();
    open(&b, port, "game=orcoon&size=5&black=human&white=human");
    let mut m = Mirror::new("orcoon", 5, &[]);
    for mv in ["C3", "B3", "C2", "B2", "C4"] {
        click_move(&b, &mut m, mv);
    }
    let before = b.pieces();
    // The download button saves the record (Chromium's download folder is
    // set when the browser starts).
    let file = download_dir().join("orcoon-5.sgf");
    let _ = std::fs::remove_file(&file);
    b.click("#download");
    let mut record = String::new();
    b.wait("the downloaded record", |_| {
        record = std::fs::read_to_string(&file).unwrap_or_default();
        record.trim_end().ends_with(')')
    });
    // It is the engine's record of the game, and loadsgf reads it back.
    let mut loaded = Mirror::new("orcoon", 5, &[]);
    let (ok, e) = loaded.run(&format!("loadsgf {}", file.display()));
    assert!(ok, "{e}: {record}");
    assert_eq!(loaded.pieces(), before, "{record}");
    assert_eq!(
        loaded.position()["history"],
        json!(["C3", "B3", "C2", "B2", "C4"])
    );

    // A new game of another game, then the record opened by the page's
    // upload control: the board of the record again, with its moves.
    open(&b, port, "game=hex&size=3&black=human&white=human");
    b.wait("the empty board", |b| b.pieces().is_empty());
    let input = b.find("#upload").expect("the file input");
    b.call(
        "POST",
        &format!("/element/{input}/value"),
        Some(json!({ "text": file.to_str().unwrap() })),
    );
    b.wait("the uploaded game", |b| b.pieces() == before);
    assert_eq!(moves_listed(&b), 5);
    assert!(
        b.text("status").contains("orcoon 5×5"),
        "{}",
        b.text("status")
    );
    assert!(
        b.text("message").contains("orcoon-5.sgf"),
        "{}",
        b.text("message")
    );
    // Play goes on from the record.
    let mut m = loaded;
    click_move(&b, &mut m, "B4");
}

/// Who holds each colour now, as the seat menus say.
fn seats(b: &Browser) -> (String, String) {
    let v = b.script(
        "return [document.getElementById('black').value, document.getElementById('white').value];",
    );
    (
        v[0].as_str().unwrap().to_string(),
        v[1].as_str().unwrap().to_string(),
    )
}

/// The colour marks of the move list, in order.
fn move_colors(b: &Browser) -> Vec<String> {
    let v = b.script(
        "return Array.from(document.querySelectorAll('#moves li')).map(li => li.dataset.color);",
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap_or("").to_string())
        .collect()
}

/// Waits until the engine has stopped thinking and `n` moves are listed.
fn wait_moves(b: &Browser, n: usize) {
    b.wait(&format!("{n} moves"), |b| {
        moves_listed(b) == n && b.script("return document.body.dataset.thinking;") == json!("no")
    });
}

/// A swap exchanges the seats in every combination: the swapper takes over
/// the first mover's colour, so the seat menus exchange, the engine moves
/// when (and only when) it holds the colour to move, and the move list
/// marks each move with the colour that played it (White twice in a row
/// after the swap). Every game: human against human, the engine opening
/// and a human swapping; Hex and Akron also with the engine swapping a
/// human's opening (it swaps a centre opening on these small boards).
#[test]
fn swap_exchanges_the_seats_in_every_game() {
    let Some(b) = browser() else { return };
    let (_server, port) = start_server();
    let games = [
        ("onyx", 4, "&start=blank", "B2", false),
        ("orcoon", 5, "", "C3", false),
        ("akron", 4, "", "B2", true),
        ("hex", 5, "", "c3", true),
    ];
    let (h, e) = ("human".to_string(), "engine".to_string());
    for (game, size, extra, opening, engine_swaps) in games {
        let base = format!("game={game}&size={size}{extra}&movetime=0.2");
        // Human against human: the menus exchange, the colours in the list.
        open(&b, port, &format!("{base}&black=human&white=human"));
        click_on_page(&b, opening);
        wait_moves(&b, 1);
        click_on_page(&b, "swap");
        wait_moves(&b, 2);
        assert_eq!(seats(&b), (h.clone(), h.clone()), "{game}");
        assert_eq!(move_colors(&b), ["black", "white"], "{game}");
        // The engine opens as Black, the human swaps: the human now holds
        // Black and the engine, now White, moves at once.
        open(&b, port, &format!("{base}&black=engine&white=human"));
        wait_moves(&b, 1);
        b.wait("the swap button", |b| {
            b.script("return document.getElementById('swap').disabled;") == json!(false)
        });
        click_on_page(&b, "swap");
        wait_moves(&b, 3);
        assert_eq!(seats(&b), (h.clone(), e.clone()), "{game}");
        assert_eq!(move_colors(&b), ["black", "white", "white"], "{game}");
        let pos = engine_position(&b, port);
        assert_eq!(pos["to_move"], "black", "{game}");
        assert_eq!(pos["colors"], json!(["black", "white", "white"]), "{game}");
        // Undo back past the swap: the seats are as they were.
        b.click("#undo");
        b.wait("undone", |b| moves_listed(b) <= 1);
        assert_eq!(seats(&b), (e.clone(), h.clone()), "{game}");
        // The engine swaps a human's opening: the human then holds White
        // and moves; the engine does not move again.
        if engine_swaps {
            open(&b, port, &format!("{base}&black=human&white=engine"));
            click_on_page(&b, opening);
            wait_moves(&b, 2);
            assert_eq!(
                engine_position(&b, port)["history"][1],
                "swap",
                "{game}: the engine did not swap"
            );
            assert_eq!(seats(&b), (e.clone(), h.clone()), "{game}");
            assert_eq!(move_colors(&b), ["black", "white"], "{game}");
            std::thread::sleep(Duration::from_millis(500));
            assert_eq!(moves_listed(&b), 2, "{game}: the engine moved again");
            assert_eq!(engine_position(&b, port)["to_move"], "white");
        }
        b.screenshot(&format!("{game}-swap"));
    }
}

/// The browser on a server of its own, the page opened with `query`; or
/// `None` after saying why the test is skipped.
fn opened(query: &str) -> Option<(Browser, Kill, u16)> {
    let b = browser()?;
    let (server, port) = start_server();
    open(&b, port, query);
    Some((b, server, port))
}

/// Whether the page says the engine is idle.
fn idle(b: &Browser) -> bool {
    b.script("return document.body.dataset.thinking;") == json!("no")
}

/// The candidate moves drawn on the board: (rank, point, label), by rank.
fn candidates_drawn(b: &Browser) -> Vec<(u64, String, String)> {
    let v = b.script(
        "return Array.from(document.querySelectorAll('#board circle.candidate')).map(c => \
         [Number(c.dataset.rank), c.dataset.point, \
          document.querySelector(`#board text.candidate-label[data-rank='${c.dataset.rank}']`).textContent, \
          c.classList.contains('best')]);",
    );
    let mut out: Vec<(u64, String, String)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            // Only the first is highlighted as the best.
            assert_eq!(c[3].as_bool(), Some(c[0] == json!(1)), "{c}");
            (
                c[0].as_u64().unwrap(),
                c[1].as_str().unwrap().to_string(),
                c[2].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Analyze: the engine's three best moves appear on the board with their
/// scores, live while it thinks (30 s a move), the best highlighted and
/// the same as the panel's first line; Stop ends it at once and leaves
/// them shown; nothing is played.
#[test]
fn analyze_draws_the_best_moves_and_stop_ends_it() {
    // Without swap: every candidate is a point.
    let query = "game=hex&size=9&swap=off&black=human&white=human&movetime=30&candidates=3";
    let Some((b, _server, port)) = opened(query) else {
        return;
    };
    click_on_page(&b, "e5");
    b.wait("the move", |b| moves_listed(b) == 1 && idle(b));
    b.click("#analyze");
    b.wait("three candidates while it thinks", |b| {
        !idle(b) && candidates_drawn(b).len() == 3
    });
    assert!(
        b.text("status").contains("analysing"),
        "{}",
        b.text("status")
    );
    b.screenshot("analyze-live");
    let legal = legal_on_page(&b);
    stop_at_once(&b);
    let drawn = candidates_drawn(&b);
    assert_eq!(drawn.len(), 3, "{drawn:?}");
    let ranks: Vec<u64> = drawn.iter().map(|c| c.0).collect();
    assert_eq!(ranks, [1, 2, 3]);
    let points: BTreeSet<&String> = drawn.iter().map(|c| &c.1).collect();
    assert_eq!(points.len(), 3, "{drawn:?}");
    for (_, point, label) in &drawn {
        assert!(legal.contains(point), "{point} is not legal");
        assert!(
            label.parse::<i64>().is_ok() || label.starts_with(['W', 'L']),
            "label {label}"
        );
    }
    // The panel lists the same moves, best first.
    let panel = b.text("analysis");
    assert!(panel.contains(&format!("1. {}", drawn[0].1)), "{panel}");
    assert!(panel.contains(&format!("3. {}", drawn[2].1)), "{panel}");
    // Nothing was played; a move clears the marks.
    assert_eq!(moves_listed(&b), 1);
    assert_eq!(engine_position(&b, port)["history"], json!(["e5"]));
    b.screenshot("analyze-stopped");
    click_on_page(&b, &drawn[0].1);
    b.wait("the move", |b| moves_listed(b) == 2 && idle(b));
    assert!(candidates_drawn(&b).is_empty());
}

/// Clicks Stop: the engine is idle again within a few seconds (its move
/// time is far longer).
fn stop_at_once(b: &Browser) {
    let t = Instant::now();
    b.click("#stop");
    b.wait("the engine stopped", idle);
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

/// The legal moves, from the page's own copy of the position (the engine
/// is busy).
fn legal_on_page(b: &Browser) -> BTreeSet<String> {
    b.script("return state.pos.legal;")
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// The solved marks drawn on the board: point -> value.
fn solved_drawn(b: &Browser) -> std::collections::BTreeMap<String, String> {
    b.script(
        "return Array.from(document.querySelectorAll('#board circle.solved')).map(c => [c.dataset.point, c.dataset.value]);",
    )
    .as_array()
    .unwrap()
    .iter()
    .map(|c| {
        (
            c[0].as_str().unwrap().to_string(),
            c[1].as_str().unwrap().to_string(),
        )
    })
    .collect()
}

/// Solve moves on Hex 4×4 without swap, after a move each: every legal
/// point marked won or lost as `solve_all` answers; on 9×9, with 30 s a
/// move, Stop ends it at once and the moves left are marked unknown.
#[test]
fn solve_moves_marks_won_and_lost_and_stop_ends_it() {
    let Some((b, _server, port)) = opened("game=hex&size=4&swap=off&black=human&white=human")
    else {
        return;
    };
    let mut m = Mirror::new("hex", 4, &["swap off", "param verbose false"]);
    click_move(&b, &mut m, "b2");
    click_move(&b, &mut m, "c2");
    b.click("#solve");
    b.wait("every move solved", |b| {
        idle(b) && solved_drawn(b).len() == 14
    });
    let (ok, all) = m.run("solve_all");
    assert!(ok, "{all}");
    let want: std::collections::BTreeMap<String, String> = all
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[0].to_string(), w[1].to_string())
        })
        .collect();
    assert_eq!(solved_drawn(&b), want);
    assert!(want.values().any(|v| v == "win") && want.values().any(|v| v == "loss"));
    let panel = b.text("analysis");
    assert!(panel.contains("solved 14 of 14 moves"), "{panel}");
    b.screenshot("solve-moves");
    // Undo clears the marks.
    b.click("#undo");
    b.wait("undone", |b| moves_listed(b) == 1);
    assert!(solved_drawn(&b).is_empty());

    open(
        &b,
        port,
        "game=hex&size=9&swap=off&black=human&white=human&movetime=30",
    );
    b.click("#solve");
    b.wait("solving", |b| !idle(b));
    std::thread::sleep(Duration::from_millis(300));
    stop_at_once(&b);
    let marks = solved_drawn(&b);
    assert_eq!(marks.len(), 81, "{marks:?}");
    assert!(marks.values().any(|v| v == "unknown"), "{marks:?}");
    assert_eq!(moves_listed(&b), 0);
}
