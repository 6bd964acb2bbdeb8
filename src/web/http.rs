//! The small HTTP/1.1 server under `crosscut web`: one thread per
//! connection (at most [`MAX_CONNECTIONS`]), every request read under a
//! deadline, bodies only with a `Content-Length` no larger than the caller's
//! limit.
//!
//! Slow clients cannot hold up others: a connection's thread serves only
//! that connection, a request's head and body must arrive within
//! [`REQUEST_DEADLINE`] of its first byte (else `408` and the connection
//! closes), an idle kept-alive connection is closed after [`IDLE_TIMEOUT`],
//! an answer that the client does not read is given up after
//! [`WRITE_DEADLINE`], and a connection beyond [`MAX_CONNECTIONS`] is
//! answered `503` at once.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Most connections served at once; one more is answered `503`.
pub const MAX_CONNECTIONS: usize = 256;
/// How long a request may take to arrive, head and body, from its first
/// byte.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(5);
/// How long a kept-alive connection may wait for its next request.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long writing one answer may take.
pub const WRITE_DEADLINE: Duration = Duration::from_secs(10);
/// Largest request head (request line and headers), in bytes.
pub const MAX_HEAD: usize = 16 * 1024;

/// A request as read: method, path (with any query), headers in order
/// (duplicates kept), and body.
#[derive(Debug)]
pub struct HttpRequest {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The request target, as sent.
    pub path: String,
    /// Every header line as (name, value), names as sent.
    pub headers: Vec<(String, String)>,
    /// The body (empty without `Content-Length`).
    pub body: Vec<u8>,
}

impl HttpRequest {
    /// Every value of the header `name` (compared without case).
    pub fn header_values(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

/// An answer: status, content type and body.
#[derive(Debug)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: String,
}

impl HttpResponse {
    /// A plain-text answer.
    pub fn text(status: u16, body: &str) -> HttpResponse {
        HttpResponse {
            status,
            content_type: "text/plain; charset=utf-8",
            body: body.to_string(),
        }
    }
}

/// What handles each request; it may block (only its connection waits).
pub type Handler = Arc<dyn Fn(&HttpRequest) -> HttpResponse + Send + Sync>;

/// Serves connections from `listener` until the process ends, bodies up to
/// `max_body` bytes.
pub fn serve(listener: &TcpListener, max_body: usize, handler: Handler) {
    let active = Arc::new(AtomicUsize::new(0));
    loop {
        let stream = match listener.accept() {
            Ok((s, _)) => s,
            Err(e) => {
                // Out of descriptors or a connection reset before accept:
                // the server goes on.
                log::warn!("accept: {e}");
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        if active.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            active.fetch_sub(1, Ordering::SeqCst);
            refuse_busy(stream);
            continue;
        }
        let guard = Active(active.clone());
        let handler = handler.clone();
        let spawned = std::thread::Builder::new()
            .name("web-connection".into())
            .spawn(move || {
                let _guard = guard;
                connection(stream, max_body, &*handler);
            });
        if let Err(e) = spawned {
            log::warn!("cannot start a connection thread: {e}");
        }
    }
}

/// Counts a connection as active while alive.
struct Active(Arc<AtomicUsize>);

impl Drop for Active {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Answers `503` to a connection beyond [`MAX_CONNECTIONS`], without
/// waiting on it.
fn refuse_busy(mut stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
    let r = HttpResponse::text(503, "busy: too many connections, try again");
    let _ = write_response(&mut stream, &r, true);
    let _ = stream.shutdown(Shutdown::Both);
}

/// Serves one connection's requests until it closes, idles, errs or asks
/// to close.
fn connection(
    mut stream: TcpStream,
    max_body: usize,
    handler: &dyn Fn(&HttpRequest) -> HttpResponse,
) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(WRITE_DEADLINE));
    // Bytes read past the last request (a pipelined next one).
    let mut buf = Vec::new();
    loop {
        match read_request(&mut stream, &mut buf, max_body) {
            Ok(Some((request, close))) => {
                let response = handler(&request);
                if write_response(&mut stream, &response, close).is_err() || close {
                    break;
                }
            }
            Ok(None) => break,
            Err(status) => {
                let text = match status {
                    408 => "request timeout: the request did not arrive in time",
                    413 => "request too large",
                    431 => "request headers too large",
                    501 => "only bodies with Content-Length are accepted",
                    _ => "bad request",
                };
                let _ = write_response(&mut stream, &HttpResponse::text(status, text), true);
                break;
            }
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
}

/// Reads more bytes into `buf` before `deadline`; `Ok(0)` at the end of the
/// stream, `Err(408)` when the deadline passes, `Err(0)` on another error.
fn read_some(stream: &mut TcpStream, buf: &mut Vec<u8>, deadline: Instant) -> Result<usize, u16> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(408);
    }
    let _ = stream.set_read_timeout(Some(left));
    let mut chunk = [0u8; 8192];
    loop {
        match stream.read(&mut chunk) {
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                return Ok(n);
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Err(408);
            }
            Err(_) => return Err(0),
        }
    }
}

/// Where the head in `buf` ends (after its empty line), if it is whole.
fn head_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4)
}

/// Reads one request: `Ok(None)` when the connection ends or idles before
/// a request starts, `Ok(Some((request, close)))` with whether to close
/// after answering, `Err(status)` for a request to refuse (`0`: just
/// close).
fn read_request(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    max_body: usize,
) -> Result<Option<(HttpRequest, bool)>, u16> {
    // Waiting for the first byte is idling; from it on, the request has
    // REQUEST_DEADLINE to arrive.
    if buf.is_empty() {
        match read_some(stream, buf, Instant::now() + IDLE_TIMEOUT) {
            Ok(0) | Err(_) => return Ok(None),
            Ok(_) => {}
        }
    }
    let deadline = Instant::now() + REQUEST_DEADLINE;
    let end = loop {
        if let Some(end) = head_end(buf) {
            break end;
        }
        if buf.len() > MAX_HEAD {
            return Err(431);
        }
        match read_some(stream, buf, deadline)? {
            0 => return Err(0),
            _ => continue,
        }
    };
    if end > MAX_HEAD {
        return Err(431);
    }
    let head = std::str::from_utf8(&buf[..end - 4]).map_err(|_| 400u16)?;
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let (Some(method), Some(path), Some(version), None) =
        (first.next(), first.next(), first.next(), first.next())
    else {
        return Err(400);
    };
    if method.is_empty() || !path.starts_with('/') {
        return Err(400);
    }
    let keep_alive_default = match version {
        "HTTP/1.1" => true,
        "HTTP/1.0" => false,
        _ => return Err(400),
    };
    let mut headers = Vec::new();
    for line in lines {
        let (name, value) = line.split_once(':').ok_or(400u16)?;
        if name.is_empty()
            || name
                .bytes()
                .any(|b| b.is_ascii_whitespace() || b.is_ascii_control())
        {
            return Err(400);
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    let mut request = HttpRequest {
        method: method.to_string(),
        path: path.to_string(),
        headers,
        body: Vec::new(),
    };
    if !request.header_values("Transfer-Encoding").is_empty() {
        return Err(501);
    }
    let length = match request.header_values("Content-Length")[..] {
        [] => 0,
        [v] => v.parse::<usize>().map_err(|_| 400u16)?,
        _ => return Err(400),
    };
    if length > max_body {
        return Err(413);
    }
    let connection = request
        .header_values("Connection")
        .join(",")
        .to_ascii_lowercase();
    let close = if keep_alive_default {
        connection.contains("close")
    } else {
        !connection.contains("keep-alive")
    };
    if length > 0
        && request
            .header_values("Expect")
            .iter()
            .any(|v| v.eq_ignore_ascii_case("100-continue"))
    {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    while buf.len() < end + length {
        if read_some(stream, buf, deadline)? == 0 {
            return Err(0);
        }
    }
    request.body = buf[end..end + length].to_vec();
    buf.drain(..end + length);
    Ok(Some((request, close)))
}

/// The reason phrase of `status`.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// Writes `response` (in one write), with `Connection: close` when `close`.
fn write_response(
    stream: &mut TcpStream,
    response: &HttpResponse,
    close: bool,
) -> std::io::Result<()> {
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n\
         Connection: {}\r\n\r\n",
        response.status,
        reason(response.status),
        response.content_type,
        response.body.len(),
        if close { "close" } else { "keep-alive" }
    )
    .into_bytes();
    out.extend_from_slice(response.body.as_bytes());
    stream.write_all(&out)?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_ends_at_its_empty_line() {
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nHost: x\r\n\r\nrest"), Some(27));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nHost: x\r\n"), None);
    }
}
