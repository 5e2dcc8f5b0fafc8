//! A second rules engine and an exhaustive loss checker built on it, which
//! share no move generation, pruning or relaxation with the solver: the
//! second opinion on its verdicts (see `loss_check`).

#[cfg(any(test, feature = "internals"))]
pub mod loss_check;
pub mod rules;
