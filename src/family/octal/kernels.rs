//! The kernels this family's cases state their work in ([`Kernel`]): each
//! one's rate is measured by `nimlab calibrate` with the probes the family
//! declares ([`crate::family::Family::probes`]).

use crate::cost::Kernel;

/// The naive kernel's moves examined (a take per heap size, and each way to split what is left).
pub(crate) const OCTAL: Kernel = Kernel::new("octal", "moves examined");
