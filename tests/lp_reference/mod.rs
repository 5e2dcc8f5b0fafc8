//! The independent reference for matrix games: the textbook LP through
//! good_lp with the pure-Rust microlp backend (tests and benches only).

use good_lp::{microlp, variable, Expression, ProblemVariables, Solution as _, SolverModel};
use nimrod::lp::MatrixGame;

/// Value of the row player's game by the textbook LP: max v subject to
/// Σ_i x_i a_ij ≥ v for every column j, Σ x = 1, x ≥ 0.
pub fn lp_value(g: &MatrixGame) -> f64 {
    let mut vars = ProblemVariables::new();
    let v = vars.add(variable());
    let x: Vec<_> = (0..g.rows())
        .map(|_| vars.add(variable().min(0.0)))
        .collect();
    let mut model = vars.maximise(v).using(microlp);
    for j in 0..g.cols() {
        let e: Expression = x.iter().enumerate().map(|(i, &xi)| g.get(i, j) * xi).sum();
        model = model.with(e.geq(v));
    }
    let total: Expression = x.iter().sum();
    model = model.with(total.eq(1.0));
    model.solve().expect("LP solves").value(v)
}
