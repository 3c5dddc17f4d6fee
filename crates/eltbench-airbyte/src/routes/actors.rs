//! Sources and destinations share one shape ("actors" in Airbyte's own code): create,
//! list, get, patch, put, delete. `sources.rs` and `destinations.rs` bind these to
//! their paths with the kind fixed.
//!
//! The type comes from the configuration's `sourceType`/`destinationType` or from the
//! `definitionId`; it never changes after creation. Deleting an actor deletes its
//! connections and cancels their jobs, as Airbyte does.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Map, Value};

use super::{AppState, ListRequest};
use crate::definitions::{ActorKind, Definitions};
use crate::enums::ConnectionStatus;
use crate::errors::{ApiProblem, ApiResult};
use crate::jobs;
use crate::model::Actor;
use crate::requests::{Fields, parse_object};
use crate::store::State as Data;
use crate::timefmt::now;

pub async fn create(
    kind: ActorKind,
    State(app): State<AppState>,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let map = parse_object(&body)?;
    let fields = Fields::new(&map);
    let name = fields.required_name("name")?;
    let workspace_id = fields.required_str("workspaceId")?;
    let configuration = fields.required_object("configuration")?.clone();
    let definition_id = fields.optional_str("definitionId")?;
    let secret_id = fields.optional_str("secretId")?;
    let (type_name, definition_id) = resolve_type(
        &app.config.definitions,
        kind,
        definition_id.as_deref(),
        &configuration,
    )?;
    let actor = app.store.write(|state| {
        check_workspace(state, &workspace_id)?;
        let actor = Actor {
            id: uuid::Uuid::new_v4().to_string(),
            kind,
            name,
            workspace_id,
            type_name,
            definition_id: Some(definition_id),
            configuration: Value::Object(configuration),
            secret_id,
            created_at: now(),
            seq: state.take_seq(),
            deleted: false,
        };
        state
            .actors_mut(kind)
            .insert(actor.id.clone(), actor.clone());
        Ok::<_, ApiProblem>(actor)
    })?;
    Ok(Json(actor.response()))
}

/// `(type name, definition id)` from `definitionId` and/or the configuration's type field.
fn resolve_type(
    definitions: &Definitions,
    kind: ActorKind,
    definition_id: Option<&str>,
    configuration: &Map<String, Value>,
) -> ApiResult<(String, String)> {
    let field = kind.type_field();
    let configured = match configuration.get(field) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => {
            return Err(ApiProblem::bad_request(format!(
                "Invalid value for field configuration.{field}: expected a string"
            )));
        }
    };
    let by_id = match definition_id {
        Some(id) => Some(
            definitions
                .by_id(kind, id)
                .ok_or_else(|| ApiProblem::not_found(id))?,
        ),
        None => None,
    };
    match (by_id, configured) {
        (Some(def), Some(name)) if def.type_name != name => {
            Err(ApiProblem::unprocessable(format!(
                "definitionId {} is the {} {} but configuration.{field} is \"{name}\"",
                def.id,
                def.type_name,
                kind.noun()
            )))
        }
        (Some(def), _) => Ok((def.type_name.clone(), def.id.clone())),
        (None, Some(name)) => definitions
            .by_type(kind, name)
            .map(|def| (def.type_name.clone(), def.id.clone()))
            .ok_or_else(|| {
                let known = definitions.type_names(kind).join(", ");
                ApiProblem::unprocessable(format!(
                    "Unknown {field} \"{name}\". Known {} types: [{known}]",
                    kind.noun()
                ))
            }),
        (None, None) => Err(ApiProblem::bad_request(format!(
            "One of configuration.{field} or definitionId must be provided"
        ))),
    }
}

fn check_workspace(state: &Data, workspace_id: &str) -> ApiResult<()> {
    if state
        .workspace
        .workspace_id
        .eq_ignore_ascii_case(workspace_id)
    {
        Ok(())
    } else {
        Err(ApiProblem::not_found(workspace_id))
    }
}

pub async fn list(
    kind: ActorKind,
    State(app): State<AppState>,
    request: ListRequest,
) -> ApiResult<Json<Value>> {
    let page = request.page()?;
    let include_deleted = request.query.bool("includeDeleted", false)?;
    let workspaces = request.query.list("workspaceIds");
    let items = app.store.read(|state| {
        let mut actors: Vec<&Actor> = state
            .actors(kind)
            .values()
            .filter(|a| include_deleted || !a.deleted)
            .filter(|a| {
                workspaces.is_empty()
                    || workspaces
                        .iter()
                        .any(|w| w.eq_ignore_ascii_case(&a.workspace_id))
            })
            .collect();
        actors.sort_by_key(|a| a.seq);
        actors.into_iter().map(Actor::response).collect()
    });
    Ok(request.respond(items, page))
}

pub async fn get_one(
    kind: ActorKind,
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    app.store
        .read(|state| state.live_actor(kind, &id).map(Actor::response))
        .map(Json)
        .ok_or_else(|| ApiProblem::not_found(&id))
}

/// PATCH merges the configuration into the stored one; PUT replaces it.
pub async fn update(
    kind: ActorKind,
    replace: bool,
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let map = parse_object(&body)?;
    let fields = Fields::new(&map);
    let name = if replace {
        Some(fields.required_name("name")?)
    } else {
        fields.optional_str("name")?
    };
    let configuration = if replace {
        Some(fields.required_object("configuration")?)
    } else {
        fields.optional_object("configuration")?
    };
    let secret_id = fields.optional_str("secretId")?;
    let actor = app.store.write(|state| {
        let actor = state
            .actors_mut(kind)
            .get_mut(&id)
            .filter(|a| !a.deleted)
            .ok_or_else(|| ApiProblem::not_found(&id))?;
        if let Some(config) = configuration {
            check_type_unchanged(actor, config)?;
            actor.configuration = if replace {
                with_type(Value::Object(config.clone()), actor)
            } else {
                merged(&actor.configuration, config)
            };
        }
        if let Some(name) = name {
            actor.name = name;
        }
        if secret_id.is_some() {
            actor.secret_id = secret_id;
        }
        Ok::<_, ApiProblem>(actor.clone())
    })?;
    Ok(Json(actor.response()))
}

fn check_type_unchanged(actor: &Actor, config: &Map<String, Value>) -> ApiResult<()> {
    let field = actor.kind.type_field();
    match config.get(field).and_then(Value::as_str) {
        Some(name) if name != actor.type_name => Err(ApiProblem::unprocessable(format!(
            "configuration.{field} cannot change from \"{}\" to \"{name}\"; create a new {} instead",
            actor.type_name,
            actor.kind.noun()
        ))),
        _ => Ok(()),
    }
}

/// Keeps the type field of a replaced configuration when the caller left it out.
fn with_type(mut config: Value, actor: &Actor) -> Value {
    let had_type = actor.configuration.get(actor.kind.type_field()).is_some();
    if let (true, Some(map)) = (had_type, config.as_object_mut()) {
        map.entry(actor.kind.type_field())
            .or_insert_with(|| Value::String(actor.type_name.clone()));
    }
    config
}

/// Deep merge: objects merge key by key, anything else is replaced.
fn merged(base: &Value, patch: &Map<String, Value>) -> Value {
    let mut out = base.as_object().cloned().unwrap_or_default();
    for (key, value) in patch {
        let next = match (out.get(key), value) {
            (Some(old @ Value::Object(_)), Value::Object(inner)) => merged(old, inner),
            _ => value.clone(),
        };
        out.insert(key.clone(), next);
    }
    Value::Object(out)
}

pub async fn delete(
    kind: ActorKind,
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let cancelled = app.store.write(|state| {
        let actor = state
            .actors_mut(kind)
            .get_mut(&id)
            .filter(|a| !a.deleted)
            .ok_or_else(|| ApiProblem::not_found(&id))?;
        actor.deleted = true;
        let uses_actor = |c: &crate::model::Connection| match kind {
            ActorKind::Source => c.source_id == id,
            ActorKind::Destination => c.destination_id == id,
        };
        let mut removed = Vec::new();
        for connection in state
            .connections
            .values_mut()
            .filter(|c| !c.deleted && uses_actor(c))
        {
            connection.deleted = true;
            connection.status = ConnectionStatus::Deprecated;
            removed.push(connection.id.clone());
        }
        let reason = format!("Job was cancelled because its {} was deleted", kind.noun());
        Ok::<_, ApiProblem>(jobs::cancel_where(
            state,
            |c| removed.iter().any(|r| r == c),
            &reason,
        ))
    })?;
    for job_id in cancelled {
        app.store.cancel_token(job_id);
    }
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn type_comes_from_configuration_or_definition() {
        let defs = Definitions::default();
        let config = json!({ "sourceType": "postgres" })
            .as_object()
            .cloned()
            .unwrap_or_default();
        let (t, d) = resolve_type(&defs, ActorKind::Source, None, &config).unwrap();
        assert_eq!(
            (t.as_str(), d.as_str()),
            ("postgres", "decd338e-5647-4c0b-adf4-da0e75f5a750")
        );
        let empty = Map::new();
        let (t, _) = resolve_type(
            &defs,
            ActorKind::Source,
            Some("69589781-7828-43c5-9f63-8925b1c1ccc2"),
            &empty,
        )
        .unwrap();
        assert_eq!(t, "s3");
    }

    #[test]
    fn conflicting_or_missing_types_are_rejected() {
        let defs = Definitions::default();
        let config = json!({ "sourceType": "s3" })
            .as_object()
            .cloned()
            .unwrap_or_default();
        let err = resolve_type(
            &defs,
            ActorKind::Source,
            Some("decd338e-5647-4c0b-adf4-da0e75f5a750"),
            &config,
        );
        assert_eq!(
            err.map_err(|e| e.status),
            Err(StatusCode::UNPROCESSABLE_ENTITY)
        );
        let err = resolve_type(&defs, ActorKind::Destination, None, &Map::new()).unwrap_err();
        assert!(
            err.detail
                .contains("configuration.destinationType or definitionId"),
            "{}",
            err.detail
        );
        let config = json!({ "sourceType": "oracle" })
            .as_object()
            .cloned()
            .unwrap_or_default();
        let err = resolve_type(&defs, ActorKind::Source, None, &config).unwrap_err();
        assert!(
            err.detail
                .contains("[custom-api, file, mongodb-v2, postgres, s3]"),
            "{}",
            err.detail
        );
    }

    #[test]
    fn patch_merges_nested_objects() {
        let base = json!({ "host": "a", "ssl": { "mode": "x", "cert": "c" } });
        let patch = json!({ "ssl": { "mode": "y" }, "port": 1 })
            .as_object()
            .cloned()
            .unwrap_or_default();
        assert_eq!(
            merged(&base, &patch),
            json!({ "host": "a", "ssl": { "mode": "y", "cert": "c" }, "port": 1 })
        );
    }
}
