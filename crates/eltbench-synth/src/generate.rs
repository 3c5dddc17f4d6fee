//! Rows of one table from its plan: a pure function of `(seed, db, plan)`.
//!
//! Rows come one at a time (a table of 100 million rows never sits in
//! memory). This module never touches files.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::plan::{ColumnPlan, Source, TablePlan};
use crate::seed::table_rng;
use crate::values::{key_value, value};

/// Generates the rows of one table, in order.
pub struct TableRows<'a> {
    plan: &'a TablePlan,
    rng: ChaCha8Rng,
    next: u64,
}

impl<'a> TableRows<'a> {
    /// The rows of `plan` for `seed` in task `db`.
    pub fn new(plan: &'a TablePlan, seed: u64, db: &str) -> Self {
        Self {
            plan,
            rng: table_rng(seed, db, &plan.table),
            next: 0,
        }
    }

    /// Fills `row` with the next row's fields (empty = NULL); `false` when
    /// every row has been produced.
    pub fn next_into(&mut self, row: &mut Vec<String>) -> bool {
        if self.next >= self.plan.rows {
            return false;
        }
        row.clear();
        for column in &self.plan.columns {
            let field = field(&mut self.rng, column, self.next);
            row.push(field);
        }
        self.next += 1;
        true
    }
}

fn field(rng: &mut ChaCha8Rng, column: &ColumnPlan, row: u64) -> String {
    match &column.source {
        Source::Random => {
            let null = column.null_percent > 0 && rng.random_range(0..100) < column.null_percent;
            if null {
                String::new()
            } else {
                value(rng, &column.ty)
            }
        }
        Source::Key {
            divisor,
            modulus,
            format,
            ..
        } => {
            let step = row / divisor.max(&1);
            key_value(format, modulus.map_or(step, |m| step % m.max(1)))
        }
        Source::Foreign { format, references } => {
            key_value(format, rng.random_range(0..references.rows.max(1)))
        }
    }
}
