//! plan / apply / re-apply / update / replace / destroy against eltbench's
//! real Airbyte API server and a real PostgreSQL source (see
//! `common/airbyte.rs`), checking Terraform's output, `terraform.tfstate`,
//! and what the API holds afterwards (`GET /sources`, `/destinations`,
//! `/connections`).

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::airbyte::{PG_PASSWORD, PG_USER, Services, WORKSPACE_ID};
use common::{REQUIRED_PROVIDERS, initialized, terraform, terraform_env};
use serde_json::{Value, json};

/// The pipeline under test; `warehouse` is the DuckDB file the connection loads.
fn config(api: &Services, warehouse: &Path) -> String {
    let url = api.url();
    let port = api.pg_port();
    let warehouse = warehouse.display();
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
    port     = {port}
    database = "shop"
    username = "{PG_USER}"
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
    destination_path = "{warehouse}"
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
    BTreeMap::from([("TF_VAR_pg_password".to_string(), PG_PASSWORD.to_string())])
}

fn ws() -> String {
    format!("-var=workspace_id={WORKSPACE_ID}")
}

/// `terraform <command> -var=workspace_id=...` with the password variable set.
fn tf(dir: &Path, command: &[&str], stdin: &str) -> common::Run {
    let ws = ws();
    let mut args = command.to_vec();
    args.push(&ws);
    terraform_env(dir, &args, stdin, &env())
}

fn state(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap()).unwrap()
}

/// The `id_attr` of every instance of resources of type `ty` in the state.
fn state_ids(st: &Value, ty: &str, id_attr: &str) -> Vec<String> {
    st["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["type"] == ty)
        .flat_map(|r| r["instances"].as_array().unwrap().iter())
        .map(|i| i["attributes"][id_attr].as_str().unwrap().to_string())
        .collect()
}

/// Everything the API holds, for before/after comparisons.
fn everything(api: &Services) -> Value {
    json!({
        "sources": api.list("sources"),
        "destinations": api.list("destinations"),
        "connections": api.list("connections"),
    })
}

/// Replaces the server's random ids, the random lineage, the source's port
/// and the warehouse path for snapshots.
fn redact(v: &mut Value, port: u16, warehouse: &str) {
    match v {
        Value::String(s) if s != WORKSPACE_ID && uuid::Uuid::parse_str(s).is_ok() => {
            *s = "[id]".into()
        }
        Value::String(s) if s == warehouse => *s = "[warehouse]".into(),
        Value::Number(n) if n.as_u64() == Some(u64::from(port)) => {
            *v = Value::String("[pg_port]".into())
        }
        Value::Array(a) => a.iter_mut().for_each(|x| redact(x, port, warehouse)),
        Value::Object(m) => {
            if m.contains_key("lineage") {
                m.insert("lineage".into(), Value::String("[lineage]".into()));
            }
            m.values_mut().for_each(|x| redact(x, port, warehouse));
        }
        _ => {}
    }
}

#[test]
fn apply_requires_yes_then_creates_in_dependency_order() {
    let api = Services::start();
    let wh_dir = tempfile::tempdir().unwrap();
    let warehouse = wh_dir.path().join("shop.duckdb");
    let dir = initialized(&config(&api, &warehouse));

    let r = tf(dir.path(), &["plan"], "");
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
    let empty = json!({"sources": [], "destinations": [], "connections": []});
    assert_eq!(everything(&api), empty, "plan must not write");

    let r = tf(dir.path(), &["apply"], "no\n");
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
    assert_eq!(everything(&api), empty, "a cancelled apply must not write");
    assert!(!dir.path().join("terraform.tfstate").exists());

    let r = tf(dir.path(), &["apply"], "yes\n");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("airbyte_source_postgres.pg: Creating...\nairbyte_source_postgres.pg: Creation complete after 0s\n"), "{}", r.stdout);
    let creating: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.ends_with(": Creating..."))
        .collect();
    assert_eq!(
        creating,
        [
            "airbyte_source_postgres.pg: Creating...",
            "airbyte_destination_duckdb.warehouse: Creating...",
            "airbyte_connection.pg_to_duckdb: Creating...",
        ]
    );
    let st = state(dir.path());
    let conn_id = st["outputs"]["connection_id"]["value"].as_str().unwrap();
    assert!(r.stdout.contains(&format!("\nApply complete! Resources: 3 added, 0 changed, 0 destroyed.\n\nOutputs:\n\nconnection_id = \"{conn_id}\"\n")), "{}", r.stdout);

    // One of each exists on the server, with the ids the state recorded.
    let source_id = api.ids("sources");
    let destination_id = api.ids("destinations");
    assert_eq!(
        source_id,
        state_ids(&st, "airbyte_source_postgres", "source_id")
    );
    assert_eq!(
        destination_id,
        state_ids(&st, "airbyte_destination_duckdb", "destination_id")
    );
    assert_eq!(api.ids("connections"), [conn_id]);

    // The source's configuration went through the provider's payload mapping.
    let source = api.object("sources", &source_id[0]).unwrap();
    assert_eq!(source["sourceType"], "postgres");
    assert_eq!(source["workspaceId"], WORKSPACE_ID);
    assert_eq!(
        source["configuration"]["ssl_mode"],
        json!({"mode": "disable"})
    );
    assert_eq!(source["configuration"]["password"], PG_PASSWORD);
    assert_eq!(source["configuration"]["port"], api.pg_port());
    let conn = api.object("connections", conn_id).unwrap();
    assert_eq!(conn["sourceId"], source_id[0].as_str());
    assert_eq!(conn["destinationId"], destination_id[0].as_str());
    assert_eq!(
        conn["configurations"]["streams"][1],
        json!({"name": "orders", "syncMode": "full_refresh_append"})
    );

    // The real engine runs what Terraform created: 2 customers + 3 orders.
    let (status, log) = api.sync(conn_id);
    assert_eq!(status, "succeeded", "{log}");
    let (_, jobs) = api.get(&format!("/jobs?connectionId={conn_id}"));
    assert_eq!(jobs["data"][0]["rowsSynced"], 5, "{jobs}");

    let mut st = st;
    redact(&mut st, api.pg_port(), &warehouse.display().to_string());
    insta::assert_json_snapshot!("state_after_apply", st);
}

#[test]
fn reapply_is_a_noop_update_patches_and_replacement_recreates() {
    let api = Services::start();
    let wh_dir = tempfile::tempdir().unwrap();
    let tf_text = config(&api, &wh_dir.path().join("shop.duckdb"));
    let dir = initialized(&tf_text);
    let r = tf(dir.path(), &["apply", "-auto-approve"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let serial = state(dir.path())["serial"].as_u64().unwrap();
    let lineage = state(dir.path())["lineage"].clone();
    let created = everything(&api);

    let r = tf(dir.path(), &["apply", "-auto-approve"], "");
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
    assert_eq!(everything(&api), created, "re-apply must not write");
    assert_eq!(state(dir.path())["serial"].as_u64().unwrap(), serial);

    // In-place update: same source id, new name on the server.
    let source_id = api.ids("sources")[0].clone();
    let tf_text = tf_text.replace("name         = \"pg\"", "name         = \"postgres\"");
    std::fs::write(dir.path().join("main.tf"), &tf_text).unwrap();
    let r = tf(dir.path(), &["plan"], "");
    assert!(r.stdout.contains("  # airbyte_source_postgres.pg will be updated in-place\n  ~ resource \"airbyte_source_postgres\" \"pg\" {\n      ~ name          = \"pg\" -> \"postgres\"\n"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("Plan: 0 to add, 1 to change, 0 to destroy.\n"),
        "{}",
        r.stdout
    );
    let r = tf(dir.path(), &["apply", "-auto-approve"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("airbyte_source_postgres.pg: Modifying...\n"),
        "{}",
        r.stdout
    );
    let sources = api.list("sources");
    assert_eq!(sources.len(), 1, "{sources:?}");
    assert_eq!(sources[0]["sourceId"], source_id.as_str());
    assert_eq!(sources[0]["name"], "postgres");
    assert_eq!(sources[0]["configuration"]["password"], PG_PASSWORD);
    assert_eq!(
        (
            created["destinations"].clone(),
            created["connections"].clone()
        ),
        (
            Value::Array(api.list("destinations")),
            Value::Array(api.list("connections"))
        ),
        "only the source may change"
    );
    let st = state(dir.path());
    assert_eq!(st["lineage"], lineage);
    assert_eq!(st["serial"].as_u64().unwrap(), serial + 1);

    // definition_id requires replacement; the connection follows its new destination id.
    let old_destination = api.ids("destinations")[0].clone();
    let old_connection = api.ids("connections")[0].clone();
    let tf_text = tf_text.replace("  name         = \"duckdb\"\n", "  name          = \"duckdb\"\n  definition_id = \"94bd199c-2ff0-4aa2-b98e-17f0acb72610\"\n");
    std::fs::write(dir.path().join("main.tf"), &tf_text).unwrap();
    let r = tf(dir.path(), &["plan"], "");
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
    let r = tf(dir.path(), &["apply", "-auto-approve"], "");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("Apply complete! Resources: 2 added, 0 changed, 2 destroyed.\n"),
        "{}",
        r.stdout
    );
    // Destroy-before-create, dependents first (the server would otherwise
    // have dropped the connection with its destination already).
    let steps: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.ends_with(": Destroying...") || l.ends_with(": Creating..."))
        .collect();
    assert_eq!(
        steps,
        [
            "airbyte_connection.pg_to_duckdb: Destroying...",
            "airbyte_destination_duckdb.warehouse: Destroying...",
            "airbyte_destination_duckdb.warehouse: Creating...",
            "airbyte_connection.pg_to_duckdb: Creating...",
        ]
    );
    let (deleted_conn, _) = api.get(&format!("/connections/{old_connection}"));
    let (deleted_dest, _) = api.get(&format!("/destinations/{old_destination}"));
    assert_eq!((deleted_conn, deleted_dest), (404, 404));
    let st = state(dir.path());
    let new_destination = api.ids("destinations");
    assert_eq!(
        new_destination,
        state_ids(&st, "airbyte_destination_duckdb", "destination_id")
    );
    assert_ne!(new_destination[0], old_destination);
    let destination = api.object("destinations", &new_destination[0]).unwrap();
    assert_eq!(
        destination["definitionId"],
        "94bd199c-2ff0-4aa2-b98e-17f0acb72610"
    );
    let conn_id = st["outputs"]["connection_id"]["value"].as_str().unwrap();
    assert_eq!(api.ids("connections"), [conn_id]);
    assert_ne!(conn_id, old_connection);
    let conn = api.object("connections", conn_id).unwrap();
    assert_eq!(conn["destinationId"], new_destination[0].as_str());
    assert_eq!(api.ids("sources"), [source_id.as_str()]);
    assert_eq!(conn["sourceId"], source_id.as_str());
}

#[test]
fn outputs_state_list_drift_and_destroy() {
    let api = Services::start();
    let wh_dir = tempfile::tempdir().unwrap();
    let dir = initialized(&config(&api, &wh_dir.path().join("shop.duckdb")));
    let r = tf(dir.path(), &["apply", "-auto-approve"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let conn_id = api.ids("connections")[0].clone();

    let r = terraform(dir.path(), &["state", "list"], "");
    assert_eq!(
        r.stdout,
        "airbyte_source_postgres.pg\nairbyte_destination_duckdb.warehouse\nairbyte_connection.pg_to_duckdb\n"
    );
    let r = terraform(dir.path(), &["output", "-json"], "");
    let out: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        out["connection_id"],
        json!({"sensitive": false, "type": "string", "value": conn_id})
    );
    let r = terraform(dir.path(), &["output", "-raw", "connection_id"], "");
    assert_eq!(r.stdout, conn_id);

    // A connection deleted outside Terraform is planned for creation again.
    assert_eq!(api.delete(&format!("/connections/{conn_id}")), 204);
    let r = tf(dir.path(), &["plan"], "");
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

    let r = tf(dir.path(), &["destroy"], "yes\n");
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
    assert_eq!(
        everything(&api),
        json!({"sources": [], "destinations": [], "connections": []})
    );
    assert_eq!(state(dir.path())["resources"], json!([]));
    let r = terraform(dir.path(), &["state", "list"], "");
    assert_eq!(r.stdout, "");
}

#[test]
fn api_errors_are_reported_as_the_provider_does() {
    let api = Services::start();
    let wh_dir = tempfile::tempdir().unwrap();

    // A stream the source does not have: Airbyte answers 400, which the
    // provider reports with the request/response dump.
    let typo = config(&api, &wh_dir.path().join("shop.duckdb")).replace(
        "tables = [\"customers\", \"orders\"]",
        "tables = [\"customer\", \"orders\"]",
    );
    let dir = initialized(&typo);
    let r = tf(dir.path(), &["apply", "-auto-approve"], "");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("│ Error: unexpected response from API. Got an unexpected response code 400\n│ \n│   with airbyte_connection.pg_to_duckdb,\n│   on main.tf line 60, in resource \"airbyte_connection\" \"pg_to_duckdb\":\n"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("│ **Request**:\n│ POST /api/public/v1/connections HTTP/1.1\n"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(
            "Invalid stream found. The list of valid streams include: [customers, orders]."
        ),
        "{}",
        r.stderr
    );
    assert!(api.list("connections").is_empty());

    // Ids the server does not know: 404 is not a status the provider's SDK
    // expects from this call, so it is "failure to invoke API".
    let tf_text = format!(
        "{REQUIRED_PROVIDERS}provider \"airbyte\" {{\n  server_url = \"{}\"\n  username   = \"airbyte\"\n  password   = \"password\"\n}}\n\nresource \"airbyte_connection\" \"c\" {{\n  source_id      = \"missing-source\"\n  destination_id = \"missing-destination\"\n}}\n",
        api.url()
    );
    let dir = initialized(&tf_text);
    let r = terraform(dir.path(), &["apply", "-auto-approve"], "");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("│ Error: failure to invoke API\n│ \n│   with airbyte_connection.c,\n│   on main.tf line 16, in resource \"airbyte_connection\" \"c\":\n"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("│ unknown status code returned: Status 404\n"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("Could not find a resource for: missing-source"),
        "{}",
        r.stderr
    );
    assert!(api.list("connections").is_empty());

    let bad_auth = tf_text.replace("password   = \"password\"", "password   = \"wrong\"");
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
fn wrong_source_password_fails_the_connection_at_discovery() {
    let api = Services::start();
    let wh_dir = tempfile::tempdir().unwrap();
    let dir = initialized(&config(&api, &wh_dir.path().join("shop.duckdb")));
    let wrong = BTreeMap::from([("TF_VAR_pg_password".to_string(), "wrong".to_string())]);
    let ws = ws();
    let r = terraform_env(dir.path(), &["apply", "-auto-approve", &ws], "", &wrong);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    // Source and destination are created (Airbyte does not check them then);
    // the connection fails because creating it discovers the source's streams.
    assert!(
        r.stderr.contains(
            "│ Error: failure to invoke API\n│ \n│   with airbyte_connection.pg_to_duckdb,\n"
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("│ unknown status code returned: Status 422\n"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("password authentication failed for user"),
        "{}",
        r.stderr
    );
    assert_eq!(api.ids("sources").len(), 1);
    assert_eq!(api.ids("destinations").len(), 1);
    assert!(api.list("connections").is_empty());
    let r = terraform(dir.path(), &["state", "list"], "");
    assert_eq!(
        r.stdout,
        "airbyte_source_postgres.pg\nairbyte_destination_duckdb.warehouse\n"
    );

    // With the right password the next apply creates only the connection.
    let r = tf(dir.path(), &["apply", "-auto-approve"], "");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("Resources: 1 added, 1 changed, 0 destroyed.\n"),
        "{}",
        r.stdout
    );
    assert_eq!(api.ids("connections").len(), 1);
}

#[test]
fn for_each_connections_get_keyed_instances() {
    let api = Services::start();
    let wh_dir = tempfile::tempdir().unwrap();
    let tf_text = config(&api, &wh_dir.path().join("shop.duckdb")).replace(
        "resource \"airbyte_connection\" \"pg_to_duckdb\" {\n  name           = \"pg to duckdb\"",
        "resource \"airbyte_connection\" \"pg_to_duckdb\" {\n  for_each       = toset(local.tables)\n  name           = \"pg-${each.key}\"",
    )
    .replace("streams = [for t in local.tables : { name = t, sync_mode = \"full_refresh_append\" }]", "streams = [{ name = each.value, sync_mode = \"full_refresh_append\" }]")
    .replace("value = airbyte_connection.pg_to_duckdb.connection_id", "value = airbyte_connection.pg_to_duckdb[\"orders\"].connection_id");
    let dir = initialized(&tf_text);
    let r = tf(dir.path(), &["apply", "-auto-approve"], "");
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
    let ids = state_ids(&st, "airbyte_connection", "connection_id");
    let mut on_server = api.ids("connections");
    on_server.sort();
    let mut in_state = ids.clone();
    in_state.sort();
    assert_eq!(on_server, in_state);
    let id = st["outputs"]["connection_id"]["value"].as_str().unwrap();
    assert_eq!(id, ids[1]);
    let orders = api.object("connections", id).unwrap();
    assert_eq!(orders["name"], "pg-orders");
    assert_eq!(
        orders["configurations"]["streams"],
        json!([{"name": "orders", "syncMode": "full_refresh_append"}])
    );
    let r = tf(dir.path(), &["plan"], "");
    assert!(r.stdout.contains("No changes."), "{}", r.stdout);
}
