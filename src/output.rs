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

/// Sends `info string` with the message, control characters replaced.
pub fn info_string(message: &str) {
    let clean: String = message.chars().map(|c| if c.is_control() { '?' } else { c }).collect();
    send(&format!("info string {clean}"));
}

/// Silences all further output (after `quit`).
pub fn mute() {
    MUTED.store(true, Ordering::Relaxed);
}
