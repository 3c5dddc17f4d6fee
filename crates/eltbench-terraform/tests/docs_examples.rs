//! The example blocks of the provider documentation ELT-Bench gives agents
//! (`../shared/elt-bench/airbyte-docs/*.md`) go through `terraform init` and
//! `terraform validate` exactly as they would with Terraform and provider
//! 0.6.5. Two published examples are not valid Terraform (a bare
//! `SOURCE_NAMESPACE` reference; an object assigned to the string attribute
//! `airbyte_source_custom.configuration`) and fail here as they do there.

mod common;

use common::{REQUIRED_PROVIDERS, elt_bench_dir, initialized, terraform};

/// The ```terraform block of one docs page.
fn example(page: &str) -> String {
    let path = elt_bench_dir().join("airbyte-docs").join(page);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let start = text
        .find("```terraform\n")
        .unwrap_or_else(|| panic!("{page} has no terraform example"))
        + 13;
    let end = start + text[start..].find("```").unwrap_or(0);
    text[start..end].to_string()
}

fn validate(main_tf: &str) -> common::Run {
    let dir = initialized(main_tf);
    terraform(dir.path(), &["validate"], "")
}

#[test]
fn source_and_provider_examples_validate() {
    for page in [
        "source_postgres.md",
        "source_mongodb_v2.md",
        "source_s3.md",
        "source_file.md",
        "airbyte_Provider.md",
    ] {
        let r = validate(&format!("{REQUIRED_PROVIDERS}{}", example(page)));
        assert_eq!(r.code, 0, "{page}: {}{}", r.stdout, r.stderr);
        assert_eq!(
            r.stdout, "Success! The configuration is valid.\n\n",
            "{page}"
        );
    }
}

#[test]
fn snowflake_example_parses_but_is_rejected_with_the_duckdb_recipe() {
    let r = validate(&format!(
        "{REQUIRED_PROVIDERS}{}",
        example("destination_snowflake.md")
    ));
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("Error: Unsupported destination for the local environment"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("with airbyte_destination_snowflake.my_destination_snowflake,"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("on main.tf line 10, in resource \"airbyte_destination_snowflake\" \"my_destination_snowflake\":"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("resource \"airbyte_destination_duckdb\" \"warehouse\""),
        "{}",
        r.stderr
    );
    // Only the rejection: the example itself matches the schema.
    assert_eq!(r.stderr.matches("Error:").count(), 1, "{}", r.stderr);
}

#[test]
fn connection_example_fails_on_its_bare_source_namespace_reference() {
    let tf = format!("{REQUIRED_PROVIDERS}{}", example("connection.md"));
    let r = validate(&tf);
    assert_eq!(r.code, 1);
    let line = tf
        .lines()
        .position(|l| l.contains("= SOURCE_NAMESPACE"))
        .unwrap()
        + 1;
    let want = format!(
        "╷\n│ Error: Invalid reference\n│ \n│   on main.tf line {line}, in resource \"airbyte_connection\" \"my_connection\":\n│   {line}:   namespace_format                     = SOURCE_NAMESPACE\n│ \n│ A reference to a resource type must be followed by at least one attribute access, specifying the resource name.\n╵\n"
    );
    assert_eq!(r.stderr, want);

    let fixed = tf.replace("= SOURCE_NAMESPACE", "= \"$${SOURCE_NAMESPACE}\"");
    let r = validate(&fixed);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "Success! The configuration is valid.\n\n"),
        "{}",
        r.stderr
    );
}

#[test]
fn custom_source_example_fails_on_object_for_string_and_jsonencode_fixes_it() {
    let tf = format!("{REQUIRED_PROVIDERS}{}", example("source_custom_api.md"));
    let r = validate(&tf);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("│ Error: Incorrect attribute value type\n"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("│ Inappropriate value for attribute \"configuration\": string required.\n"),
        "{}",
        r.stderr
    );

    let fixed = tf.replace(
        "configuration = { \"user\" : \"charles\" }",
        "configuration = jsonencode({ \"user\" : \"charles\" })",
    );
    let r = validate(&fixed);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn every_example_is_already_in_terraform_fmt_layout() {
    for page in [
        "source_postgres.md",
        "source_mongodb_v2.md",
        "source_s3.md",
        "source_file.md",
        "source_custom_api.md",
        "destination_snowflake.md",
        "connection.md",
        "airbyte_Provider.md",
    ] {
        let dir = common::workdir(&example(page));
        let r = terraform(dir.path(), &["fmt", "-check"], "");
        assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{page}");
    }
    let dir =
        common::workdir("resource \"a\" \"b\" {\nname = \"x\"\n    workspace_id = \"y\"\n}\n");
    let r = terraform(dir.path(), &["fmt", "-check"], "");
    assert_eq!((r.code, r.stdout.as_str()), (3, "main.tf\n"));
    let r = terraform(dir.path(), &["fmt"], "");
    assert_eq!(r.code, 0);
    let text = std::fs::read_to_string(dir.path().join("main.tf")).unwrap();
    assert_eq!(
        text,
        "resource \"a\" \"b\" {\n  name         = \"x\"\n  workspace_id = \"y\"\n}\n"
    );
}
