//! Sources, destinations, connections, workspaces and streams over real HTTP.

mod support;

use std::sync::Arc;

use serde_json::{Value, json};
use support::{Api, FailingExecutor, config, start};

fn server() -> eltbench_airbyte::AirbyteServer {
    start(config(Arc::new(FailingExecutor)))
}

#[test]
fn source_crud_round_trip() {
    let server = server();
    let api = Api::new(&server);
    let workspace = api.workspace_id();
    let body = json!({
        "name": "pg",
        "workspaceId": workspace,
        "definitionId": "decd338e-5647-4c0b-adf4-da0e75f5a750",
        "configuration": { "sourceType": "postgres", "host": "h", "port": 5432, "ssl_mode": { "mode": "disable" } },
    });
    let (status, created) = api.post("/sources", &body);
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["sourceType"], "postgres");
    assert_eq!(created["workspaceId"], workspace.as_str());
    assert_eq!(
        created["definitionId"],
        "decd338e-5647-4c0b-adf4-da0e75f5a750"
    );
    assert_eq!(created["configuration"]["host"], "h");
    let id = created["sourceId"].as_str().unwrap_or_default().to_owned();

    let (status, fetched) = api.get(&format!("/sources/{id}"));
    assert_eq!((status, &fetched), (200, &created));

    let patch =
        json!({ "name": "pg2", "configuration": { "port": 6543, "ssl_mode": { "ca": "x" } } });
    let (status, patched) = api.send("PATCH", &format!("/sources/{id}"), &patch);
    assert_eq!(status, 200, "{patched}");
    assert_eq!(patched["name"], "pg2");
    assert_eq!(
        patched["configuration"]["host"], "h",
        "PATCH keeps unspecified fields"
    );
    assert_eq!(patched["configuration"]["port"], 6543);
    assert_eq!(
        patched["configuration"]["ssl_mode"],
        json!({ "mode": "disable", "ca": "x" })
    );

    let put = json!({ "name": "pg3", "configuration": { "host": "other" } });
    let (status, replaced) = api.send("PUT", &format!("/sources/{id}"), &put);
    assert_eq!(status, 200, "{replaced}");
    assert_eq!(
        replaced["configuration"],
        json!({ "host": "other", "sourceType": "postgres" })
    );
    assert_eq!(replaced["sourceType"], "postgres");

    let (status, _) = api.delete(&format!("/sources/{id}"));
    assert_eq!(status, 204);
    let (status, gone) = api.get(&format!("/sources/{id}"));
    assert_eq!(status, 404);
    assert_eq!(
        gone["detail"],
        format!("Could not find a resource for: {id}")
    );
    let (status, _) = api.delete(&format!("/sources/{id}"));
    assert_eq!(status, 404, "deleting twice is a 404");
}

#[test]
fn destination_crud_round_trip() {
    let server = server();
    let api = Api::new(&server);
    let id = api.create_destination("duck");
    let (status, fetched) = api.get(&format!("/destinations/{id}"));
    assert_eq!(status, 200);
    assert_eq!(fetched["destinationType"], "duckdb");
    assert_eq!(fetched["destinationId"], id.as_str());
    assert!(fetched.get("sourceId").is_none());
    let (status, patched) = api.send(
        "PATCH",
        &format!("/destinations/{id}"),
        &json!({ "name": "renamed" }),
    );
    assert_eq!((status, patched["name"].clone()), (200, json!("renamed")));
    let put = json!({ "name": "again", "configuration": { "destinationType": "duckdb", "destination_path": "/y" } });
    let (status, replaced) = api.send("PUT", &format!("/destinations/{id}"), &put);
    assert_eq!(
        (
            status,
            replaced["configuration"]["destination_path"].clone()
        ),
        (200, json!("/y"))
    );
    let (status, _) = api.delete(&format!("/destinations/{id}"));
    assert_eq!(status, 204);
    let (_, list) = api.get("/destinations");
    assert_eq!(list["data"], json!([]));
    let (_, with_deleted) = api.get("/destinations?includeDeleted=true");
    assert_eq!(with_deleted["data"].as_array().map(Vec::len), Some(1));
}

#[test]
fn connection_crud_round_trip() {
    let server = server();
    let api = Api::new(&server);
    let source = api.create_source("pg");
    let destination = api.create_destination("duck");
    let body = json!({
        "name": "pg-to-duck",
        "sourceId": source,
        "destinationId": destination,
        "namespaceDefinition": "destination",
        "prefix": "raw_",
        "configurations": { "streams": [
            { "name": "users", "syncMode": "full_refresh_append" },
            { "name": "orders", "syncMode": "incremental_deduped_history", "cursorField": ["updated_at"], "primaryKey": [["id"]] },
        ] },
    });
    let (status, created) = api.post("/connections", &body);
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["status"], "active");
    assert_eq!(created["schedule"], json!({ "scheduleType": "manual" }));
    assert_eq!(created["dataResidency"], "auto");
    assert_eq!(created["nonBreakingSchemaUpdatesBehavior"], "ignore");
    assert_eq!(created["prefix"], "raw_");
    assert_eq!(
        created["configurations"]["streams"][1]["primaryKey"],
        json!([["id"]])
    );
    let id = created["connectionId"]
        .as_str()
        .unwrap_or_default()
        .to_owned();

    let (status, fetched) = api.get(&format!("/connections/{id}"));
    assert_eq!((status, &fetched), (200, &created));

    let patch = json!({ "status": "inactive", "schedule": { "scheduleType": "cron", "cronExpression": "0 0 * * * ?" } });
    let (status, patched) = api.send("PATCH", &format!("/connections/{id}"), &patch);
    assert_eq!(status, 200, "{patched}");
    assert_eq!(patched["status"], "inactive");
    assert_eq!(patched["schedule"]["cronExpression"], "0 0 * * * ?");
    assert_eq!(patched["prefix"], "raw_", "PATCH keeps other settings");

    let put =
        json!({ "name": "replaced", "configurations": { "streams": [{ "name": "orders" }] } });
    let (status, replaced) = api.send("PUT", &format!("/connections/{id}"), &put);
    assert_eq!(status, 200, "{replaced}");
    assert_eq!(replaced["prefix"], "", "PUT resets absent settings");
    assert_eq!(replaced["status"], "active");
    assert_eq!(
        replaced["configurations"]["streams"],
        json!([{ "name": "orders", "syncMode": "full_refresh_overwrite" }])
    );

    let (status, _) = api.delete(&format!("/connections/{id}"));
    assert_eq!(status, 204);
    assert_eq!(api.get(&format!("/connections/{id}")).0, 404);
    let (_, listed) = api.get("/connections?includeDeleted=true");
    assert_eq!(listed["data"][0]["status"], "deprecated");
}

#[test]
fn connection_without_streams_takes_every_stream() {
    let server = server();
    let api = Api::new(&server);
    let body =
        json!({ "sourceId": api.create_source("a"), "destinationId": api.create_destination("b") });
    let (status, created) = api.post("/connections", &body);
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["name"], "a → b");
    let names: Vec<&str> = created["configurations"]["streams"]
        .as_array()
        .map(|s| s.iter().filter_map(|x| x["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, vec!["orders", "users"]);
}

#[test]
fn deleting_a_source_deletes_its_connections() {
    let server = server();
    let api = Api::new(&server);
    let connection = api.create_connection();
    let (_, fetched) = api.get(&format!("/connections/{connection}"));
    let source = fetched["sourceId"].as_str().unwrap_or_default().to_owned();
    assert_eq!(api.delete(&format!("/sources/{source}")).0, 204);
    assert_eq!(api.get(&format!("/connections/{connection}")).0, 404);
}

#[test]
fn bad_bodies_are_rejected_naming_the_field() {
    let server = server();
    let api = Api::new(&server);
    let workspace = api.workspace_id();
    let cases = [
        (
            "/sources",
            json!({ "workspaceId": workspace, "configuration": {} }),
            400,
            "Missing required field: name",
        ),
        (
            "/sources",
            json!({ "name": "x", "workspaceId": workspace, "configuration": "str" }),
            400,
            "configuration: expected a JSON object",
        ),
        (
            "/sources",
            json!({ "name": "x", "workspaceId": workspace, "configuration": {} }),
            400,
            "configuration.sourceType or definitionId",
        ),
        (
            "/sources",
            json!({ "name": "x", "workspaceId": workspace, "configuration": { "sourceType": "oracle" } }),
            422,
            "Unknown sourceType \"oracle\"",
        ),
        (
            "/sources",
            json!({ "name": "x", "workspaceId": "nope", "configuration": { "sourceType": "postgres" } }),
            404,
            "Could not find a resource for: nope",
        ),
        (
            "/destinations",
            json!({ "name": "x", "workspaceId": workspace, "definitionId": "decd338e-5647-4c0b-adf4-da0e75f5a750", "configuration": {} }),
            404,
            "decd338e",
        ),
        (
            "/connections",
            json!({ "destinationId": "d" }),
            400,
            "Missing required field: sourceId",
        ),
        (
            "/connections",
            json!({ "sourceId": "s", "destinationId": "d" }),
            404,
            "Could not find a resource for: s",
        ),
        (
            "/jobs",
            json!({ "connectionId": "c", "jobType": "full" }),
            400,
            "Invalid value for field jobType: \"full\"",
        ),
        (
            "/jobs",
            json!({ "connectionId": "c", "jobType": "refresh" }),
            422,
            "Refreshes are not supported",
        ),
        (
            "/jobs",
            json!({ "jobType": "sync" }),
            400,
            "Missing required field: connectionId",
        ),
    ];
    for (path, body, status, needle) in cases {
        let (got, problem) = api.post(path, &body);
        assert_eq!(got, status, "{path} {body}: {problem}");
        let detail = problem["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(needle), "{path} {body}: {detail}");
        assert_eq!(problem["status"], status);
    }
}

#[test]
fn bad_stream_configurations_get_airbyte_messages() {
    let server = server();
    let api = Api::new(&server);
    let (source, destination) = (api.create_source("s"), api.create_destination("d"));
    let with_streams = |streams: Value| json!({ "sourceId": source, "destinationId": destination, "configurations": { "streams": streams } });
    let (status, problem) = api.post("/connections", &with_streams(json!([{ "name": "nope" }])));
    assert_eq!(status, 400);
    assert_eq!(
        problem["detail"],
        "Invalid stream found. The list of valid streams include: [orders, users]."
    );
    let (status, problem) = api.post(
        "/connections",
        &with_streams(json!([{ "name": "users", "syncMode": "append" }])),
    );
    assert_eq!(status, 400);
    assert!(
        problem["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("configurations.streams[0].syncMode"),
        "{problem}"
    );
    let (status, problem) = api.post("/connections", &json!({ "sourceId": source, "destinationId": destination, "schedule": { "scheduleType": "cron" } }));
    assert_eq!(
        (status, problem["detail"].clone()),
        (400, json!("Missing cron expression in the schedule."))
    );
}

#[test]
fn undiscoverable_source_fails_connection_creation() {
    let server = server();
    let api = Api::new(&server);
    let body = json!({
        "name": "down",
        "workspaceId": api.workspace_id(),
        "configuration": { "sourceType": "postgres", "unreachable": true },
    });
    let (_, source) = api.post("/sources", &body);
    let source_id = source["sourceId"].as_str().unwrap_or_default();
    let connection = json!({ "sourceId": source_id, "destinationId": api.create_destination("d") });
    let (status, problem) = api.post("/connections", &connection);
    assert_eq!(status, 422);
    assert!(
        problem["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("connection refused"),
        "{problem}"
    );
    let (status, _) = api.get(&format!("/streams?sourceId={source_id}"));
    assert_eq!(status, 422);
}

#[test]
fn list_pagination_links_walk_every_item() {
    let server = server();
    let api = Api::new(&server);
    let names: Vec<String> = (0..5).map(|i| format!("src-{i}")).collect();
    for name in &names {
        api.create_source(name);
    }
    let (status, first) = api.get("/sources?limit=2");
    assert_eq!(status, 200);
    assert_eq!(first["previous"], "");
    let mut seen: Vec<String> = Vec::new();
    let mut page = first;
    loop {
        for item in page["data"].as_array().cloned().unwrap_or_default() {
            seen.push(item["name"].as_str().unwrap_or_default().to_owned());
        }
        let next = page["next"].as_str().unwrap_or_default().to_owned();
        if next.is_empty() {
            break;
        }
        assert!(next.contains("limit=2"), "{next}");
        let response = api
            .raw()
            .get(&next)
            .basic_auth(support::USER, Some(support::PASSWORD))
            .send();
        page = response.and_then(|r| r.json()).unwrap_or(Value::Null);
    }
    assert_eq!(seen, names, "pages are in creation order without gaps");
    let (_, last) = api.get("/sources?limit=2&offset=4");
    assert!(
        last["previous"]
            .as_str()
            .unwrap_or_default()
            .contains("offset=2"),
        "{last}"
    );
    let (status, problem) = api.get("/sources?limit=0");
    assert_eq!(status, 400, "{problem}");
    let (status, _) = api.get(&format!("/sources?workspaceIds={}", api.workspace_id()));
    assert_eq!(status, 200);
    let (_, other) = api.get("/sources?workspaceIds=00000000-0000-0000-0000-000000000000");
    assert_eq!(other["data"], json!([]));
}

#[test]
fn workspaces_and_streams() {
    let server = server();
    let api = Api::new(&server);
    let (status, list) = api.get("/workspaces");
    assert_eq!(status, 200);
    assert_eq!(
        list["data"][0]["workspaceId"],
        eltbench_airbyte::DEFAULT_WORKSPACE_ID
    );
    let (status, _) = api.get(&format!(
        "/workspaces/{}",
        eltbench_airbyte::DEFAULT_WORKSPACE_ID
    ));
    assert_eq!(status, 200);
    assert_eq!(api.get("/workspaces/nope").0, 404);

    let source = api.create_source("s");
    let destination = api.create_destination("d");
    let (status, streams) = api.get(&format!(
        "/streams?sourceId={source}&destinationId={destination}"
    ));
    assert_eq!(status, 200, "{streams}");
    assert_eq!(streams[0]["streamName"], "orders");
    assert_eq!(streams[0]["sourceDefinedPrimaryKey"], json!([["id"]]));
    assert_eq!(streams[0]["defaultCursorField"], json!(["updated_at"]));
    assert_eq!(streams[0]["syncModes"][0], "full_refresh_overwrite");
    assert_eq!(api.get("/streams").0, 400);
    assert_eq!(api.get("/streams?sourceId=missing").0, 404);
    assert_eq!(
        api.get(&format!("/streams?sourceId={source}&destinationId=missing"))
            .0,
        404
    );
}

#[test]
fn auth_is_required_and_checked() {
    let server = server();
    let client = reqwest::blocking::Client::new();
    let url = format!("{}/sources", server.base_url());
    let none = client.get(&url).send().expect("server answers");
    assert_eq!(none.status().as_u16(), 401);
    assert!(none.headers().contains_key("www-authenticate"));
    let body: Value = none.json().unwrap_or(Value::Null);
    assert_eq!(body["title"], "invalid-api-key");
    assert_eq!(body["status"], 401);
    let wrong = client
        .get(&url)
        .basic_auth("airbyte", Some("wrong"))
        .send()
        .expect("server answers");
    assert_eq!(wrong.status().as_u16(), 401);
    let bad_token = client
        .get(&url)
        .bearer_auth("nope")
        .send()
        .expect("server answers");
    assert_eq!(bad_token.status().as_u16(), 401);
    let token = client
        .get(&url)
        .bearer_auth("secret-token")
        .send()
        .expect("server answers");
    assert_eq!(token.status().as_u16(), 200);
    let health = client
        .get(format!("{}/health", server.base_url()))
        .send()
        .expect("server answers");
    assert_eq!(health.status().as_u16(), 200, "health needs no credentials");
}

#[test]
fn both_prefixes_and_sloppy_paths_are_served() {
    let server = server();
    let client = reqwest::blocking::Client::new();
    let addr = server.addr();
    for path in [
        "/v1/workspaces",
        "/api/public/v1/workspaces",
        "/api/public/v1//workspaces/",
    ] {
        let response = client
            .get(format!("http://{addr}{path}"))
            .basic_auth("airbyte", Some("password"))
            .send();
        assert_eq!(
            response.map(|r| r.status().as_u16()).unwrap_or(0),
            200,
            "{path}"
        );
    }
    let missing = client
        .get(format!("http://{addr}/api/public/v1/nothing"))
        .basic_auth("airbyte", Some("password"))
        .send();
    let missing = missing.expect("server answers");
    assert_eq!(missing.status().as_u16(), 404);
    let body: Value = missing.json().unwrap_or(Value::Null);
    assert_eq!(body["title"], "resource-not-found");
}

#[test]
fn custom_credentials_replace_the_defaults() {
    let cfg = config(Arc::new(FailingExecutor)).with_credentials("agent", "s3cret");
    let server = start(cfg);
    let client = reqwest::blocking::Client::new();
    let url = format!("{}/workspaces", server.base_url());
    let default = client
        .get(&url)
        .basic_auth("airbyte", Some("password"))
        .send()
        .expect("answers");
    assert_eq!(default.status().as_u16(), 401);
    let custom = client
        .get(&url)
        .basic_auth("agent", Some("s3cret"))
        .send()
        .expect("answers");
    assert_eq!(custom.status().as_u16(), 200);
}
