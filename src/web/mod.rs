//! `crosscut web`: the browser board. A small HTTP server ([`http`], a
//! thread per connection, every request read under a deadline) serves one page (HTML, CSS and JavaScript embedded in the binary, no
//! build step) and a JSON API through which the page drives an engine with
//! the protocol's own commands, one engine per browser tab.
//!
//! The API (all `POST`, JSON in and out, see [`handle_api`]):
//! - `/api/session` opens a tab's session: `{"id": ...}`;
//! - `/api/command` `{"id", "command"}` runs one whitelisted protocol
//!   command ([`allowed`]) and answers `{"ok", "answer", "position"}`
//!   (the position as the `position` command writes it);
//! - `/api/genmove` `{"id", "color"}` starts the engine's search in the
//!   background; `/api/analyze` `{"id", "color"}` starts an analysis
//!   (`analyze COLOR`: the search without playing, its best
//!   `param multipv` moves on each iteration's `info` lines);
//!   `/api/solve` `{"id"}` starts `solve_all` for the side to move, each
//!   move within the move time (an `info solve_all` line as each is
//!   decided); `/api/poll` `{"id", "from"}` answers whether it still
//!   thinks, the `info` lines from number `from` on, and the answer once
//!   done (the move played, the analysis, the moves' values); `/api/stop`
//!   ends it early (the best move so far is played; the moves not yet
//!   solved are `unknown`);
//! - `/api/sgf` answers the game as SGF; `/api/loadsgf` `{"id", "sgf"}`
//!   replaces the game by a record's text;
//! - `/api/games` lists the games with their sizes and options;
//! - `/api/ping` keeps an open but idle tab's session alive;
//! - `/api/close` frees a session (the page sends it when the tab closes).
//!
//! Security: the server listens on loopback unless told otherwise; every
//! request must name the server itself in `Host`, and a request with an
//! `Origin` must come from the page's own origin (either header sent twice is
//! refused); the page may run only the
//! commands it needs (no `loadsgf FILE`, no `quit`); sessions, bodies and
//! the engine's time per move are bounded, and idle sessions are freed.

pub mod http;

use crate::engine::Interrupts;
use std::collections::HashMap;
use std::io::Write;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use http::{HttpRequest, HttpResponse};

use crate::protocol::Gtp;

/// The port `crosscut web` listens on by default.
pub const DEFAULT_PORT: u16 = 8717;
/// Most sessions (browser tabs) at once; a new one beyond is refused
/// (never another person's board freed for it).
pub const MAX_SESSIONS: usize = 32;
/// A session without a request for this long is freed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(600);
/// Largest request body (an uploaded SGF record), in bytes.
pub const MAX_BODY: usize = 256 * 1024;
/// Longest command line the page may send, in bytes.
pub const MAX_COMMAND: usize = 200;
/// Most seconds the engine may think per move (`param move_time`).
pub const MAX_MOVE_TIME: f64 = 30.0;
/// Most `info` lines kept per search (`solve_all`'s line for each move
/// is kept beyond them: the page marks every move).
const MAX_INFO: usize = 2000;

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
    listener: TcpListener,
    port: u16,
    hosts: Vec<String>,
    tabs: Tabs,
}

/// Whether `command` is one the page may send: the commands a board
/// needs, every game's options and own commands (from the registry: an
/// option starts a new game, a game's command only reads the position),
/// `param` only for the player, move time (up to [`MAX_MOVE_TIME`]),
/// depth and the number of lines analysed (`multipv`). `genmove`,
/// `analyze` and `solve_all` run in the background through their own
/// calls, never here.
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
        "play",
        "undo",
        "legal_moves",
        "position",
        "showboard",
        "final_score",
        "evaluators",
    ];
    let of_a_game = crate::games::GAMES
        .iter()
        .any(|g| g.option(name).is_some() || g.command(name).is_some());
    if FREE.contains(&name) || of_a_game {
        return Ok(());
    }
    if name == "param" {
        return match words[1..] {
            [] | ["player" | "move_time" | "max_depth" | "multipv"] => Ok(()),
            [
                "player",
                "alphabeta" | "mcts" | "knowledge_mcts" | "greedy" | "random",
            ] => Ok(()),
            ["max_depth" | "multipv", _] => Ok(()),
            ["move_time", t] => match t.parse::<f64>() {
                // 0 would mean no limit.
                Ok(t) if t > 0.0 && t <= MAX_MOVE_TIME => Ok(()),
                _ => Err(format!(
                    "the move time must be more than 0 and at most {MAX_MOVE_TIME} seconds"
                )),
            },
            _ => Err("the page may set only player, move_time, max_depth and multipv".into()),
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
        if v.len() < MAX_INFO || line.starts_with("info solve_all ") {
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
    crate::protocol::position::of_engine(&mut gtp.engine).unwrap_or(Value::Null)
}

impl WebServer {
    /// Binds the server; the port is known at once (for `--port 0`).
    pub fn bind(config: &Config) -> Result<WebServer, String> {
        let listener = TcpListener::bind((config.host.as_str(), config.port))
            .map_err(|e| format!("cannot listen on {}:{}: {e}", config.host, config.port))?;
        let port = listener
            .local_addr()
            .map(|a| a.port())
            .map_err(|e| format!("the server has no address: {e}"))?;
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
            listener,
            port,
            hosts,
            tabs: Arc::new(Mutex::new(HashMap::new())),
        })
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves requests until the process ends: a thread per connection
    /// (see [`http`]), so a slow client holds up only itself.
    pub fn run(self) {
        let this = Arc::new(self);
        let handler = this.clone();
        http::serve(
            &this.listener,
            MAX_BODY,
            Arc::new(move |request: &HttpRequest| handler.handle(request)),
        );
    }

    /// Answers one request.
    fn handle(&self, request: &HttpRequest) -> HttpResponse {
        let hosts = request.header_values("Host");
        let origins = request.header_values("Origin");
        if hosts.len() > 1 || origins.len() > 1 {
            return HttpResponse::text(400, "bad request: Host or Origin sent twice");
        }
        if !hosts
            .first()
            .is_some_and(|h| self.hosts.iter().any(|k| k == h))
        {
            return HttpResponse::text(403, "forbidden: unknown Host");
        }
        if let Some(origin) = origins.first()
            && !self.hosts.iter().any(|h| *origin == format!("http://{h}"))
        {
            return HttpResponse::text(403, "forbidden: foreign Origin");
        }
        let path = request.path.split('?').next().unwrap_or("");
        let page = |content_type, body: &str| HttpResponse {
            status: 200,
            content_type,
            body: body.to_string(),
        };
        match (request.method.as_str(), path) {
            ("GET", "/") => page("text/html; charset=utf-8", PAGE),
            ("GET", "/board.js") => page("text/javascript; charset=utf-8", SCRIPT),
            ("GET", "/style.css") => page("text/css; charset=utf-8", STYLE),
            ("POST", p) if p.starts_with("/api/") => {
                let input: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
                let (status, out) = match self.handle_api(&p[5..], &input) {
                    Ok(v) => (200, v),
                    Err(e) => (400, json!({ "ok": false, "answer": e })),
                };
                HttpResponse {
                    status,
                    content_type: "application/json",
                    body: out.to_string(),
                }
            }
            _ => HttpResponse::text(404, "not found"),
        }
    }

    /// Frees sessions idle for longer than [`IDLE_TIMEOUT`]. Another
    /// person's open board is never freed to make room: with
    /// [`MAX_SESSIONS`] boards open the new one is refused.
    fn prune(&self, tabs: &mut HashMap<String, Arc<Mutex<Tab>>>) -> Result<(), String> {
        // A tab busy with a command is in use: seen now.
        let seen = |t: &Arc<Mutex<Tab>>| t.try_lock().map_or_else(|_| Instant::now(), |t| t.seen);
        tabs.retain(|_, t| {
            let keep = seen(t).elapsed() < IDLE_TIMEOUT;
            if !keep {
                t.lock().unwrap_or_else(|e| e.into_inner()).stop.request();
            }
            keep
        });
        if tabs.len() >= MAX_SESSIONS {
            return Err(format!(
                "the server already has {MAX_SESSIONS} open boards: close one, or try again \
                 later (a board unused for {} minutes is freed)",
                IDLE_TIMEOUT.as_secs() / 60
            ));
        }
        Ok(())
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

    /// Starts the command `line` makes from the tab's engine (`genmove`,
    /// `analyze`, `solve_all`) on a thread of its own: the tab's engine is
    /// busy (`thinking`) until it ends, its `info` lines and answer go to
    /// `/api/poll`, and `/api/stop` ends it.
    fn start(
        &self,
        input: &Value,
        line: impl FnOnce(&Gtp) -> Result<String, String>,
    ) -> Result<Value, String> {
        let shared = self.tab(input)?;
        let mut tab = shared.lock().unwrap_or_else(|e| e.into_inner());
        let command = line(tab.gtp.as_ref().ok_or("the engine is thinking")?)?;
        let mut gtp = tab.gtp.take().ok_or("the engine is thinking")?;
        tab.stop.clear();
        tab.info.lock().unwrap_or_else(|e| e.into_inner()).clear();
        tab.finished = None;
        let back = shared.clone();
        std::thread::spawn(move || {
            let answer = gtp.execute(&command).unwrap_or_default();
            // A tab waits for a person between moves: its tables'
            // memory is given back (32 tabs of 26x26 kept 550 MB).
            gtp.engine.release_memory();
            give_back_freed_memory();
            let mut tab = back.lock().unwrap_or_else(|e| e.into_inner());
            tab.gtp = Some(gtp);
            tab.finished = Some(answer);
        });
        Ok(json!({ "ok": true }))
    }

    /// Answers one API call (`what` is the path after `/api/`).
    pub fn handle_api(&self, what: &str, input: &Value) -> Result<Value, String> {
        match what {
            "session" => {
                let mut tabs = self.tabs.lock().unwrap_or_else(|e| e.into_inner());
                self.prune(&mut tabs)?;
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
            "genmove" | "analyze" => {
                let color = match input["color"].as_str() {
                    Some(c @ ("black" | "white")) => c,
                    _ => return Err("color must be black or white".into()),
                };
                self.start(input, |_| Ok(format!("{what} {color}")))
            }
            "solve" => self.start(input, |gtp| {
                // Each move within the move time (at most MAX_MOVE_TIME,
                // the whitelist's bound): never without a limit.
                let secs = gtp.engine.params.move_time;
                let secs = if secs > 0.0 {
                    secs.min(MAX_MOVE_TIME)
                } else {
                    1.0
                };
                let color = gtp.engine.rules()?.to_move().name();
                Ok(format!("solve_all {color} {secs}"))
            }),
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

/// Returns the memory freed by the allocator to the system (glibc keeps
/// freed memory in its per-thread arenas, and every search runs on a
/// thread of its own); nothing elsewhere.
fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks glibc's own arenas and releases free
    // pages; it is safe to call at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Keeps glibc from holding on to large freed blocks: by default, once a
/// large block (a 16 MB table) is freed, glibc raises its threshold for
/// serving blocks from fresh mappings up to that size, and the searches'
/// later large blocks come from arenas that keep their memory (32 Akron
/// tabs of 26x26 held 430 MB after one search each; 50 MB with the
/// threshold fixed). Setting the thresholds turns that adjustment off.
fn keep_large_blocks_mapped() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets glibc's allocation parameters; it is called
    // once, before the server starts its threads.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1024 * 1024);
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
    keep_large_blocks_mapped();
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
