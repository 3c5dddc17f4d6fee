//! Broken configurations produce Terraform's diagnostics, with the summary,
//! the `on main.tf line N, in resource ...` position, the source line and
//! the detail, exactly as Terraform prints them.

mod common;

use common::{REQUIRED_PROVIDERS, initialized, terraform, workdir};

const DUCKDB: &str = "resource \"airbyte_destination_duckdb\" \"warehouse\" {\n  name         = \"duckdb\"\n  workspace_id = \"ws\"\n  configuration = {\n    destination_path = \"/tmp/x.duckdb\"\n  }\n}\n";

fn validate(body: &str) -> common::Run {
    let dir = initialized(&format!("{REQUIRED_PROVIDERS}{body}"));
    terraform(dir.path(), &["validate"], "")
}

/// The frame Terraform prints for one error (lines are 1-based in main.tf,
/// whose first 9 lines are the required_providers block).
fn frame(summary: &str, line: usize, context: &str, source: &str, detail: &str) -> String {
    format!(
        "╷\n│ Error: {summary}\n│ \n│   on main.tf line {line}, in {context}:\n│ {line:>4}: {source}\n│ \n│ {detail}\n╵\n"
    )
}

#[test]
fn missing_required_argument() {
    let r = validate(
        "resource \"airbyte_destination_duckdb\" \"warehouse\" {\n  workspace_id = \"ws\"\n  configuration = {\n    destination_path = \"/tmp/x.duckdb\"\n  }\n}\n",
    );
    assert_eq!(r.code, 1);
    let ctx = "resource \"airbyte_destination_duckdb\" \"warehouse\"";
    assert_eq!(
        r.stderr,
        frame(
            "Missing required argument",
            10,
            ctx,
            "resource \"airbyte_destination_duckdb\" \"warehouse\" {",
            "The argument \"name\" is required, but no definition was found."
        )
    );
}

#[test]
fn typo_in_argument_name_suggests_the_right_one() {
    let r = validate(&DUCKDB.replace("workspace_id =", "workspace_idd ="));
    assert_eq!(r.code, 1);
    let ctx = "resource \"airbyte_destination_duckdb\" \"warehouse\"";
    let want = frame(
        "Unsupported argument",
        12,
        ctx,
        "  workspace_idd = \"ws\"",
        "An argument named \"workspace_idd\" is not expected here. Did you mean \"workspace_id\"?",
    ) + &frame(
        "Missing required argument",
        10,
        ctx,
        "resource \"airbyte_destination_duckdb\" \"warehouse\" {",
        "The argument \"workspace_id\" is required, but no definition was found.",
    );
    assert_eq!(r.stderr, want);
}

#[test]
fn block_syntax_for_an_attribute_is_an_unsupported_block_type() {
    let r = validate(&DUCKDB.replace("configuration = {", "configuration {"));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("│ Error: Unsupported block type\n│ \n│   on main.tf line 13, in resource \"airbyte_destination_duckdb\" \"warehouse\":\n│   13:   configuration {\n│ \n│ Blocks of type \"configuration\" are not expected here. Did you mean to define argument \"configuration\"? If so, use the equals sign to assign it a value.\n"), "{}", r.stderr);
}

#[test]
fn reference_to_undeclared_resource_and_unknown_attribute() {
    let conn = "resource \"airbyte_connection\" \"c\" {\n  source_id      = airbyte_source_postgres.pgg.source_id\n  destination_id = airbyte_destination_duckdb.warehouse.id\n}\n";
    let r = validate(&format!("{DUCKDB}{conn}"));
    assert_eq!(r.code, 1);
    let ctx = "resource \"airbyte_connection\" \"c\"";
    let want = frame(
        "Reference to undeclared resource",
        18,
        ctx,
        "  source_id      = airbyte_source_postgres.pgg.source_id",
        "A managed resource \"airbyte_source_postgres\" \"pgg\" has not been declared in the root module.",
    ) + &frame(
        "Unsupported attribute",
        19,
        ctx,
        "  destination_id = airbyte_destination_duckdb.warehouse.id",
        "This object has no argument, nested block, or exported attribute named \"id\".",
    );
    assert_eq!(r.stderr, want);
}

#[test]
fn undeclared_variable() {
    let r = validate(&DUCKDB.replace("\"ws\"", "var.workspace"));
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        frame(
            "Reference to undeclared input variable",
            12,
            "resource \"airbyte_destination_duckdb\" \"warehouse\"",
            "  workspace_id = var.workspace",
            "An input variable with the name \"workspace\" has not been declared. This variable can be declared with a variable \"workspace\" {} block."
        )
    );
}

#[test]
fn malformed_hcl_reports_the_line() {
    let dir = workdir(&format!(
        "{REQUIRED_PROVIDERS}{}",
        DUCKDB.trim_end().trim_end_matches('}')
    ));
    let r = terraform(dir.path(), &["init"], "");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("│ Error: Unclosed configuration block\n│ \n│   on main.tf line 10, in resource \"airbyte_destination_duckdb\" \"warehouse\":\n"), "{}", r.stderr);

    let dir = workdir(&format!(
        "{REQUIRED_PROVIDERS}{}",
        DUCKDB.replace("name         = \"duckdb\"", "name \"duckdb\"")
    ));
    let r = terraform(dir.path(), &["init"], "");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("│ Error: Invalid block definition\n│ \n│   on main.tf line 11, in resource \"airbyte_destination_duckdb\" \"warehouse\":\n│   11:   name \"duckdb\"\n│ \n│ A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.\n╵\n"), "{}", r.stderr);
}

#[test]
fn missing_nested_attribute_and_bad_enum_value() {
    let pg = "resource \"airbyte_source_postgres\" \"pg\" {\n  name         = \"pg\"\n  workspace_id = \"ws\"\n  configuration = {\n    host = \"localhost\"\n  }\n}\n";
    let r = validate(pg);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("│ Error: Incorrect attribute value type\n│ \n│   on main.tf line 13, in resource \"airbyte_source_postgres\" \"pg\":\n│   13:   configuration = {\n│   14:     host = \"localhost\"\n│   15:   }\n│ \n│ Inappropriate value for attribute \"configuration\": attributes \"database\" and \"username\" are required.\n"), "{}", r.stderr);

    let conn = "resource \"airbyte_connection\" \"c\" {\n  source_id      = \"s\"\n  destination_id = airbyte_destination_duckdb.warehouse.destination_id\n  status         = \"running\"\n}\n";
    let r = validate(&format!("{DUCKDB}{conn}"));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("│ Error: Invalid Attribute Value Match\n│ \n│   with airbyte_connection.c,\n│   on main.tf line 20, in resource \"airbyte_connection\" \"c\":\n│   20:   status         = \"running\"\n│ \n│ Attribute status value must be one of: [\"\\\"active\\\"\" \"\\\"inactive\\\"\" \"\\\"deprecated\\\"\"], got: \"running\"\n"), "{}", r.stderr);
}

#[test]
fn commands_before_init_ask_for_init() {
    let dir = workdir(&format!("{REQUIRED_PROVIDERS}{DUCKDB}"));
    for cmd in ["validate", "plan", "apply"] {
        let r = terraform(dir.path(), &[cmd], "");
        assert_eq!(r.code, 1, "{cmd}");
        assert!(
            r.stderr
                .starts_with("╷\n│ Error: Inconsistent dependency lock file\n"),
            "{cmd}: {}",
            r.stderr
        );
        assert!(
            r.stderr.contains("│   terraform init\n"),
            "{cmd}: {}",
            r.stderr
        );
    }
    std::fs::write(
        dir.path().join(".terraform.lock.hcl"),
        "provider \"registry.terraform.io/airbytehq/airbyte\" {\n  version = \"0.6.5\"\n}\n",
    )
    .unwrap();
    let r = terraform(dir.path(), &["plan"], "");
    assert!(
        r.stderr
            .contains("│ Error: Required plugins are not installed\n"),
        "{}",
        r.stderr
    );
}

#[test]
fn init_without_required_providers_looks_for_hashicorp_airbyte() {
    let dir = workdir(DUCKDB);
    let r = terraform(dir.path(), &["init"], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("- Finding latest version of hashicorp/airbyte...\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr
            .contains("│ Error: Failed to query available provider packages\n"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("Did you intend to use airbytehq/airbyte?"),
        "{}",
        r.stderr
    );
    assert!(!dir.path().join(".terraform.lock.hcl").exists());
}
