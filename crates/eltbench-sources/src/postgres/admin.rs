//! Administration of a running cluster: superuser connections over the Unix socket,
//! databases and login roles (the original setup used role `postgres`, password
//! `testelt`, one database per task, schema `public`).
//!
//! Connections made here are the superuser's; agents and connectors reach the cluster
//! over TCP with a password instead (see `tcp_config`).

use tokio_postgres::{Client, Config, NoTls};

use super::error::describe;
use super::sql::{quote_ident, quote_literal};
use super::{PgCluster, PgError};

impl PgCluster {
    /// A superuser connection to `db` over the Unix socket (trust authentication).
    pub async fn connect(&self, db: &str) -> Result<Client, PgError> {
        let mut config = Config::new();
        config
            .host_path(self.socket_dir())
            .port(self.port)
            .user(&self.superuser)
            .dbname(db);
        self.connect_with(
            &config,
            &self.superuser,
            db,
            &format!("socket {}", self.socket_dir().display()),
        )
        .await
    }

    /// Connection settings for a password login over TCP on 127.0.0.1.
    pub fn tcp_config(&self, user: &str, password: &str, db: &str) -> Config {
        let mut config = Config::new();
        config
            .host("127.0.0.1")
            .port(self.port)
            .user(user)
            .password(password)
            .dbname(db);
        config
    }

    /// Connects with `config`; errors name `target`, `user` and `db`.
    pub async fn connect_with(
        &self,
        config: &Config,
        user: &str,
        db: &str,
        target: &str,
    ) -> Result<Client, PgError> {
        let (client, connection) = config.connect(NoTls).await.map_err(|e| PgError::Connect {
            target: target.into(),
            user: user.into(),
            db: db.into(),
            detail: describe(&e),
        })?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Ok(client)
    }

    /// `CREATE DATABASE name` (UTF-8); an existing database is an error.
    pub async fn create_database(&self, name: &str) -> Result<(), PgError> {
        let client = self.connect("postgres").await?;
        let sql = format!(
            "CREATE DATABASE {} ENCODING 'UTF8' TEMPLATE template0",
            quote_ident(name)
        );
        client
            .batch_execute(&sql)
            .await
            .map_err(|e| self.sql_error(&format!("CREATE DATABASE {name}"), &e))
    }

    /// Creates login role `user` with `password`, or updates it when it exists (the
    /// bootstrap superuser exists from `initdb` and only gets its password set).
    pub async fn create_role(
        &self,
        user: &str,
        password: &str,
        superuser: bool,
    ) -> Result<(), PgError> {
        let client = self.connect("postgres").await?;
        let what = format!("create role {user}");
        let exists = client
            .query_opt("SELECT 1 FROM pg_roles WHERE rolname = $1", &[&user])
            .await
            .map_err(|e| self.sql_error(&what, &e))?
            .is_some();
        let verb = if exists { "ALTER" } else { "CREATE" };
        let power = if superuser {
            "SUPERUSER"
        } else {
            "NOSUPERUSER"
        };
        let sql = format!(
            "{verb} ROLE {} WITH LOGIN {power} PASSWORD {}",
            quote_ident(user),
            quote_literal(password)
        );
        client
            .batch_execute(&sql)
            .await
            .map_err(|e| self.sql_error(&what, &e))
    }

    /// Whether the server still runs, given that a statement failed with
    /// `err`. A killed postmaster closes its backends' connections while the
    /// kernel is still tearing it down, so after any error the server did not
    /// report itself (a closed or broken connection) this waits up to two
    /// seconds for the process to be gone before answering.
    fn is_running_after(&self, err: &tokio_postgres::Error) -> bool {
        if err.as_db_error().is_some() {
            return self.is_running();
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while self.is_running() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        self.is_running()
    }

    /// An error for a failed statement; says so when the server itself is gone.
    pub(super) fn sql_error(&self, what: &str, err: &tokio_postgres::Error) -> PgError {
        let detail = describe(err);
        match self.postmaster_pid() {
            Some(pid) if !self.is_running_after(err) => PgError::ServerDied {
                pid,
                what: what.into(),
                detail,
            },
            _ => PgError::Sql {
                what: what.into(),
                detail,
            },
        }
    }
}
