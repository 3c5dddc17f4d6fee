//! plan / apply / re-apply / update / replace / destroy against a test double
//! of the Airbyte API (see `common/fake_airbyte.rs`), checking the calls the
//! provider makes, Terraform's output, and `terraform.tfstate`.

mod common;

use std::collections::BTreeMap;

use common::fake_airbyte::FakeAirbyte;
use common::{REQUIRED_PROVIDERS, initialized, terraform, terraform_env};
use serde_json::Value;

fn config(url: &str) -> String {
    format!(
        r#"{REQUIRED_PROVIDERS}variable "workspace_id" {{
  type = string
}}

variable "pg_password" {{
  type      = string
  sensitive = true
}}

provider "airbyte" {{
  server_url = "{url}"
  username   = "airbyte"
  password   = "password"
}}

locals {{
  tables = ["customers", "orders"]
}}

resource "airbyte_source_postgres" "pg" {{
  name         = "pg"
  workspace_id = var.workspace_id
  configuration = {{
    host     = "127.0.0.1"
    port     = 5432
    database = "shop"
    username = "postgres"
    password = var.pg_password
    schemas  = ["public"]
    ssl_mode = {{
      disable = {{}}
    }}
    replication_method = {{
      scan_changes_with_user_defined_cursor = {{}}
    }}
    tunnel_method = {{
      no_tunnel = {{}}
    }}
  }}
}}

resource "airbyte_destination_duckdb" "warehouse" {{
  name         = "duckdb"
  workspace_id = var.workspace_id
  configuration = {{
    destination_path = "/tmp/shop.duckdb"
    schema           = "airbyte_schema"
  }}
}}

resource "airbyte_connection" "pg_to_duckdb" {{
  name           = "pg to duckdb"
  source_id      = airbyte_source_postgres.pg.source_id
  destination_id = airbyte_destination_duckdb.warehouse.destination_id
  configurations = {{
    streams = [for t in local.tables : {{ name = t, sync_mode = "full_refresh_append" }}]
  }}
}}

output "connection_id" {{
  value = airbyte_connection.pg_to_duckdb.connection_id
}}
"#
    )
}

fn env() -> BTreeMap<String, String> {
    BTreeMap::from([("TF_VAR_pg_password".to_string(), "secret".to_string())])
}

const WS: &str = "-var=workspace_id=ws-1";

fn state(dir: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap()).unwrap()
}

fn writes(api: &FakeAirbyte) -> Vec<(String, String)> {
    api.log()
        .into_iter()
        .filter(|(m, ..)| m != "GET")
        .map(|(m, p, _)| (m, p))
        .collect()
}

/// Replaces the test double's ids and the random lineage for snapshots.
fn redact(v: &mut Value) {
    match v {
        Value::String(s) if s.starts_with("00000000-0000-4000-8000-") => *s = "[id]".into(),
        Value::Array(a) => a.iter_mut().for_each(redact),
        Value::Object(m) => {
            if m.contains_key("lineage") {
                m.insert("lineage".into(), Value::String("[lineage]".into()));
            }
            m.values_mut().for_each(redact);
        }
        _ => {}
    }
}

#[test]
fn apply_requires_yes_then_creates_in_dependency_order() {
    let api = FakeAirbyte::start();
    let dir = initialized(&config(&api.url));

    let r = terraform_env(dir.path(), &["plan", WS], "", &env());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("  # airbyte_source_postgres.pg will be created\n  + resource \"airbyte_source_postgres\" \"pg\" {\n"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("          + password           = (sensitive value)\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("      + source_id     = (known after apply)\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("Plan: 3 to add, 0 to change, 0 to destroy.\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("Changes to Outputs:\n  + connection_id = (known after apply)\n"),
        "{}",
        r.stdout
    );
    assert!(writes(&api).is_empty());

    let r = terraform_env(dir.path(), &["apply", WS], "no\n", &env());
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("Only 'yes' will be accepted to approve.\n\n  Enter a value: "),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains("│ Error: Apply cancelled\n"),
        "{}",
        r.stderr
    );
    assert_eq!(api.count("sources"), 0);
    assert!(!dir.path().join("terraform.tfstate").exists());

    let r = terraform_env(dir.path(), &["apply", WS], "yes\n", &env());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("airbyte_source_postgres.pg: Creating...\nairbyte_source_postgres.pg: Creation complete after 0s\n"), "{}", r.stdout);
    assert!(r.stdout.contains("\nApply complete! Resources: 3 added, 0 changed, 0 destroyed.\n\nOutputs:\n\nconnection_id = \"00000000-0000-4000-8000-000000000003\"\n"), "{}", r.stdout);
    assert_eq!(
        writes(&api),
        vec![
            ("POST".into(), "/v1/sources".into()),
            ("POST".into(), "/v1/destinations".into()),
            ("POST".into(), "/v1/connections".into()),
        ]
    );
    let log = api.log();
    let source_body = &log
        .iter()
        .find(|(m, p, _)| m == "POST" && p == "/v1/sources")
        .unwrap()
        .2;
    assert_eq!(source_body["configuration"]["sourceType"], "postgres");
    assert_eq!(
        source_body["configuration"]["ssl_mode"],
        serde_json::json!({"mode": "disable"})
    );
    assert_eq!(source_body["configuration"]["password"], "secret");
    assert_eq!(source_body["workspaceId"], "ws-1");
    let conn_body = &log
        .iter()
        .find(|(m, p, _)| m == "POST" && p == "/v1/connections")
        .unwrap()
        .2;
    assert_eq!(
        conn_body["sourceId"],
        "00000000-0000-4000-8000-000000000001"
    );
    assert_eq!(
        conn_body["destinationId"],
        "00000000-0000-4000-8000-000000000002"
    );
    assert_eq!(
        conn_body["configurations"]["streams"][1],
        serde_json::json!({"name": "orders", "syncMode": "full_refresh_append"})
    );

    let mut st = state(dir.path());
    redact(&mut st);
    insta::assert_json_snapshot!("state_after_apply", st);
}

#[test]
fn reapply_is_a_noop_update_patches_and_replacement_recreates() {
    let api = FakeAirbyte::start();
    let dir = initialized(&config(&api.url));
    let r = terraform_env(dir.path(), &["apply", "-auto-approve", WS], "", &env());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let serial = state(dir.path())["serial"].as_u64().unwrap();
    let lineage = state(dir.path())["lineage"].clone();

    let r = terraform_env(dir.path(), &["apply", "-auto-approve", WS], "", &env());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("\nNo changes. Your infrastructure matches the configuration.\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("Apply complete! Resources: 0 added, 0 changed, 0 destroyed.\n"),
        "{}",
        r.stdout
    );
    assert_eq!(
        writes(&api).len(),
        3,
        "re-apply must not write: {:?}",
        writes(&api)
    );
    assert_eq!(state(dir.path())["serial"].as_u64().unwrap(), serial);

    // In-place update: the provider PUTs sources and destinations.
    let tf = config(&api.url).replace("name         = \"pg\"", "name         = \"postgres\"");
    std::fs::write(dir.path().join("main.tf"), &tf).unwrap();
    let r = terraform_env(dir.path(), &["plan", WS], "", &env());
    assert!(r.stdout.contains("  # airbyte_source_postgres.pg will be updated in-place\n  ~ resource \"airbyte_source_postgres\" \"pg\" {\n      ~ name          = \"pg\" -> \"postgres\"\n"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("Plan: 0 to add, 1 to change, 0 to destroy.\n"),
        "{}",
        r.stdout
    );
    let r = terraform_env(dir.path(), &["apply", "-auto-approve", WS], "", &env());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("airbyte_source_postgres.pg: Modifying...\n"),
        "{}",
        r.stdout
    );
    assert_eq!(
        writes(&api).last().unwrap(),
        &(
            "PUT".to_string(),
            "/v1/sources/00000000-0000-4000-8000-000000000001".to_string()
        )
    );
    assert_eq!(
        api.object("sources", "00000000-0000-4000-8000-000000000001")
            .unwrap()["name"],
        "postgres"
    );
    let st = state(dir.path());
    assert_eq!(st["lineage"], lineage);
    assert_eq!(st["serial"].as_u64().unwrap(), serial + 1);

    // definition_id requires replacement; the connection follows its new destination id.
    let tf = tf.replace("  name         = \"duckdb\"\n", "  name          = \"duckdb\"\n  definition_id = \"94bd199c-2ff0-4aa2-b98e-17f0acb72610\"\n");
    std::fs::write(dir.path().join("main.tf"), &tf).unwrap();
    let r = terraform_env(dir.path(), &["plan", WS], "", &env());
    assert!(r.stdout.contains("  # airbyte_destination_duckdb.warehouse must be replaced\n-/+ resource \"airbyte_destination_duckdb\" \"warehouse\" {\n"), "{}", r.stdout);
    assert!(r.stdout.contains("      + definition_id    = \"94bd199c-2ff0-4aa2-b98e-17f0acb72610\" # forces replacement\n"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("  # airbyte_connection.pg_to_duckdb must be replaced\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("Plan: 2 to add, 0 to change, 2 to destroy.\n"),
        "{}",
        r.stdout
    );
    let before = writes(&api).len();
    let r = terraform_env(dir.path(), &["apply", "-auto-approve", WS], "", &env());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let calls: Vec<_> = writes(&api)[before..].to_vec();
    assert_eq!(
        calls,
        vec![
            (
                "DELETE".into(),
                "/v1/connections/00000000-0000-4000-8000-000000000003".into()
            ),
            (
                "DELETE".into(),
                "/v1/destinations/00000000-0000-4000-8000-000000000002".into()
            ),
            ("POST".into(), "/v1/destinations".into()),
            ("POST".into(), "/v1/connections".into()),
        ]
    );
    let conn_id = state(dir.path())["outputs"]["connection_id"]["value"]
        .as_str()
        .unwrap()
        .to_string();
    let conn = api.object("connections", &conn_id).unwrap();
    assert_eq!(
        conn["destinationId"],
        "00000000-0000-4000-8000-000000000004"
    );
}

#[test]
fn outputs_state_list_drift_and_destroy() {
    let api = FakeAirbyte::start();
    let dir = initialized(&config(&api.url));
    let r = terraform_env(dir.path(), &["apply", "-auto-approve", WS], "", &env());
    assert_eq!(r.code, 0, "{}", r.stderr);

    let r = terraform(dir.path(), &["state", "list"], "");
    assert_eq!(
        r.stdout,
        "airbyte_source_postgres.pg\nairbyte_destination_duckdb.warehouse\nairbyte_connection.pg_to_duckdb\n"
    );
    let r = terraform(dir.path(), &["output", "-json"], "");
    let out: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        out["connection_id"],
        serde_json::json!({"sensitive": false, "type": "string", "value": "00000000-0000-4000-8000-000000000003"})
    );
    let r = terraform(dir.path(), &["output", "-raw", "connection_id"], "");
    assert_eq!(r.stdout, "00000000-0000-4000-8000-000000000003");

    // A connection deleted outside Terraform is planned for creation again.
    api.forget("connections", "00000000-0000-4000-8000-000000000003");
    let r = terraform_env(dir.path(), &["plan", WS], "", &env());
    assert!(
        r.stdout
            .contains("airbyte_connection.pg_to_duckdb: Refreshing state...\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("Plan: 1 to add, 0 to change, 0 to destroy.\n"),
        "{}",
        r.stdout
    );

    let r = terraform_env(dir.path(), &["destroy", WS], "yes\n", &env());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("Do you really want to destroy all resources?"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("Destroy complete! Resources: 2 destroyed.\n"),
        "{}",
        r.stdout
    );
    assert_eq!((api.count("sources"), api.count("destinations")), (0, 0));
    assert_eq!(state(dir.path())["resources"], serde_json::json!([]));
    let r = terraform(dir.path(), &["state", "list"], "");
    assert_eq!(r.stdout, "");
}

#[test]
fn api_errors_are_reported_as_the_provider_does() {
    let api = FakeAirbyte::start();
    let tf = format!(
        "{REQUIRED_PROVIDERS}provider \"airbyte\" {{\n  server_url = \"{}\"\n  username   = \"airbyte\"\n  password   = \"password\"\n}}\n\nresource \"airbyte_connection\" \"c\" {{\n  source_id      = \"missing-source\"\n  destination_id = \"missing-destination\"\n}}\n",
        api.url
    );
    let dir = initialized(&tf);
    let r = terraform(dir.path(), &["apply", "-auto-approve"], "");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("│ Error: unexpected response from API. Got an unexpected response code 400\n│ \n│   with airbyte_connection.c,\n│   on main.tf line 16, in resource \"airbyte_connection\" \"c\":\n"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("│ **Request**:\n│ POST /v1/connections HTTP/1.1\n"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("source missing-source not found"),
        "{}",
        r.stderr
    );

    let bad_auth = tf.replace("password   = \"password\"", "password   = \"wrong\"");
    std::fs::write(dir.path().join("main.tf"), bad_auth).unwrap();
    let r = terraform(dir.path(), &["apply", "-auto-approve"], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("│ Error: failure to invoke API\n"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("│ unknown status code returned: Status 401\n"),
        "{}",
        r.stderr
    );
}

#[test]
fn for_each_connections_get_keyed_instances() {
    let api = FakeAirbyte::start();
    let tf = config(&api.url).replace(
        "resource \"airbyte_connection\" \"pg_to_duckdb\" {\n  name           = \"pg to duckdb\"",
        "resource \"airbyte_connection\" \"pg_to_duckdb\" {\n  for_each       = toset(local.tables)\n  name           = \"pg-${each.key}\"",
    )
    .replace("streams = [for t in local.tables : { name = t, sync_mode = \"full_refresh_append\" }]", "streams = [{ name = each.value, sync_mode = \"full_refresh_append\" }]")
    .replace("value = airbyte_connection.pg_to_duckdb.connection_id", "value = airbyte_connection.pg_to_duckdb[\"orders\"].connection_id");
    let dir = initialized(&tf);
    let r = terraform_env(dir.path(), &["apply", "-auto-approve", WS], "", &env());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("Apply complete! Resources: 4 added, 0 changed, 0 destroyed.\n"),
        "{}",
        r.stdout
    );
    let r = terraform(dir.path(), &["state", "list"], "");
    assert_eq!(
        r.stdout,
        "airbyte_source_postgres.pg\nairbyte_destination_duckdb.warehouse\nairbyte_connection.pg_to_duckdb[\"customers\"]\nairbyte_connection.pg_to_duckdb[\"orders\"]\n"
    );
    let st = state(dir.path());
    let conn = st["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["type"] == "airbyte_connection")
        .unwrap();
    assert_eq!(conn["instances"][1]["index_key"], "orders");
    let id = st["outputs"]["connection_id"]["value"].as_str().unwrap();
    assert_eq!(api.object("connections", id).unwrap()["name"], "pg-orders");
    let r = terraform_env(dir.path(), &["plan", WS], "", &env());
    assert!(r.stdout.contains("No changes."), "{}", r.stdout);
}
