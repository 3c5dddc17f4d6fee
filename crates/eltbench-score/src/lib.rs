//! Scoring ELT-Bench trials: SRDEL (stage 1: every source table landed with
//! the exact row count), SRDT (stage 2: every ground-truth column of every
//! data model matches), the error taxonomy, and pass@k / pass^k over trials.
//!
//! Two stage-2 rules: the corrected [`Compat::Fixed`] (default) and
//! [`Compat::Original`], which reproduces the original scorer's bugs to
//! compare with published numbers. Both keep the original's stage-1 gate.
//!
//! This crate reads warehouses and suites; it must never write to a
//! warehouse it scores (files are opened read-only) and does no network I/O.
//! [`reference`] is the one writer: it builds self-check warehouses.

pub mod compare;
pub mod compat;
mod error;
pub mod passk;
pub mod reference;
pub mod report;
pub mod stage1;
pub mod stage2;
pub mod summary;
mod task;
pub mod taxonomy;
pub mod trials;

pub use compare::frame::compare_fixed;
pub use compare::{Alignment, ColumnMismatch, FrameComparison, KeyValue, RowDiff};
pub use compat::{Compat, compare_original};
pub use error::ScoreError;
pub use report::{ModelScore, ModelStatus, Rate, ScoreReport, Summary, TaskScore, WarehouseState};
pub use stage1::{Stage1Score, TableStatus};
pub use summary::{report, summarize};
pub use task::{find_task, score_task, score_task_file};
pub use taxonomy::ModelError;
