//! Starting each source kind of an [`Environment`] from the task's tables, one function
//! per kind, each recording its endpoint. A kind the config does not name is skipped.
//! A pinned port that is taken is a [`EnvError::PortInUse`]; nothing here picks
//! another port behind the user's back.

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::Path;

use eltbench_mongo::{MongoServer, Store};
use eltbench_s3::{Credentials, S3Server};
use eltbench_task::{SourceKind, Task};

use super::endpoints::{
    HttpEndpoint, MONGO_EXTERNAL, MONGO_MONGOD, MONGO_WIRE, MongoEndpoint, PostgresEndpoint,
    S3Endpoint,
};
use super::mongo_ext;
use super::mongod::{self, Mongod};
use super::{EnvError, EnvOptions, Environment, PortPins, Progress, TaskTables};
use crate::http::{self, HttpServer, Routes};
use crate::postgres::PgCluster;
use crate::rest::RestStreams;
use crate::{files, mongo_load, rest, s3_load};

/// The region when the config names none (LocalStack's default).
const DEFAULT_REGION: &str = "us-east-1";

/// What every launch step reads.
pub(super) struct Ctx<'a> {
    pub task: &'a Task,
    pub tables: &'a TaskTables,
    pub run_dir: &'a Path,
    pub opts: &'a EnvOptions,
}

impl Ctx<'_> {
    fn table(&self, kind: SourceKind, name: &str) -> Result<&crate::Table, EnvError> {
        self.tables
            .get(kind, name)
            .ok_or_else(|| EnvError::MissingData {
                db: self.task.db.clone(),
                table: name.to_owned(),
                looked: self.run_dir.to_path_buf(),
            })
    }

    fn loaded(&self, kind: SourceKind, table: &str, rows: usize) {
        self.opts.report(Progress::TableLoaded {
            kind,
            table: table.to_owned(),
            rows,
        });
    }

    fn ready(&self, kind: SourceKind, endpoint: &str) {
        self.opts.report(Progress::SourceReady {
            kind,
            endpoint: endpoint.to_owned(),
        });
    }
}

/// Fails early when a pinned port of a kind the task uses is taken.
pub(super) fn check_pinned_ports(task: &Task, pins: &PortPins) -> Result<(), EnvError> {
    for kind in task.source_kinds() {
        if let Some(port) = pins.get(kind) {
            http::bind(port).map_err(|e| port_error(kind, port, e))?;
        }
    }
    Ok(())
}

fn port_error(kind: SourceKind, port: u16, source: std::io::Error) -> EnvError {
    if source.kind() == std::io::ErrorKind::AddrInUse {
        EnvError::PortInUse { kind, port }
    } else {
        EnvError::Bind { kind, port, source }
    }
}

fn loopback(port: Option<u16>) -> SocketAddr {
    SocketAddr::from((Ipv4Addr::LOCALHOST, port.unwrap_or(0)))
}

impl Environment {
    /// MongoDB: the server at `opts.mongodb_uri`, else a `mongod` on `PATH` (unless
    /// `ELTBENCH_MONGOD=off`), else eltbench's own endpoint.
    pub(super) fn launch_mongo(&mut self, ctx: &Ctx<'_>) -> Result<(), EnvError> {
        let Some(cfg) = &ctx.task.config.mongodb else {
            return Ok(());
        };
        if let Some(uri) = &ctx.opts.mongodb_uri {
            let port = self.fill_real_mongo(ctx, uri)?;
            return self.mongo_ready(ctx, uri.clone(), port, MONGO_EXTERNAL);
        }
        let want = mongod::wanted(std::env::var_os(mongod::MONGOD_ENV).as_deref());
        let found = want
            .then(|| mongod::find_on_path("mongod", std::env::var_os("PATH").as_deref()))
            .flatten();
        if let Some(bin) = found {
            let port = match ctx.opts.ports.mongodb {
                Some(port) => port,
                None => mongod::free_port()
                    .map_err(|source| port_error(SourceKind::Mongodb, 0, source))?,
            };
            let handle = self.handle()?;
            let child = self
                .mongod
                .insert(Mongod::spawn(&bin, &ctx.run_dir.join("mongod"), port)?);
            handle.block_on(child.ready())?;
            let uri = child.uri();
            self.fill_real_mongo(ctx, &uri)?;
            return self.mongo_ready(ctx, uri, port, MONGO_MONGOD);
        }
        let store = Store::new();
        for name in &cfg.tables {
            let table = ctx.table(SourceKind::Mongodb, name)?;
            let rows = mongo_load::load_collection(&store, &cfg.database, table);
            ctx.loaded(SourceKind::Mongodb, name, rows);
        }
        let pin = ctx.opts.ports.mongodb;
        let server = self
            .handle()?
            .block_on(MongoServer::start(loopback(pin), store, None))
            .map_err(|e| match e {
                eltbench_mongo::MongoError::Bind { source, .. } => {
                    port_error(SourceKind::Mongodb, pin.unwrap_or(0), source)
                }
                other => other.into(),
            })?;
        let port = server.addr().port();
        self.mongo = Some(server);
        let uri = format!("mongodb://127.0.0.1:{port}/?directConnection=true");
        self.mongo_ready(ctx, uri, port, MONGO_WIRE)
    }

    /// Drops and refills the task's collections on the server at `uri` through the
    /// driver; returns the port of the URI's first host.
    fn fill_real_mongo(&self, ctx: &Ctx<'_>, uri: &str) -> Result<u16, EnvError> {
        let Some(cfg) = &ctx.task.config.mongodb else {
            return Ok(0);
        };
        let tables = cfg
            .tables
            .iter()
            .map(|name| ctx.table(SourceKind::Mongodb, name))
            .collect::<Result<Vec<_>, _>>()?;
        let (port, loaded) = self.handle()?.block_on(async {
            let (client, port) = mongo_ext::connect(uri).await?;
            let mut loaded = Vec::new();
            for table in tables {
                match mongo_ext::load_table(&client, uri, &cfg.database, table).await {
                    Ok(rows) => loaded.push((&table.name, rows)),
                    Err(e) => {
                        client.shutdown().await;
                        return Err(e);
                    }
                }
            }
            client.shutdown().await;
            Ok((port, loaded))
        })?;
        for (name, rows) in loaded {
            ctx.loaded(SourceKind::Mongodb, name, rows);
        }
        Ok(port)
    }

    fn mongo_ready(
        &mut self,
        ctx: &Ctx<'_>,
        uri: String,
        port: u16,
        served_by: &str,
    ) -> Result<(), EnvError> {
        let Some(cfg) = &ctx.task.config.mongodb else {
            return Ok(());
        };
        ctx.ready(SourceKind::Mongodb, &mongo_ext::redact(&uri));
        self.record.endpoints.mongodb = Some(MongoEndpoint {
            uri,
            port,
            database: cfg.database.clone(),
            collections: cfg.tables.clone(),
            served_by: served_by.to_owned(),
        });
        Ok(())
    }

    pub(super) fn launch_rest(
        &mut self,
        ctx: &Ctx<'_>,
        streams: &RestStreams,
    ) -> Result<(), EnvError> {
        let Some(cfg) = &ctx.task.config.custom_api else {
            return Ok(());
        };
        let mut routes = Routes::default();
        for name in &cfg.tables {
            let table = ctx.table(SourceKind::CustomApi, name)?;
            rest::add_table(&mut routes, &ctx.task.db, table, streams);
            ctx.loaded(SourceKind::CustomApi, name, table.len());
        }
        let server = self.serve_http(SourceKind::CustomApi, ctx.opts.ports.custom_api, routes)?;
        let base_url = server.base_url();
        let urls = cfg
            .tables
            .iter()
            .map(|t| {
                (
                    t.clone(),
                    format!("{base_url}{}", rest::route_path(&ctx.task.db, t)),
                )
            })
            .collect();
        ctx.ready(SourceKind::CustomApi, &base_url);
        self.record.endpoints.custom_api = Some(HttpEndpoint {
            base_url,
            port: server.addr().port(),
            urls,
        });
        self.http.push(server);
        Ok(())
    }

    pub(super) fn launch_files(&mut self, ctx: &Ctx<'_>) -> Result<(), EnvError> {
        let Some(cfg) = &ctx.task.config.flat_files else {
            return Ok(());
        };
        let dir = ctx.run_dir.join("files");
        let mut routes = Routes::default();
        let mut paths = BTreeMap::new();
        for file in &cfg.0 {
            let table = ctx.table(SourceKind::FlatFiles, &file.table)?;
            let path = files::add_file(&mut routes, &dir, &ctx.task.db, table, file.format)?;
            paths.insert(file.table.clone(), path);
            ctx.loaded(SourceKind::FlatFiles, &file.table, table.len());
        }
        let server = self.serve_http(SourceKind::FlatFiles, ctx.opts.ports.flat_files, routes)?;
        let base_url = server.base_url();
        let urls = paths
            .into_iter()
            .map(|(t, p)| (t, format!("{base_url}{p}")))
            .collect();
        ctx.ready(SourceKind::FlatFiles, &base_url);
        self.record.endpoints.flat_files = Some(HttpEndpoint {
            base_url,
            port: server.addr().port(),
            urls,
        });
        self.http.push(server);
        Ok(())
    }

    fn serve_http(
        &self,
        kind: SourceKind,
        pin: Option<u16>,
        routes: Routes,
    ) -> Result<HttpServer, EnvError> {
        let port = pin.unwrap_or(0);
        let listener = http::bind(port).map_err(|e| port_error(kind, port, e))?;
        HttpServer::serve(&self.handle()?, listener, routes.into_router())
            .map_err(|source| EnvError::Bind { kind, port, source })
    }

    pub(super) fn launch_s3(&mut self, ctx: &Ctx<'_>) -> Result<(), EnvError> {
        let Some(cfg) = &ctx.task.config.aws_s3 else {
            return Ok(());
        };
        let root = ctx.run_dir.join("s3");
        let mut objects = BTreeMap::new();
        for object in &cfg.data {
            let table = ctx.table(SourceKind::AwsS3, &object.table)?;
            s3_load::put_table(&root, object, table)?;
            objects.insert(object.table.clone(), object.path.clone());
            ctx.loaded(SourceKind::AwsS3, &object.table, table.len());
        }
        let region = cfg.default_region.as_deref().unwrap_or(DEFAULT_REGION);
        let creds = Credentials::new(&cfg.access_key_id, &cfg.secret_access_key);
        let pin = ctx.opts.ports.aws_s3;
        let server = self
            .handle()?
            .block_on(S3Server::start(loopback(pin), &root, creds, region))
            .map_err(|e| match e {
                eltbench_s3::S3Error::Bind { source, .. } => {
                    port_error(SourceKind::AwsS3, pin.unwrap_or(0), source)
                }
                other => other.into(),
            })?;
        let endpoint_url = server.endpoint_url();
        ctx.ready(SourceKind::AwsS3, &endpoint_url);
        self.record.endpoints.aws_s3 = Some(S3Endpoint {
            endpoint_url,
            port: server.addr().port(),
            region: region.to_owned(),
            access_key_id: cfg.access_key_id.clone(),
            secret_access_key: cfg.secret_access_key.clone(),
            root,
            objects,
        });
        self.s3 = Some(server);
        Ok(())
    }

    pub(super) fn launch_postgres(
        &mut self,
        ctx: &Ctx<'_>,
        cluster: PgCluster,
    ) -> Result<(), EnvError> {
        let Some(cfg) = &ctx.task.config.postgres else {
            return Ok(());
        };
        ctx.opts.report(Progress::PostgresStarted {
            pid: cluster.postmaster_pid(),
            port: cluster.port(),
        });
        let handle = self.handle()?;
        let cluster = &*self.pg.insert(cluster);
        handle.block_on(async {
            cluster.create_role(&cfg.user, &cfg.password, true).await?;
            if cfg.database != "postgres" {
                cluster.create_database(&cfg.database).await?;
            }
            for name in &cfg.tables {
                let table = ctx.table(SourceKind::Postgres, name)?;
                let rows = cluster
                    .load_table(&cfg.database, &cfg.schema, table)
                    .await?;
                ctx.loaded(SourceKind::Postgres, name, rows as usize);
            }
            Ok::<_, EnvError>(())
        })?;
        let endpoint = PostgresEndpoint {
            host: "127.0.0.1".into(),
            port: cluster.port(),
            database: cfg.database.clone(),
            user: cfg.user.clone(),
            password: cfg.password.clone(),
            schema: cfg.schema.clone(),
            postmaster_pid: cluster.postmaster_pid(),
            data_dir: cluster.data_dir().to_path_buf(),
            tables: cfg.tables.clone(),
        };
        ctx.ready(
            SourceKind::Postgres,
            &format!(
                "postgresql://{}@127.0.0.1:{}/{}",
                cfg.user, endpoint.port, cfg.database
            ),
        );
        self.record.endpoints.postgres = Some(endpoint);
        Ok(())
    }
}
