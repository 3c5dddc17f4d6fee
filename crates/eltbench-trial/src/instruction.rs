//! The task text every agent is given (the `{instruction}` of a command
//! agent, the task of the builtin agent's prompt). It points at the
//! workspace's files; it never reveals expected counts or ground truth.

/// The instruction for task `db`.
pub fn instruction(db: &str) -> String {
    format!(
        "You are building an ELT pipeline for the database `{db}` in the current folder.\n\
         1. Extract and load: write `elt/main.tf` (Terraform, Airbyte provider 0.6.5) with one \
         source per source kind listed in `config.yaml`, the DuckDB destination named in its \
         `duckdb:` block, and one connection per source; run `terraform init` and \
         `terraform apply -auto-approve` in `elt/`; start one sync per connection through \
         the Airbyte API (`Airbyte.config` in `config.yaml`) and wait until every job \
         succeeded (`./check_job_status` waits for them). Sync each connection once.\n\
         2. Transform: in the dbt project `dbt/`, write one model per data model in \
         `data_model.yaml` (`dbt/models/<model>.sql`, exactly the listed columns; the \
         loaded tables are in schema `airbyte_schema`), then run `dbt run` there until \
         every model passes.\n\
         The folder `documentation/` explains the tools (start with README.md); \
         `schemas/` describes the source tables. `terraform` and `dbt` are on your PATH.\n"
    )
}
