//! The kernels this family's cases state their work in ([`Kernel`]): each
//! one's rate is measured by `nimlab calibrate` with the probes the family
//! declares ([`crate::family::Family::probes`]).

use crate::cost::Kernel;

/// Positions × takes of the parity table.
pub(crate) const PARITY: Kernel = Kernel::new("parity", "positions × takes");
