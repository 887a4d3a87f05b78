//! A program in a real terminal for tests: a private tmux server, one
//! session running a command, its screen read back. Killed however the test ends.

use std::process::{Command, Output};
use std::time::Duration;

/// One tmux session on a server of its own.
pub struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts `cmd` in a `width`×`height` terminal, or says SKIPPED and
    /// returns None when tmux is not installed.
    pub fn start(test: &str, cmd: &str, width: u16, height: u16) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("SKIPPED {test}: tmux is not installed (apt-get install tmux)");
            return None;
        }
        let t = Tmux {
            socket: format!("nimlab-{test}-{}", std::process::id()),
        };
        let (w, h) = (width.to_string(), height.to_string());
        let o = t.run(&["new-session", "-d", "-s", "main", "-x", &w, "-y", &h, cmd]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        Some(t)
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs")
    }

    /// What the terminal shows now.
    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "main"]).stdout).to_string()
    }

    /// The screen once it contains `what` (waits up to `seconds`).
    pub fn wait(&self, what: &str, seconds: u64) -> String {
        for _ in 0..seconds * 20 {
            let s = self.screen();
            if s.contains(what) {
                return s;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("{what:?} never appeared on the screen:\n{}", self.screen());
    }

    /// Types `keys` and presses Enter.
    #[allow(dead_code)] // not every test binary types
    pub fn send(&self, keys: &str) {
        self.run(&["send-keys", "-t", "main", "-l", keys]);
        self.run(&["send-keys", "-t", "main", "Enter"]);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}
