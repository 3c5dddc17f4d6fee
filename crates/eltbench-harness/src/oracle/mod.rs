//! The stage-1 oracle: what a perfect agent does for stage 1 of a task. From
//! the task's rewritten `config.yaml` it writes the gold `elt/main.tf`
//! ([`gold_main_tf`]), applies it with eltbench's Terraform against the local
//! Airbyte API on the real sync engine, syncs every connection once and scores
//! the warehouse ([`run_stage1_oracle`]). SRDEL must then be 100%; anything
//! else is a bug in the sources, Airbyte, Terraform or scorer.
//!
//! The oracle never reads ground truth or expected counts to build the
//! pipeline (only the config), and never writes outside its run directory.

mod checks;
mod error;
mod gt_export;
mod hcl;
mod jobs;
mod main_tf;
mod models;
mod run;
mod sources;
mod terraform;
mod tfstate;
mod verify;

pub use checks::{Check, CheckFile, CheckResult, checks_path, load_checks, run_checks};
pub use error::OracleError;
pub use gt_export::export_ground_truth;
pub use jobs::{ApiClient, JOB_TIMEOUT};
pub use main_tf::gold_main_tf;
pub use models::{SOURCES_YML, gold_models_dir, prepare_project, run_gold_models, sources_yml};
pub use run::{ELT_DIR, OracleRun, run_stage1_oracle};
pub use terraform::{TfOutput, terraform, terraform_code};
pub use tfstate::connection_ids;
pub use verify::{Verification, verify_task};
