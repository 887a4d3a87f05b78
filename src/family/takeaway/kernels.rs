//! The kernels this family's cases state their work in ([`Kernel`]): each
//! one's rate is measured by `nimlab calibrate` with the probes the family
//! declares ([`crate::family::Family::probes`]).

use crate::cost::Kernel;

/// One heap: the subtraction kernel's values (heap sizes × takes where a value needs them).
pub(crate) const SUBTRACTION: Kernel = Kernel::new("subtraction", "values");
/// One heap, normal play with the no-repeat rule: heap sizes (each costs about the same, whatever the take set).
pub(crate) const NO_REPEAT: Kernel = Kernel::new("no-repeat", "heap sizes");
/// Several heaps: the retrograde kernel's positions × moves.
pub(crate) const RETROGRADE: Kernel = Kernel::new("retrograde", "positions × moves");
