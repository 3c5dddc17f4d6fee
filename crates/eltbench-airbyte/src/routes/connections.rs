//! `/connections` and `/connections/{id}`: create, list, get, patch, put, delete.
//!
//! Creating a connection asks the [`SourceCatalog`](crate::executor::SourceCatalog) for
//! the source's streams (Airbyte runs `discover` at this point) and checks the stream
//! configuration against them. Deleting marks the connection `deprecated` and cancels
//! its jobs. Stream validation itself lives in `catalog.rs`.

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use serde_json::{Map, Value};

use super::{AppState, ListRequest};
use crate::catalog;
use crate::definitions::ActorKind;
use crate::enums::{
    ConnectionStatus, DataResidency, NamespaceDefinition, NonBreakingBehavior, ScheduleType,
};
use crate::errors::{ApiProblem, ApiResult};
use crate::jobs;
use crate::model::{Actor, ConfiguredStream, Connection, Schedule, StreamConfig};
use crate::requests::{Fields, parse_object};
use crate::timefmt::now;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/connections", get(list).post(create))
        .route(
            "/connections/{id}",
            get(get_one)
                .patch(|state, id, body| update(false, state, id, body))
                .put(|state, id, body| update(true, state, id, body))
                .delete(delete),
        )
}

/// The optional settings of a connection body (everything but the two ends).
struct Settings {
    name: Option<String>,
    status: Option<ConnectionStatus>,
    schedule: Option<Schedule>,
    data_residency: Option<DataResidency>,
    non_breaking: Option<NonBreakingBehavior>,
    namespace_definition: Option<NamespaceDefinition>,
    namespace_format: Option<String>,
    prefix: Option<String>,
    streams: Option<Vec<StreamConfig>>,
    has_configurations: bool,
}

fn parse_settings(fields: &Fields<'_>) -> ApiResult<Settings> {
    let configurations = fields.optional_object("configurations")?;
    Ok(Settings {
        name: fields.optional_str("name")?,
        status: fields.optional_enum("status")?,
        schedule: fields
            .optional_object("schedule")?
            .map(parse_schedule)
            .transpose()?,
        data_residency: fields.optional_enum("dataResidency")?,
        non_breaking: fields.optional_enum("nonBreakingSchemaUpdatesBehavior")?,
        namespace_definition: fields.optional_enum("namespaceDefinition")?,
        namespace_format: fields.optional_str("namespaceFormat")?,
        prefix: fields.optional_str("prefix")?,
        streams: catalog::parse(configurations)?,
        has_configurations: configurations.is_some(),
    })
}

fn parse_schedule(map: &Map<String, Value>) -> ApiResult<Schedule> {
    let fields = Fields::nested(map, "schedule");
    let schedule_type = fields
        .optional_enum::<ScheduleType>("scheduleType")?
        .ok_or_else(|| ApiProblem::bad_request("Missing required field: schedule.scheduleType"))?;
    let cron_expression = fields.optional_str("cronExpression")?;
    if schedule_type == ScheduleType::Cron && cron_expression.is_none() {
        return Err(ApiProblem::bad_request(
            "Missing cron expression in the schedule.",
        ));
    }
    Ok(Schedule {
        schedule_type,
        cron_expression,
    })
}

fn manual() -> Schedule {
    Schedule {
        schedule_type: ScheduleType::Manual,
        cron_expression: None,
    }
}

/// Writes `settings` into `c`; with `reset`, absent settings take their defaults.
fn apply(c: &mut Connection, s: Settings, reset: bool) {
    fn pick<T>(given: Option<T>, current: &mut T, default: impl FnOnce() -> T, reset: bool) {
        match given {
            Some(value) => *current = value,
            None if reset => *current = default(),
            None => {}
        }
    }
    let default_name = c.name.clone();
    pick(s.name, &mut c.name, || default_name, reset);
    pick(s.status, &mut c.status, || ConnectionStatus::Active, reset);
    pick(s.schedule, &mut c.schedule, manual, reset);
    pick(
        s.data_residency,
        &mut c.data_residency,
        || DataResidency::Auto,
        reset,
    );
    pick(
        s.non_breaking,
        &mut c.non_breaking_schema_updates_behavior,
        || NonBreakingBehavior::Ignore,
        reset,
    );
    pick(
        s.namespace_definition,
        &mut c.namespace_definition,
        || NamespaceDefinition::Destination,
        reset,
    );
    pick(
        s.namespace_format.map(Some),
        &mut c.namespace_format,
        || None,
        reset,
    );
    pick(s.prefix, &mut c.prefix, String::new, reset);
}

/// Discovers the source's streams and resolves the requested configuration.
async fn resolve_streams(
    app: &AppState,
    source: &Actor,
    requested: Option<Vec<StreamConfig>>,
) -> ApiResult<(Vec<StreamConfig>, Vec<ConfiguredStream>)> {
    let offered = app.config.catalog.streams(source).await.map_err(|e| {
        ApiProblem::unprocessable(format!(
            "Could not discover the streams of source {} ({}): {e}",
            source.id, source.type_name
        ))
    })?;
    catalog::resolve(requested, &offered)
}

fn live_ends(app: &AppState, source_id: &str, destination_id: &str) -> ApiResult<(Actor, Actor)> {
    app.store.read(|state| {
        let source = state.live_actor(ActorKind::Source, source_id).cloned();
        let destination = state
            .live_actor(ActorKind::Destination, destination_id)
            .cloned();
        let source = source.ok_or_else(|| ApiProblem::not_found(source_id))?;
        let destination = destination.ok_or_else(|| ApiProblem::not_found(destination_id))?;
        Ok((source, destination))
    })
}

async fn create(State(app): State<AppState>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = parse_object(&body)?;
    let fields = Fields::new(&map);
    let source_id = fields.required_str("sourceId")?;
    let destination_id = fields.required_str("destinationId")?;
    let mut settings = parse_settings(&fields)?;
    let (source, destination) = live_ends(&app, &source_id, &destination_id)?;
    let (streams, configured_streams) =
        resolve_streams(&app, &source, settings.streams.take()).await?;
    let mut connection = Connection {
        id: uuid::Uuid::new_v4().to_string(),
        name: format!("{} → {}", source.name, destination.name),
        source_id: source.id,
        destination_id: destination.id,
        workspace_id: source.workspace_id,
        status: ConnectionStatus::Active,
        schedule: manual(),
        data_residency: DataResidency::Auto,
        non_breaking_schema_updates_behavior: NonBreakingBehavior::Ignore,
        namespace_definition: NamespaceDefinition::Destination,
        namespace_format: None,
        prefix: String::new(),
        streams,
        configured_streams,
        created_at: now(),
        seq: 0,
        deleted: false,
    };
    apply(&mut connection, settings, false);
    let connection = app.store.write(|state| {
        live_check(state, &connection)?;
        connection.seq = state.take_seq();
        state
            .connections
            .insert(connection.id.clone(), connection.clone());
        Ok::<_, ApiProblem>(connection)
    })?;
    Ok(Json(connection.response()))
}

/// The ends may have been deleted while the catalog was being read.
fn live_check(state: &crate::store::State, c: &Connection) -> ApiResult<()> {
    if state.live_actor(ActorKind::Source, &c.source_id).is_none() {
        return Err(ApiProblem::not_found(&c.source_id));
    }
    if state
        .live_actor(ActorKind::Destination, &c.destination_id)
        .is_none()
    {
        return Err(ApiProblem::not_found(&c.destination_id));
    }
    Ok(())
}

async fn list(State(app): State<AppState>, request: ListRequest) -> ApiResult<Json<Value>> {
    let page = request.page()?;
    let include_deleted = request.query.bool("includeDeleted", false)?;
    let workspaces = request.query.list("workspaceIds");
    let items = app.store.read(|state| {
        let mut connections: Vec<&Connection> = state
            .connections
            .values()
            .filter(|c| include_deleted || !c.deleted)
            .filter(|c| {
                workspaces.is_empty()
                    || workspaces
                        .iter()
                        .any(|w| w.eq_ignore_ascii_case(&c.workspace_id))
            })
            .collect();
        connections.sort_by_key(|c| c.seq);
        connections.into_iter().map(Connection::response).collect()
    });
    Ok(request.respond(items, page))
}

async fn get_one(State(app): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    app.store
        .read(|state| state.live_connection(&id).map(Connection::response))
        .map(Json)
        .ok_or_else(|| ApiProblem::not_found(&id))
}

/// PATCH changes the given settings; PUT resets absent ones to their defaults.
async fn update(
    replace: bool,
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let map = parse_object(&body)?;
    let fields = Fields::new(&map);
    let mut settings = parse_settings(&fields)?;
    let current = app
        .store
        .read(|state| state.live_connection(&id).cloned())
        .ok_or_else(|| ApiProblem::not_found(&id))?;
    check_ends_unchanged(&fields, &current)?;
    let streams = if settings.has_configurations || replace {
        let (source, _) = live_ends(&app, &current.source_id, &current.destination_id)?;
        Some(resolve_streams(&app, &source, settings.streams.take()).await?)
    } else {
        None
    };
    let connection = app.store.write(|state| {
        let connection = state
            .connections
            .get_mut(&id)
            .filter(|c| !c.deleted)
            .ok_or_else(|| ApiProblem::not_found(&id))?;
        apply(connection, settings, replace);
        if let Some((echo, resolved)) = streams {
            connection.streams = echo;
            connection.configured_streams = resolved;
        }
        Ok::<_, ApiProblem>(connection.clone())
    })?;
    Ok(Json(connection.response()))
}

fn check_ends_unchanged(fields: &Fields<'_>, current: &Connection) -> ApiResult<()> {
    for (field, value) in [
        ("sourceId", &current.source_id),
        ("destinationId", &current.destination_id),
    ] {
        if let Some(given) = fields.optional_str(field)?
            && !given.eq_ignore_ascii_case(value)
        {
            return Err(ApiProblem::unprocessable(format!(
                "{field} of a connection cannot be changed; create a new connection instead"
            )));
        }
    }
    Ok(())
}

async fn delete(State(app): State<AppState>, Path(id): Path<String>) -> ApiResult<StatusCode> {
    let cancelled = app.store.write(|state| {
        let connection = state
            .connections
            .get_mut(&id)
            .filter(|c| !c.deleted)
            .ok_or_else(|| ApiProblem::not_found(&id))?;
        connection.deleted = true;
        connection.status = ConnectionStatus::Deprecated;
        Ok::<_, ApiProblem>(jobs::cancel_where(
            state,
            |c| c == id,
            "Job was cancelled because its connection was deleted",
        ))
    })?;
    for job_id in cancelled {
        app.store.cancel_token(job_id);
    }
    Ok(StatusCode::NO_CONTENT)
}
