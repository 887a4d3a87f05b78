//! The kernel the toy's cases state their work in ([`Kernel`]): its rate is
//! measured by `nimlab calibrate` with the probe the family declares
//! ([`crate::family::Family::probes`]).

use crate::cost::Kernel;

/// Pile sizes answered (one `N mod (k+1)` each).
pub(crate) const TOY: Kernel = Kernel::new("toy", "pile sizes");
