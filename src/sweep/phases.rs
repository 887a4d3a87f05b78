//! Where a run's time goes: wall-clock and CPU seconds for each phase of an
//! experiment's run (plan, solve, write, render, check, report), recorded in
//! its manifest (`phases`) and summed up in one line after the run.
//!
//! CPU seconds are the process's (`getrusage(RUSAGE_SELF)`, user + system,
//! every thread) over the phase, except for the split of the parallel stage
//! of a sweep, where each chunk is solved and then written by the same task:
//! `write` is the CPU time of the threads while they write (each thread's
//! own clock, summed), `solve` the rest of the stage's CPU time; the stage's
//! wall time is split between them in proportion to the time the threads
//! spent in each.

use std::time::Instant;

use serde_json::{Value, json};

use crate::mem::process_cpu;

/// Wall-clock and CPU seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Span {
    /// Wall-clock seconds.
    pub wall: f64,
    /// CPU seconds (user + system).
    pub cpu: f64,
}

impl std::ops::AddAssign for Span {
    fn add_assign(&mut self, o: Span) {
        self.wall += o.wall;
        self.cpu += o.cpu;
    }
}

impl Span {
    /// This span divided among `n` (a stage shared by `n` experiments).
    pub fn share(self, n: usize) -> Span {
        let n = n.max(1) as f64;
        Span {
            wall: self.wall / n,
            cpu: self.cpu / n,
        }
    }
}

/// A running measurement of wall and process CPU time.
#[derive(Clone, Copy, Debug)]
pub struct Timer {
    wall: Instant,
    cpu: f64,
}

impl Timer {
    /// Starts now.
    pub fn start() -> Timer {
        Timer {
            wall: Instant::now(),
            cpu: process_cpu(),
        }
    }
    /// The time since [`Timer::start`].
    pub fn span(&self) -> Span {
        Span {
            wall: self.wall.elapsed().as_secs_f64(),
            cpu: (process_cpu() - self.cpu).max(0.0),
        }
    }
}

/// The six phases of an experiment's run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Phases {
    /// Loading, checking and planning the sweeps, and chunking the cases.
    pub plan: Span,
    /// Solving the cases (the sweep's parallel stage but its writing).
    pub solve: Span,
    /// Writing the Parquet parts and chunk records, and their checksums.
    pub write: Span,
    /// Rendering tables and figures.
    pub render: Span,
    /// Checking the conjectures.
    pub check: Span,
    /// Writing the report (shared equally by the experiments of one run).
    pub report: Span,
}

impl std::ops::AddAssign for Phases {
    fn add_assign(&mut self, o: Phases) {
        for (a, b) in self.spans_mut().into_iter().zip(o.spans()) {
            *a += b.1;
        }
    }
}

impl Phases {
    /// The phases by name, in the order they run.
    pub fn spans(&self) -> [(&'static str, Span); 6] {
        [
            ("plan", self.plan),
            ("solve", self.solve),
            ("write", self.write),
            ("render", self.render),
            ("check", self.check),
            ("report", self.report),
        ]
    }
    fn spans_mut(&mut self) -> [&mut Span; 6] {
        [
            &mut self.plan,
            &mut self.solve,
            &mut self.write,
            &mut self.render,
            &mut self.check,
            &mut self.report,
        ]
    }
    /// The manifest's `phases`: per phase, `wall_seconds` and `cpu_seconds`.
    pub fn json(&self) -> Value {
        let mut m = serde_json::Map::new();
        for (name, s) in self.spans() {
            m.insert(
                name.into(),
                json!({"wall_seconds": s.wall, "cpu_seconds": s.cpu}),
            );
        }
        Value::Object(m)
    }
    /// One sentence naming the two phases with the most wall time.
    pub fn top_two(&self) -> String {
        let mut v = self.spans().to_vec();
        v.sort_by(|a, b| b.1.wall.total_cmp(&a.1.wall));
        let text = |(n, s): (&str, Span)| format!("{n} {:.2}s ({:.2}s CPU)", s.wall, s.cpu);
        format!("most time in {}, then {}", text(v[0]), text(v[1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::thread_cpu;

    #[test]
    fn top_two_orders_by_wall_time() {
        let p = Phases {
            plan: Span {
                wall: 1.0,
                cpu: 1.0,
            },
            solve: Span {
                wall: 5.0,
                cpu: 9.5,
            },
            write: Span {
                wall: 2.0,
                cpu: 3.0,
            },
            report: Span {
                wall: 0.5,
                cpu: 0.25,
            },
            ..Default::default()
        };
        assert_eq!(
            p.top_two(),
            "most time in solve 5.00s (9.50s CPU), then write 2.00s (3.00s CPU)"
        );
        let mut sum = p;
        sum += p;
        assert_eq!(
            sum.solve,
            Span {
                wall: 10.0,
                cpu: 19.0
            }
        );
        assert_eq!(p.report.share(2).cpu, 0.125);
        let j = p.json();
        assert_eq!(j["write"]["cpu_seconds"], 3.0);
        assert_eq!(j.as_object().unwrap().len(), 6);
    }

    #[test]
    fn cpu_clocks_advance_with_work() {
        let (p0, t0) = (process_cpu(), thread_cpu());
        let t = Timer::start();
        // About 10^8 additions: some milliseconds on any machine.
        let mut x = 0u64;
        for i in 0..100_000_000u64 {
            x = std::hint::black_box(x.wrapping_add(i));
        }
        std::hint::black_box(x);
        let s = t.span();
        assert!(thread_cpu() > t0);
        assert!(process_cpu() > p0);
        assert!(s.wall > 0.0 && s.cpu > 0.0);
    }
}
