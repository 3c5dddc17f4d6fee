//! The stored resources (workspace, sources, destinations, connections, jobs) and
//! their JSON as the public API returns it.
//!
//! Stored records serialize (camelCase) into `state.json`; `response()` methods give
//! the exact field names of the provider's `SourceResponse`, `DestinationResponse`,
//! `ConnectionResponse`, `JobResponse`. Validation of input lives in `requests`; this
//! module must never accept or reject anything.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::definitions::ActorKind;
use crate::enums::{
    ConnectionStatus, DataResidency, JobStatus, JobType, NamespaceDefinition, NonBreakingBehavior,
    ScheduleType, SyncMode,
};
use crate::executor::{StreamStats, SyncFailure};
use crate::timefmt::{iso_duration, rfc3339};

/// The one workspace of a server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Workspace {
    pub workspace_id: String,
    pub name: String,
    pub data_residency: DataResidency,
}

impl Workspace {
    pub fn response(&self) -> Value {
        json!({
            "workspaceId": self.workspace_id,
            "name": self.name,
            "dataResidency": self.data_residency,
        })
    }
}

/// A source or a destination ("actor" in Airbyte's own code).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Actor {
    pub id: String,
    pub kind: ActorKind,
    pub name: String,
    pub workspace_id: String,
    /// `sourceType` / `destinationType`.
    pub type_name: String,
    pub definition_id: Option<String>,
    pub configuration: Value,
    pub secret_id: Option<String>,
    pub created_at: i64,
    /// Creation order within the server (lists are returned in this order).
    pub seq: u64,
    pub deleted: bool,
}

impl Actor {
    /// `SourceResponse` or `DestinationResponse`.
    pub fn response(&self) -> Value {
        let mut body = serde_json::Map::new();
        body.insert(self.kind.id_field().to_owned(), json!(self.id));
        body.insert("name".to_owned(), json!(self.name));
        body.insert(self.kind.type_field().to_owned(), json!(self.type_name));
        body.insert("workspaceId".to_owned(), json!(self.workspace_id));
        body.insert("configuration".to_owned(), self.configuration.clone());
        if let Some(definition_id) = &self.definition_id {
            body.insert("definitionId".to_owned(), json!(definition_id));
        }
        body.insert("createdAt".to_owned(), json!(self.created_at));
        Value::Object(body)
    }
}

/// A connection's schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Schedule {
    pub schedule_type: ScheduleType,
    pub cron_expression: Option<String>,
}

impl Schedule {
    fn response(&self) -> Value {
        let mut body = json!({ "scheduleType": self.schedule_type });
        if let Some(cron) = &self.cron_expression {
            body["cronExpression"] = json!(cron);
        }
        body
    }
}

/// One stream as the caller configured it (echoed back in `configurations.streams`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamConfig {
    pub name: String,
    pub sync_mode: SyncMode,
    pub cursor_field: Option<Vec<String>>,
    pub primary_key: Option<Vec<Vec<String>>>,
    /// Top-level field names of `selectedFields[].fieldPath`.
    pub selected_fields: Option<Vec<String>>,
}

impl StreamConfig {
    fn response(&self) -> Value {
        let mut body = json!({ "name": self.name, "syncMode": self.sync_mode });
        if let Some(cursor) = &self.cursor_field {
            body["cursorField"] = json!(cursor);
        }
        if let Some(key) = &self.primary_key {
            body["primaryKey"] = json!(key);
        }
        if let Some(fields) = &self.selected_fields {
            let paths: Vec<Value> = fields.iter().map(|f| json!({ "fieldPath": [f] })).collect();
            body["selectedFields"] = Value::Array(paths);
        }
        body
    }
}

/// One stream with every default resolved, as the executor gets it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfiguredStream {
    pub name: String,
    pub namespace: Option<String>,
    pub sync_mode: SyncMode,
    pub cursor_field: Vec<String>,
    pub primary_key: Vec<Vec<String>>,
    /// `None`: all fields.
    pub selected_fields: Option<Vec<String>>,
}

/// A connection from a source to a destination.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Connection {
    pub id: String,
    pub name: String,
    pub source_id: String,
    pub destination_id: String,
    pub workspace_id: String,
    pub status: ConnectionStatus,
    pub schedule: Schedule,
    pub data_residency: DataResidency,
    pub non_breaking_schema_updates_behavior: NonBreakingBehavior,
    pub namespace_definition: NamespaceDefinition,
    pub namespace_format: Option<String>,
    pub prefix: String,
    pub streams: Vec<StreamConfig>,
    pub configured_streams: Vec<ConfiguredStream>,
    pub created_at: i64,
    /// Creation order within the server (lists are returned in this order).
    pub seq: u64,
    pub deleted: bool,
}

impl Connection {
    /// `ConnectionResponse`.
    pub fn response(&self) -> Value {
        let streams: Vec<Value> = self.streams.iter().map(StreamConfig::response).collect();
        let mut body = json!({
            "connectionId": self.id,
            "name": self.name,
            "sourceId": self.source_id,
            "destinationId": self.destination_id,
            "workspaceId": self.workspace_id,
            "status": self.status,
            "schedule": self.schedule.response(),
            "dataResidency": self.data_residency,
            "nonBreakingSchemaUpdatesBehavior": self.non_breaking_schema_updates_behavior,
            "namespaceDefinition": self.namespace_definition,
        });
        if let Some(format) = &self.namespace_format {
            body["namespaceFormat"] = json!(format);
        }
        body["prefix"] = json!(self.prefix);
        body["configurations"] = json!({ "streams": streams });
        body["createdAt"] = json!(self.created_at);
        body
    }
}

/// One attempt of a job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    pub number: u32,
    pub status: JobStatus,
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub rows_synced: Option<u64>,
    pub bytes_synced: Option<u64>,
    pub failure: Option<SyncFailure>,
}

/// A sync or reset job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Job {
    pub id: i64,
    pub connection_id: String,
    pub workspace_id: String,
    pub job_type: JobType,
    pub status: JobStatus,
    pub created_at: i64,
    pub updated_at: i64,
    pub rows_synced: Option<u64>,
    pub bytes_synced: Option<u64>,
    pub streams: BTreeMap<String, StreamStats>,
    pub attempts: Vec<Attempt>,
    pub log: Vec<String>,
}

impl Job {
    /// `JobResponse`: `lastUpdatedAt` once terminal, `duration` once started,
    /// row and byte counts once an attempt exists (as Airbyte's mapper does).
    pub fn response(&self) -> Value {
        let mut body = json!({
            "jobId": self.id,
            "status": self.status,
            "jobType": self.job_type,
            "startTime": rfc3339(self.created_at),
            "connectionId": self.connection_id,
        });
        if self.status.is_terminal() {
            body["lastUpdatedAt"] = json!(rfc3339(self.updated_at));
        }
        if self.status != JobStatus::Pending {
            body["duration"] = json!(iso_duration(self.updated_at - self.created_at));
        }
        if !self.attempts.is_empty() {
            body["bytesSynced"] = json!(self.bytes_synced.unwrap_or(0));
            body["rowsSynced"] = json!(self.rows_synced.unwrap_or(0));
        }
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(status: JobStatus) -> Job {
        Job {
            id: 7,
            connection_id: "c".to_owned(),
            workspace_id: "w".to_owned(),
            job_type: JobType::Sync,
            status,
            created_at: 100,
            updated_at: 165,
            rows_synced: None,
            bytes_synced: None,
            streams: BTreeMap::new(),
            attempts: Vec::new(),
            log: Vec::new(),
        }
    }

    #[test]
    fn pending_job_has_no_duration_or_counts() {
        let body = job(JobStatus::Pending).response();
        assert_eq!(body["jobId"], 7);
        assert_eq!(body["status"], "pending");
        assert!(body.get("duration").is_none());
        assert!(body.get("lastUpdatedAt").is_none());
        assert!(body.get("rowsSynced").is_none());
    }

    #[test]
    fn finished_job_reports_duration_and_last_update() {
        let mut done = job(JobStatus::Succeeded);
        done.attempts.push(Attempt {
            number: 1,
            status: JobStatus::Succeeded,
            started_at: 100,
            ended_at: Some(165),
            rows_synced: Some(5),
            bytes_synced: Some(50),
            failure: None,
        });
        done.rows_synced = Some(5);
        let body = done.response();
        assert_eq!(body["duration"], "PT1M5S");
        assert_eq!(body["lastUpdatedAt"], "1970-01-01T00:02:45Z");
        assert_eq!(body["rowsSynced"], 5);
        assert_eq!(body["bytesSynced"], 0);
    }
}
