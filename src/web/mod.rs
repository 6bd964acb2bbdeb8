//! `crosscut web`: the browser board. A small HTTP server ([`tiny_http`])
//! serves one page (HTML, CSS and JavaScript embedded in the binary, no
//! build step) and a JSON API through which the page drives an engine with
//! the protocol's own commands, one engine per browser tab.
//!
//! The API (all `POST`, JSON in and out, see [`handle_api`]):
//! - `/api/session` opens a tab's session: `{"id": ...}`;
//! - `/api/command` `{"id", "command"}` runs one whitelisted protocol
//!   command ([`allowed`]) and answers `{"ok", "answer", "position"}`
//!   (the position as the `position` command writes it);
//! - `/api/genmove` `{"id", "color"}` starts the engine's search in the
//!   background; `/api/poll` `{"id", "from"}` answers whether it still
//!   thinks, the `info` lines from number `from` on, and the move once
//!   played; `/api/stop` ends the search early (the best move so far is
//!   played);
//! - `/api/sgf` answers the game as SGF; `/api/loadsgf` `{"id", "sgf"}`
//!   replaces the game by a record's text;
//! - `/api/games` lists the games with their sizes and options;
//! - `/api/ping` keeps an open but idle tab's session alive;
//! - `/api/close` frees a session (the page sends it when the tab closes).
//!
//! Security: the server listens on loopback unless told otherwise; every
//! request must name the server itself in `Host`, and a request with an
//! `Origin` must come from the page's own origin; the page may run only the
//! commands it needs (no `loadsgf FILE`, no `quit`); sessions, bodies and
//! the engine's time per move are bounded, and idle sessions are freed.

use crate::engine::Interrupts;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tiny_http::{Header, Method, Request, Response, Server};

use crate::protocol::Gtp;

/// The port `crosscut web` listens on by default.
pub const DEFAULT_PORT: u16 = 8717;
/// Most sessions (browser tabs) at once; a new one beyond frees the
/// least recently used.
pub const MAX_SESSIONS: usize = 32;
/// A session without a request for this long is freed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(600);
/// Largest request body (an uploaded SGF record), in bytes.
pub const MAX_BODY: usize = 256 * 1024;
/// Longest command line the page may send, in bytes.
pub const MAX_COMMAND: usize = 200;
/// Most seconds the engine may think per move (`param move_time`).
pub const MAX_MOVE_TIME: f64 = 30.0;
/// Most `info` lines kept per search.
const MAX_INFO: usize = 500;

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("board.js");
const STYLE: &str = include_str!("style.css");

/// Where the server listens.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to bind (`127.0.0.1` unless `--listen` says otherwise).
    pub host: String,
    /// The port; 0 picks a free one.
    pub port: u16,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: DEFAULT_PORT,
        }
    }
}

/// One tab's engine and its search.
struct Tab {
    /// The protocol session; `None` while a search thread holds it.
    gtp: Option<Gtp>,
    /// The last request.
    seen: Instant,
    /// Set to end the running search.
    stop: Interrupts,
    /// The running or last search's `info` lines.
    info: Arc<Mutex<Vec<String>>>,
    /// The answer of the last finished `genmove`, until polled.
    finished: Option<String>,
}

type Tabs = Arc<Mutex<HashMap<String, Arc<Mutex<Tab>>>>>;

/// A running server.
pub struct WebServer {
    server: Arc<Server>,
    port: u16,
    hosts: Vec<String>,
    tabs: Tabs,
}

/// Whether `command` is one the page may send: the commands a board
/// needs, `param` only for the player, move time (up to
/// [`MAX_MOVE_TIME`]) and depth.
pub fn allowed(command: &str) -> Result<(), String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let Some(&name) = words.first() else {
        return Err("empty command".into());
    };
    const FREE: &[&str] = &[
        "protocol_version",
        "name",
        "version",
        "list_commands",
        "known_command",
        "game",
        "boardsize",
        "clear_board",
        "start",
        "play",
        "undo",
        "legal_moves",
        "position",
        "showboard",
        "final_score",
        "winning_sequence",
        "evaluators",
    ];
    if FREE.contains(&name) {
        return Ok(());
    }
    if name == "param" {
        return match words[1..] {
            [] | ["player" | "move_time" | "max_depth"] => Ok(()),
            ["player", "alphabeta" | "mcts" | "greedy" | "random"] => Ok(()),
            ["max_depth", _] => Ok(()),
            ["move_time", t] => match t.parse::<f64>() {
                // 0 would mean no limit.
                Ok(t) if t > 0.0 && t <= MAX_MOVE_TIME => Ok(()),
                _ => Err(format!(
                    "the move time must be more than 0 and at most {MAX_MOVE_TIME} seconds"
                )),
            },
            _ => Err("the page may set only player, move_time and max_depth".into()),
        };
    }
    Err(format!("'{name}' is not available in the browser"))
}

/// A fresh tab: an engine with no game yet, its `info` lines and stop flag
/// wired to the tab.
fn new_tab() -> Tab {
    let mut gtp = Gtp::new();
    let info = Arc::new(Mutex::new(Vec::new()));
    let sink = info.clone();
    gtp.engine.set_info_sink(Box::new(move |line: &str| {
        let mut v = sink.lock().unwrap_or_else(|e| e.into_inner());
        if v.len() < MAX_INFO {
            v.push(line.to_string());
        }
    }));
    let stop = gtp.engine.interrupts();
    Tab {
        gtp: Some(gtp),
        seen: Instant::now(),
        stop,
        info,
        finished: None,
    }
}

/// The answer of `Gtp::execute` split into success and text.
fn split_answer(answer: &str) -> (bool, String) {
    let ok = answer.starts_with('=');
    let text = answer.get(1..).unwrap_or("").trim().to_string();
    (ok, text)
}

/// The current position as the `position` command writes it, or null.
fn position_of(gtp: &mut Gtp) -> Value {
    gtp.engine
        .rules_mut()
        .ok()
        .and_then(|r| r.position_json().ok())
        .unwrap_or(Value::Null)
}

impl WebServer {
    /// Binds the server; the port is known at once (for `--port 0`).
    pub fn bind(config: &Config) -> Result<WebServer, String> {
        let server = Server::http((config.host.as_str(), config.port))
            .map_err(|e| format!("cannot listen on {}:{}: {e}", config.host, config.port))?;
        let port = server
            .server_addr()
            .to_ip()
            .map(|a| a.port())
            .ok_or("the server has no IP address")?;
        let mut hosts = vec![
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ];
        if !["127.0.0.1", "localhost", "::1"].contains(&config.host.as_str()) {
            hosts.push(if config.host.contains(':') {
                format!("[{}]:{port}", config.host)
            } else {
                format!("{}:{port}", config.host)
            });
        }
        Ok(WebServer {
            server: Arc::new(server),
            port,
            hosts,
            tabs: Arc::new(Mutex::new(HashMap::new())),
        })
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves requests with a few worker threads until the process ends.
    pub fn run(self) {
        let this = Arc::new(self);
        let workers: Vec<_> = (0..4)
            .map(|_| {
                let this = this.clone();
                std::thread::spawn(move || {
                    while let Ok(request) = this.server.recv() {
                        this.handle(request);
                    }
                })
            })
            .collect();
        for w in workers {
            let _ = w.join();
        }
    }

    /// Serves one request.
    fn handle(&self, mut request: Request) {
        let header = |name: &'static str| {
            request
                .headers()
                .iter()
                .find(|h| h.field.equiv(name))
                .map(|h| h.value.as_str().to_string())
        };
        let host = header("Host").unwrap_or_default();
        if !self.hosts.contains(&host) {
            return respond(request, 403, "text/plain", "forbidden: unknown Host".into());
        }
        if let Some(origin) = header("Origin")
            && !self.hosts.iter().any(|h| origin == format!("http://{h}"))
        {
            return respond(
                request,
                403,
                "text/plain",
                "forbidden: foreign Origin".into(),
            );
        }
        let url = request.url().to_string();
        let path = url.split('?').next().unwrap_or("");
        match (request.method(), path) {
            (Method::Get, "/") => respond(request, 200, "text/html; charset=utf-8", PAGE.into()),
            (Method::Get, "/board.js") => respond(
                request,
                200,
                "text/javascript; charset=utf-8",
                SCRIPT.into(),
            ),
            (Method::Get, "/style.css") => {
                respond(request, 200, "text/css; charset=utf-8", STYLE.into())
            }
            (Method::Post, p) if p.starts_with("/api/") => {
                let mut body = Vec::new();
                let read = request
                    .as_reader()
                    .take(MAX_BODY as u64 + 1)
                    .read_to_end(&mut body);
                if read.is_err() || body.len() > MAX_BODY {
                    return respond(request, 413, "text/plain", "request too large".into());
                }
                let input: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let (status, out) = match self.handle_api(&p[5..], &input) {
                    Ok(v) => (200, v),
                    Err(e) => (400, json!({ "ok": false, "answer": e })),
                };
                respond(request, status, "application/json", out.to_string())
            }
            _ => respond(request, 404, "text/plain", "not found".into()),
        }
    }

    /// Frees sessions idle for longer than [`IDLE_TIMEOUT`], and the least
    /// recently used beyond [`MAX_SESSIONS`] - 1.
    fn prune(&self, tabs: &mut HashMap<String, Arc<Mutex<Tab>>>) {
        // A tab busy with a command is in use: seen now.
        let seen = |t: &Arc<Mutex<Tab>>| t.try_lock().map_or_else(|_| Instant::now(), |t| t.seen);
        tabs.retain(|_, t| seen(t).elapsed() < IDLE_TIMEOUT);
        while tabs.len() >= MAX_SESSIONS {
            let oldest = tabs
                .iter()
                .min_by_key(|(_, t)| seen(t))
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => {
                    if let Some(t) = tabs.remove(&k) {
                        t.lock().unwrap_or_else(|e| e.into_inner()).stop.request();
                    }
                }
                None => break,
            }
        }
    }

    /// The tab named in the request.
    fn tab(&self, input: &Value) -> Result<Arc<Mutex<Tab>>, String> {
        let id = input["id"].as_str().ok_or("no session id")?;
        // The map's lock is not held while waiting for the tab's: a long
        // command in one tab must not hold up the others.
        let tab = {
            let tabs = self.tabs.lock().unwrap_or_else(|e| e.into_inner());
            tabs.get(id).cloned()
        }
        .ok_or("unknown or expired session: reload the page")?;
        tab.lock().unwrap_or_else(|e| e.into_inner()).seen = Instant::now();
        Ok(tab)
    }

    /// Answers one API call (`what` is the path after `/api/`).
    pub fn handle_api(&self, what: &str, input: &Value) -> Result<Value, String> {
        match what {
            "session" => {
                let mut tabs = self.tabs.lock().unwrap_or_else(|e| e.into_inner());
                self.prune(&mut tabs);
                let id = format!("{:032x}", rand::random::<u128>());
                tabs.insert(id.clone(), Arc::new(Mutex::new(new_tab())));
                Ok(json!({ "id": id }))
            }
            "games" => Ok(games_json()),
            "ping" => {
                self.tab(input)?;
                Ok(json!({ "ok": true }))
            }
            "close" => {
                if let Some(id) = input["id"].as_str() {
                    let mut tabs = self.tabs.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(t) = tabs.remove(id) {
                        t.lock().unwrap_or_else(|e| e.into_inner()).stop.request();
                    }
                }
                Ok(json!({ "ok": true }))
            }
            "command" => {
                let command = input["command"].as_str().ok_or("no command")?;
                if command.len() > MAX_COMMAND || command.contains(['\n', '\r']) {
                    return Err("command too long".into());
                }
                allowed(command)?;
                let tab = self.tab(input)?;
                let mut tab = tab.lock().unwrap_or_else(|e| e.into_inner());
                let gtp = tab.gtp.as_mut().ok_or("the engine is thinking")?;
                let answer = gtp.execute(command).unwrap_or_default();
                let (ok, text) = split_answer(&answer);
                Ok(json!({ "ok": ok, "answer": text, "position": position_of(gtp) }))
            }
            "genmove" => {
                let color = match input["color"].as_str() {
                    Some(c @ ("black" | "white")) => c.to_string(),
                    _ => return Err("color must be black or white".into()),
                };
                let shared = self.tab(input)?;
                let mut tab = shared.lock().unwrap_or_else(|e| e.into_inner());
                let mut gtp = tab.gtp.take().ok_or("the engine is thinking")?;
                tab.stop.clear();
                tab.info.lock().unwrap_or_else(|e| e.into_inner()).clear();
                tab.finished = None;
                let back = shared.clone();
                std::thread::spawn(move || {
                    let answer = gtp.execute(&format!("genmove {color}")).unwrap_or_default();
                    let mut tab = back.lock().unwrap_or_else(|e| e.into_inner());
                    tab.gtp = Some(gtp);
                    tab.finished = Some(answer);
                });
                Ok(json!({ "ok": true }))
            }
            "stop" => {
                let tab = self.tab(input)?;
                let tab = tab.lock().unwrap_or_else(|e| e.into_inner());
                tab.stop.request();
                Ok(json!({ "ok": true }))
            }
            "poll" => {
                let from = input["from"].as_u64().unwrap_or(0) as usize;
                let tab = self.tab(input)?;
                let mut tab = tab.lock().unwrap_or_else(|e| e.into_inner());
                let info: Vec<String> = {
                    let v = tab.info.lock().unwrap_or_else(|e| e.into_inner());
                    v.get(from..).unwrap_or(&[]).to_vec()
                };
                let thinking = tab.gtp.is_none();
                let finished = tab.finished.take();
                let mut out = json!({ "thinking": thinking, "info": info });
                if let Some(answer) = finished {
                    let (ok, text) = split_answer(&answer);
                    out["ok"] = ok.into();
                    out["answer"] = text.into();
                }
                if let Some(gtp) = tab.gtp.as_mut() {
                    out["position"] = position_of(gtp);
                }
                Ok(out)
            }
            "sgf" => {
                let tab = self.tab(input)?;
                let tab = tab.lock().unwrap_or_else(|e| e.into_inner());
                let gtp = tab.gtp.as_ref().ok_or("the engine is thinking")?;
                let record = gtp.engine.record()?;
                Ok(json!({ "ok": true, "sgf": record.to_sgf() }))
            }
            "loadsgf" => {
                let text = input["sgf"].as_str().ok_or("no record")?;
                let tab = self.tab(input)?;
                let mut tab = tab.lock().unwrap_or_else(|e| e.into_inner());
                let gtp = tab.gtp.as_mut().ok_or("the engine is thinking")?;
                let record = crate::sgf::parse(text)?;
                gtp.engine.load_record(&record, None)?;
                let size = gtp.engine.rules()?.size();
                Ok(json!({ "ok": true, "answer": "", "size": size, "position": position_of(gtp) }))
            }
            _ => Err(format!("unknown call '{what}'")),
        }
    }
}

/// The registry for the page's menus: each game's name, sizes, default
/// size and options.
fn games_json() -> Value {
    let games: Vec<Value> = crate::games::GAMES
        .iter()
        .map(|g| {
            let (from, to, step) = g.sizes;
            let options: Vec<Value> = g
                .options
                .iter()
                .map(|o| json!({ "name": o.name, "values": o.values, "doc": o.doc }))
                .collect();
            json!({
                "name": g.name,
                "sizes": (from..=to).step_by(step).collect::<Vec<_>>(),
                "default_size": g.default_size,
                "options": options,
            })
        })
        .collect();
    json!(games)
}

/// Sends a response, best effort (the browser may have gone).
fn respond(request: Request, status: u16, content_type: &str, body: String) {
    let mut response = Response::from_string(body).with_status_code(status);
    for (k, v) in [
        ("Content-Type", content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
    ] {
        if let Ok(h) = Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            response.add_header(h);
        }
    }
    let _ = request.respond(response);
}

/// `crosscut web [--port N] [--listen ADDR]`: binds, prints the URL and
/// serves until killed. Returns an error message for a bad command line or
/// a port that cannot be bound.
pub fn main(args: &[String]) -> Result<(), String> {
    let mut config = Config::default();
    let mut rest = args;
    while !rest.is_empty() {
        match rest {
            [flag, port, more @ ..] if flag == "--port" => {
                config.port = port
                    .parse()
                    .map_err(|_| format!("--port: '{port}' is not a port number"))?;
                rest = more;
            }
            [flag, addr, more @ ..] if flag == "--listen" => {
                config.host = addr.clone();
                rest = more;
            }
            [flag, ..] => {
                let why = if flag == "--port" || flag == "--listen" {
                    format!("{flag} needs a value")
                } else {
                    format!("unknown option '{flag}'")
                };
                return Err(format!(
                    "{why}; usage: crosscut web [--port N] [--listen ADDR]"
                ));
            }
            [] => break,
        }
    }
    let loopback = ["127.0.0.1", "localhost", "::1"].contains(&config.host.as_str());
    if !loopback {
        log::warn!(
            "listening on {}: anyone who can reach this address can use the engine",
            config.host
        );
        let _ = writeln!(
            std::io::stderr(),
            "crosscut web: warning: listening on {} (not loopback): anyone who can reach it can play",
            config.host
        );
    }
    let server = WebServer::bind(&config)?;
    let shown = if loopback {
        "127.0.0.1".to_string()
    } else {
        config.host.clone()
    };
    println!(
        "crosscut web: open http://{shown}:{}/ in a browser (Ctrl-C to stop)",
        server.port()
    );
    let _ = std::io::stdout().flush();
    server.run();
    Ok(())
}
