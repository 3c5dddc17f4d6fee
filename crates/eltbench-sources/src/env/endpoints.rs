//! What a running environment offers, as written to `RUN/env.json` and `RUN/env.sh`:
//! one endpoint per source kind (host, port, credentials, what it serves), the
//! process that serves them and the PostgreSQL postmaster. Field order is stable; the
//! JSON is what `env status`/`env down` and the harness read back.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::EnvError;

/// The PostgreSQL source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PostgresEndpoint {
    pub host: String,
    pub port: u16,
    pub database: String,
    pub user: String,
    pub password: String,
    pub schema: String,
    pub postmaster_pid: Option<i32>,
    pub data_dir: PathBuf,
    pub tables: Vec<String>,
}

/// The MongoDB source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MongoEndpoint {
    pub uri: String,
    pub port: u16,
    pub database: String,
    pub collections: Vec<String>,
    /// Which MongoDB serves: [`MONGO_MONGOD`], [`MONGO_EXTERNAL`] or [`MONGO_WIRE`].
    #[serde(default = "wire")]
    pub served_by: String,
}

/// A `mongod` this environment started.
pub const MONGO_MONGOD: &str = "mongod";
/// A server given by URI; it outlives the environment.
pub const MONGO_EXTERNAL: &str = "external";
/// eltbench's own wire-protocol endpoint.
pub const MONGO_WIRE: &str = "eltbench-wire";

fn wire() -> String {
    MONGO_WIRE.to_owned()
}

/// An HTTP source (REST API or flat files): base URL and the paths it serves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpEndpoint {
    pub base_url: String,
    pub port: u16,
    /// Table → full URL.
    pub urls: BTreeMap<String, String>,
}

/// The S3 source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct S3Endpoint {
    pub endpoint_url: String,
    pub port: u16,
    pub region: String,
    pub access_key_id: String,
    pub secret_access_key: String,
    pub root: PathBuf,
    /// Table → `s3://bucket/key`.
    pub objects: BTreeMap<String, String>,
}

/// Every source the environment runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endpoints {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub postgres: Option<PostgresEndpoint>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mongodb: Option<MongoEndpoint>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub custom_api: Option<HttpEndpoint>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub aws_s3: Option<S3Endpoint>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub flat_files: Option<HttpEndpoint>,
}

impl Endpoints {
    /// Source kind (config key) → TCP port on 127.0.0.1 of the sources this
    /// environment serves (an external MongoDB is not one of them).
    pub fn ports(&self) -> BTreeMap<String, u16> {
        let mongo = self
            .mongodb
            .as_ref()
            .filter(|e| e.served_by != MONGO_EXTERNAL);
        let entries = [
            ("postgres", self.postgres.as_ref().map(|e| e.port)),
            ("mongodb", mongo.map(|e| e.port)),
            ("custom_api", self.custom_api.as_ref().map(|e| e.port)),
            ("aws_s3", self.aws_s3.as_ref().map(|e| e.port)),
            ("flat_files", self.flat_files.as_ref().map(|e| e.port)),
        ];
        entries
            .into_iter()
            .filter_map(|(k, p)| Some((k.to_owned(), p?)))
            .collect()
    }
}

/// `RUN/env.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvRecord {
    pub db: String,
    pub suite: PathBuf,
    pub run_dir: PathBuf,
    /// The process serving the in-process sources (and owning PostgreSQL).
    pub pid: u32,
    /// That process's start time in clock ticks since boot (`/proc/PID/stat` field
    /// 22), so a recycled pid is not mistaken for it.
    pub pid_start: Option<u64>,
    /// The rewritten `config.yaml` for the agent.
    pub config: PathBuf,
    pub endpoints: Endpoints,
}

impl EnvRecord {
    /// Process name → pid: `eltbench` (this process) and `postgres` (the postmaster).
    pub fn pids(&self) -> BTreeMap<String, i64> {
        let mut pids = BTreeMap::from([("eltbench".to_owned(), i64::from(self.pid))]);
        if let Some(pid) = self
            .endpoints
            .postgres
            .as_ref()
            .and_then(|p| p.postmaster_pid)
        {
            pids.insert("postgres".to_owned(), i64::from(pid));
        }
        pids
    }

    /// `export NAME='value'` lines for a shell.
    pub fn shell_exports(&self) -> String {
        let mut vars: Vec<(&str, String)> = vec![
            ("ELTBENCH_ENV_DIR", self.run_dir.display().to_string()),
            ("ELTBENCH_ENV_PID", self.pid.to_string()),
        ];
        let e = &self.endpoints;
        if let Some(pg) = &e.postgres {
            vars.extend([
                ("PGHOST", pg.host.clone()),
                ("PGPORT", pg.port.to_string()),
                ("PGUSER", pg.user.clone()),
                ("PGPASSWORD", pg.password.clone()),
                ("PGDATABASE", pg.database.clone()),
            ]);
        }
        if let Some(m) = &e.mongodb {
            vars.push(("MONGODB_URI", m.uri.clone()));
        }
        if let Some(api) = &e.custom_api {
            vars.push(("ELT_API_URL", api.base_url.clone()));
        }
        if let Some(s3) = &e.aws_s3 {
            vars.extend([
                ("AWS_ENDPOINT_URL", s3.endpoint_url.clone()),
                ("AWS_ACCESS_KEY_ID", s3.access_key_id.clone()),
                ("AWS_SECRET_ACCESS_KEY", s3.secret_access_key.clone()),
                ("AWS_DEFAULT_REGION", s3.region.clone()),
            ]);
        }
        if let Some(files) = &e.flat_files {
            vars.push(("ELT_FILES_URL", files.base_url.clone()));
        }
        vars.iter()
            .map(|(k, v)| format!("export {k}={}\n", shell_quote(v)))
            .collect()
    }

    /// Reads `RUN/env.json`.
    pub fn read(run_dir: &Path) -> Result<Self, EnvError> {
        let path = run_dir.join(super::ENV_JSON);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(EnvError::NoRecord {
                    dir: run_dir.to_path_buf(),
                });
            }
            Err(e) => {
                return Err(EnvError::Record {
                    path,
                    detail: e.to_string(),
                });
            }
        };
        serde_json::from_str(&text).map_err(|e| EnvError::Record {
            path,
            detail: e.to_string(),
        })
    }
}

/// `'text'` for POSIX shells (a `'` becomes `'\''`).
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Writes `bytes` to `path` through a temporary file and a rename, so readers never
/// see half a file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), EnvError> {
    let tmp = path.with_extension("tmp");
    let err = |source| EnvError::Write {
        path: path.to_path_buf(),
        source,
    };
    std::fs::write(&tmp, bytes).map_err(err)?;
    std::fs::rename(&tmp, path).map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_are_quoted_for_the_shell() {
        let record = EnvRecord {
            db: "d".into(),
            suite: "s".into(),
            run_dir: "/tmp/it's".into(),
            pid: 7,
            pid_start: None,
            config: "c".into(),
            endpoints: Endpoints {
                custom_api: Some(HttpEndpoint {
                    base_url: "http://127.0.0.1:1".into(),
                    port: 1,
                    urls: BTreeMap::new(),
                }),
                ..Endpoints::default()
            },
        };
        let text = record.shell_exports();
        assert!(
            text.contains(r"export ELTBENCH_ENV_DIR='/tmp/it'\''s'"),
            "{text}"
        );
        assert!(text.contains("export ELT_API_URL='http://127.0.0.1:1'\n"));
        assert_eq!(
            record.endpoints.ports(),
            BTreeMap::from([("custom_api".into(), 1)])
        );
        assert_eq!(record.pids(), BTreeMap::from([("eltbench".into(), 7)]));
    }
}
