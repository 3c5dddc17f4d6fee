//! `GET /streams?sourceId=&destinationId=`: the streams a source offers, as
//! `StreamProperties`, from the [`SourceCatalog`](crate::executor::SourceCatalog).

use axum::Json;
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::routing::get;
use serde_json::{Value, json};

use super::AppState;
use crate::definitions::ActorKind;
use crate::errors::{ApiProblem, ApiResult};
use crate::executor::StreamInfo;
use crate::requests::Query;

pub fn routes() -> Router<AppState> {
    Router::new().route("/streams", get(list))
}

async fn list(State(app): State<AppState>, RawQuery(raw): RawQuery) -> ApiResult<Json<Value>> {
    let query = Query::parse(raw.as_deref())?;
    let source_id = query
        .get("sourceId")
        .ok_or_else(|| ApiProblem::bad_request("Missing required query parameter: sourceId"))?;
    let (source, destination_known) = app.store.read(|state| {
        let source = state.live_actor(ActorKind::Source, source_id).cloned();
        let destination_known = query
            .get("destinationId")
            .is_none_or(|id| state.live_actor(ActorKind::Destination, id).is_some());
        (source, destination_known)
    });
    let source = source.ok_or_else(|| ApiProblem::not_found(source_id))?;
    if !destination_known {
        return Err(ApiProblem::not_found(
            query.get("destinationId").unwrap_or_default(),
        ));
    }
    let streams = app.config.catalog.streams(&source).await.map_err(|e| {
        ApiProblem::unprocessable(format!(
            "Could not discover the streams of source {source_id} ({}): {e}",
            source.type_name
        ))
    })?;
    Ok(Json(Value::Array(streams.iter().map(properties).collect())))
}

/// One `StreamProperties` object.
fn properties(stream: &StreamInfo) -> Value {
    let mut body = json!({
        "streamName": stream.name,
        "syncModes": stream.sync_modes,
        "defaultCursorField": stream.default_cursor_field,
        "sourceDefinedCursorField": stream.source_defined_cursor_field,
        "sourceDefinedPrimaryKey": stream.source_defined_primary_key,
        "propertyFields": stream.property_fields,
    });
    if let Some(namespace) = &stream.namespace {
        body["streamnamespace"] = json!(namespace);
    }
    body
}
