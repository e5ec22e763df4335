//! Every line the engine sends goes through here: stdout, flushed, and the
//! optional `--log-file` with timestamps. Diagnostics go to stderr through `log`.

use std::fs::File;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

static LOG_FILE: OnceLock<Mutex<File>> = OnceLock::new();
static MUTED: AtomicBool = AtomicBool::new(false);

/// Starts writing every line in and out to `path`.
pub fn open_log(path: &std::path::Path) -> io::Result<()> {
    let file = File::create(path)?;
    let _ = LOG_FILE.set(Mutex::new(file));
    Ok(())
}

fn log_line(direction: &str, line: &str) {
    if let Some(file) = LOG_FILE.get() {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
        if let Ok(mut f) = file.lock() {
            let _ = writeln!(f, "{}.{:03} {direction} {line}", now.as_secs(), now.subsec_millis());
            let _ = f.flush();
        }
    }
}

/// Records a line received from the GUI in the log file.
pub fn received(line: &str) {
    log_line(">>", line);
}

/// Sends one line to the GUI and flushes it.
pub fn send(line: &str) {
    if MUTED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
    log_line("<<", line);
}

/// Longest message sent whole: a message quoting a huge token keeps its start and its end.
const MAX_MESSAGE_CHARS: usize = 300;

/// Sends `info string` with the message, control characters replaced, cut short when long.
pub fn info_string(message: &str) {
    send(&format!("info string {}", shorten(message)));
}

/// The message with control characters replaced by `?`, and its middle cut out when long.
fn shorten(message: &str) -> String {
    let clean: String = message.chars().map(|c| if c.is_control() { '?' } else { c }).collect();
    let count = clean.chars().count();
    if count <= MAX_MESSAGE_CHARS {
        return clean;
    }
    let (head, tail) = (200, 80);
    let start: String = clean.chars().take(head).collect();
    let end: String = clean.chars().skip(count - tail).collect();
    format!("{start}...({} characters cut)...{end}", count - head - tail)
}

/// Silences all further output (after `quit`).
pub fn mute() {
    MUTED.store(true, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_keep_their_ends() {
        let message = format!("unknown command '{}' (type 'help' for the list)", "x".repeat(10_000));
        let cut = shorten(&message);
        assert!(cut.chars().count() < MAX_MESSAGE_CHARS + 40, "{cut}");
        assert!(
            cut.starts_with("unknown command 'xxx") && cut.ends_with("(type 'help' for the list)"),
            "{cut}"
        );
        assert_eq!(shorten("short\u{1b}"), "short?");
    }
}
