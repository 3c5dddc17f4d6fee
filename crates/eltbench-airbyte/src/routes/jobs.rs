//! `/jobs` and `/jobs/{id}`: trigger a sync or reset, list and filter jobs, get one,
//! cancel one. The lifecycle itself lives in `crate::jobs`.

use std::cmp::Ordering;

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::routing::get;
use serde_json::Value;

use super::{AppState, ListRequest};
use crate::enums::{JobStatus, JobType};
use crate::errors::{ApiProblem, ApiResult};
use crate::jobs;
use crate::model::Job;
use crate::requests::{Fields, invalid_enum, parse_object};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/jobs", get(list).post(create))
        .route("/jobs/{id}", get(get_one).delete(cancel))
}

async fn create(State(app): State<AppState>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = parse_object(&body)?;
    let fields = Fields::new(&map);
    let connection_id = fields.required_str("connectionId")?;
    let raw_type = fields.required_str("jobType")?;
    let job_type = match JobType::parse(&raw_type) {
        Some(JobType::Refresh) => {
            return Err(ApiProblem::unprocessable(
                "Refreshes are not supported in the public API",
            ));
        }
        Some(JobType::Clear | JobType::Reset) => JobType::Reset,
        Some(JobType::Sync) => JobType::Sync,
        None => return Err(invalid_enum("jobType", &raw_type, JobType::ALL)),
    };
    let (job, context) = jobs::create(&app.store, &connection_id, job_type)?;
    let executor = app.config.executor.clone();
    jobs::spawn(
        app.store.clone(),
        executor,
        context,
        app.config.job_start_delay,
    );
    Ok(Json(job.response()))
}

/// `orderBy=<createdAt|updatedAt>|<ASC|DESC>`; default `createdAt|ASC`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Order {
    by_updated: bool,
    descending: bool,
}

fn parse_order(raw: Option<&str>) -> ApiResult<Order> {
    let Some(raw) = raw else {
        return Ok(Order {
            by_updated: false,
            descending: false,
        });
    };
    let invalid = || ApiProblem::bad_request(format!("Invalid order by clause provided: {raw}"));
    let (field, method) = raw.split_once('|').ok_or_else(invalid)?;
    let by_updated = match field {
        "createdAt" => false,
        "updatedAt" => true,
        _ => return Err(invalid()),
    };
    let descending = match method {
        "ASC" => false,
        "DESC" => true,
        _ => return Err(invalid()),
    };
    Ok(Order {
        by_updated,
        descending,
    })
}

fn compare(order: Order, a: &Job, b: &Job) -> Ordering {
    let key = |j: &Job| {
        (
            if order.by_updated {
                j.updated_at
            } else {
                j.created_at
            },
            j.id,
        )
    };
    let ordering = key(a).cmp(&key(b));
    if order.descending {
        ordering.reverse()
    } else {
        ordering
    }
}

async fn list(State(app): State<AppState>, request: ListRequest) -> ApiResult<Json<Value>> {
    let page = request.page()?;
    let query = &request.query;
    let connection_id = query.get("connectionId").map(str::to_owned);
    let status = query.enum_value::<JobStatus>("status")?;
    let job_type = query.enum_value::<JobType>("jobType")?;
    let order = parse_order(query.get("orderBy"))?;
    let workspaces = query.list("workspaceIds");
    let items = app.store.read(|state| {
        if let Some(id) = &connection_id
            && !state.connections.contains_key(id)
        {
            return Err(ApiProblem::not_found(id));
        }
        let mut matching: Vec<&Job> = state
            .jobs
            .values()
            .filter(|j| connection_id.as_ref().is_none_or(|c| *c == j.connection_id))
            .filter(|j| status.is_none_or(|s| s == j.status))
            .filter(|j| job_type.is_none_or(|t| t == j.job_type))
            .filter(|j| {
                workspaces.is_empty()
                    || workspaces
                        .iter()
                        .any(|w| w.eq_ignore_ascii_case(&j.workspace_id))
            })
            .collect();
        matching.sort_by(|a, b| compare(order, a, b));
        Ok(matching.into_iter().map(Job::response).collect())
    })?;
    Ok(request.respond(items, page))
}

fn job_id(raw: &str) -> ApiResult<i64> {
    raw.parse().map_err(|_| {
        ApiProblem::bad_request(format!(
            "Invalid value for path parameter jobId: \"{raw}\". Must be an integer"
        ))
    })
}

async fn get_one(State(app): State<AppState>, Path(raw): Path<String>) -> ApiResult<Json<Value>> {
    let id = job_id(&raw)?;
    app.store
        .read(|state| state.jobs.get(&id).map(Job::response))
        .map(Json)
        .ok_or_else(|| ApiProblem::not_found(&raw))
}

async fn cancel(State(app): State<AppState>, Path(raw): Path<String>) -> ApiResult<Json<Value>> {
    let job = jobs::cancel(&app.store, job_id(&raw)?)?;
    Ok(Json(job.response()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_by_follows_airbyte_syntax() {
        assert_eq!(
            parse_order(None),
            Ok(Order {
                by_updated: false,
                descending: false
            })
        );
        assert_eq!(
            parse_order(Some("updatedAt|DESC")),
            Ok(Order {
                by_updated: true,
                descending: true
            })
        );
        let err = parse_order(Some("createdAt|desc")).unwrap_err();
        assert_eq!(
            err.detail,
            "Invalid order by clause provided: createdAt|desc"
        );
        assert!(parse_order(Some("jobId|ASC")).is_err());
    }
}
