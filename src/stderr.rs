//! Standard error, best effort and never blocking: lines go through a
//! bounded queue to a thread of their own that writes them. A failed write
//! (stderr closed or full) is ignored, and when stderr blocks (a
//! controller that never reads it) new lines are dropped instead of
//! blocking the engine. The log and the searcher's `info` lines both go
//! through it, so neither can change or delay an answer.

use std::io::Write;
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::Duration;

/// Lines waiting for stderr: past this many, new lines are dropped.
const BACKLOG: usize = 256;

struct Queue {
    lines: SyncSender<Vec<u8>>,
    /// Told when the writer reaches a `flush` marker.
    idle: std::sync::Mutex<Receiver<()>>,
}

fn queue() -> Option<&'static Queue> {
    static QUEUE: OnceLock<Option<Queue>> = OnceLock::new();
    QUEUE
        .get_or_init(|| {
            let (lines, received) = sync_channel::<Vec<u8>>(BACKLOG);
            let (idle_tx, idle) = std::sync::mpsc::channel();
            std::thread::Builder::new()
                .name("stderr".into())
                .spawn(move || {
                    while let Ok(bytes) = received.recv() {
                        if bytes.is_empty() {
                            // `flush`'s marker: everything before it is out.
                            let _ = idle_tx.send(());
                            continue;
                        }
                        let mut err = std::io::stderr().lock();
                        let _ = err.write_all(&bytes);
                        let _ = err.flush();
                    }
                })
                .ok()?;
            Some(Queue {
                lines,
                idle: std::sync::Mutex::new(idle),
            })
        })
        .as_ref()
}

/// Queues `bytes` for stderr; dropped when the queue is full.
pub fn write(bytes: Vec<u8>) {
    if bytes.is_empty() {
        return;
    }
    if let Some(q) = queue() {
        let _ = q.lines.try_send(bytes);
    }
}

/// Queues one line (a newline is added).
pub fn line(text: &str) {
    let mut bytes = Vec::with_capacity(text.len() + 1);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(b'\n');
    write(bytes);
}

/// Waits a moment at most for what is queued to be written (before the
/// process exits).
pub fn flush() {
    if let Some(q) = queue()
        && let Ok(idle) = q.idle.lock()
        && q.lines.try_send(Vec::new()).is_ok()
    {
        let _ = idle.recv_timeout(Duration::from_millis(500));
    }
}

/// A `Write` for the logger (env_logger's `Target::Pipe`): each write is
/// queued as it comes.
pub struct Writer;

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        write(buf.to_vec());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
