//! The custom REST API source end to end: discovery (declared and inferred schemas),
//! incremental append, deduped history, and typecast errors in `_airbyte_meta`.

mod sync_common;

use eltbench_airbyte::CUSTOM_API_DEFINITION_ID;
use serde_json::{Value, json};
use sync_common::{Env, HttpFixture, Reply, count, query};

fn records(value: Value) -> Reply {
    Reply::Body(value.to_string().into_bytes())
}

fn rest_source(env: &Env, http: &HttpFixture, streams: Value) -> String {
    env.source(
        json!({"base_url": http.url(""), "database": "shop", "streams": streams}),
        Some(CUSTOM_API_DEFINITION_ID),
    )
}

#[test]
fn streams_are_discovered_with_declared_or_inferred_schemas() {
    let http = HttpFixture::start();
    http.set("/shop/customers", records(json!([{"id": 1, "name": "a"}])));
    let env = Env::start();
    let declared = json!({"properties": {"id": {"type": ["null", "number"]}}});
    let source = rest_source(
        &env,
        &http,
        json!([{"name": "orders", "json_schema": declared}, "customers"]),
    );
    let (status, body) = env.get(&format!("/streams?sourceId={source}"));
    assert_eq!(status, 200, "{body}");
    let fields: Vec<String> = body
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            format!(
                "{}:{}",
                s["streamName"].as_str().unwrap_or_default(),
                s["propertyFields"]
            )
        })
        .collect();
    assert_eq!(
        fields,
        ["customers:[[\"id\"],[\"name\"]]", "orders:[[\"id\"]]"]
    );
}

#[test]
fn incremental_append_picks_up_only_new_rows() {
    let http = HttpFixture::start();
    let row = |i: i64| json!({"id": i, "amount": i as f64 * 1.5});
    http.set("/shop/orders", records(json!([row(1), row(2), row(3)])));
    let env = Env::start();
    let db = env.db_path("shop");
    let schema = json!({"properties": {"id": {"type": "integer"}, "amount": {"type": "number"}}});
    let source = rest_source(
        &env,
        &http,
        json!([{"name": "orders", "json_schema": schema}]),
    );
    let dest = env.destination(&db, "airbyte_schema");
    let streams =
        json!([{"name": "orders", "syncMode": "incremental_append", "cursorField": ["id"]}]);
    let conn = env.connection(&source, &dest, streams, json!({}));

    assert_eq!(env.sync_ok(&conn), 3);
    http.set(
        "/shop/orders",
        records(json!([row(1), row(2), row(3), row(4), row(5)])),
    );
    assert_eq!(env.sync_ok(&conn), 2, "only ids 4 and 5 are new");
    assert_eq!(env.sync_ok(&conn), 0, "nothing new");
    let ids = query(
        &db,
        "SELECT string_agg(CAST(id AS VARCHAR), ',' ORDER BY id) FROM airbyte_schema.orders",
    );
    assert_eq!(ids[0][0], "1,2,3,4,5");
}

#[test]
fn deduped_history_keeps_the_newest_row_per_key() {
    let http = HttpFixture::start();
    let row = |id: i64, name: &str, at: &str| json!({"id": id, "name": name, "updated_at": at});
    http.set(
        "/shop/people",
        records(json!([
            row(1, "a", "2024-01-01T00:00:00Z"),
            row(2, "b", "2024-01-01T00:00:00Z")
        ])),
    );
    let env = Env::start();
    let db = env.db_path("people");
    let schema = json!({"properties": {
        "id": {"type": "integer"}, "name": {"type": "string"},
        "updated_at": {"type": "string", "format": "date-time", "airbyte_type": "timestamp_with_timezone"}
    }});
    let source = rest_source(
        &env,
        &http,
        json!([{"name": "people", "json_schema": schema}]),
    );
    let dest = env.destination(&db, "main");
    let streams = json!([{"name": "people", "syncMode": "incremental_deduped_history",
                          "cursorField": ["updated_at"], "primaryKey": [["id"]]}]);
    let conn = env.connection(&source, &dest, streams, json!({}));
    assert_eq!(env.sync_ok(&conn), 2);
    http.set(
        "/shop/people",
        records(json!([
            row(1, "a2", "2024-02-01T00:00:00Z"),
            row(2, "b", "2024-01-01T00:00:00Z"),
            row(3, "c", "2024-02-01T00:00:00Z"),
        ])),
    );
    assert_eq!(
        env.sync_ok(&conn),
        2,
        "the unchanged row 2 is not read again"
    );
    let rows = query(
        &db,
        "SELECT CAST(id AS VARCHAR), name FROM main.people ORDER BY id",
    );
    assert_eq!(rows, [["1", "a2"], ["2", "b"], ["3", "c"]]);
}

#[test]
fn values_that_do_not_cast_are_nulled_and_recorded() {
    let http = HttpFixture::start();
    http.set(
        "/shop/items",
        records(json!([{"id": 1, "qty": 2}, {"id": "abc", "qty": 3}])),
    );
    let env = Env::start();
    let db = env.db_path("items");
    let schema = json!({"properties": {"id": {"type": "integer"}, "qty": {"type": "integer"}}});
    let source = rest_source(
        &env,
        &http,
        json!([{"name": "items", "json_schema": schema}]),
    );
    let dest = env.destination(&db, "main");
    let conn = env.connection(
        &source,
        &dest,
        json!([{"name": "items", "syncMode": "full_refresh_overwrite"}]),
        json!({}),
    );
    assert_eq!(env.sync_ok(&conn), 2);
    assert_eq!(count(&db, "main.items"), 2);
    let rows = query(
        &db,
        "SELECT CAST(id AS VARCHAR), CAST(_airbyte_meta->'changes' AS VARCHAR) FROM items ORDER BY qty",
    );
    assert_eq!(rows[0], ["1", "[]"]);
    assert_eq!(rows[1][0], "NULL");
    assert_eq!(
        rows[1][1],
        r#"[{"field":"id","change":"NULLED","reason":"DESTINATION_TYPECAST_ERROR"}]"#
    );
    let sync_id = query(
        &db,
        "SELECT DISTINCT CAST(_airbyte_meta->>'sync_id' AS VARCHAR) FROM items",
    );
    assert_eq!(sync_id.len(), 1);
}
