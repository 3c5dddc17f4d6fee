//! `eltbench view JOB [--port N]`: serves a job's report and every trial's
//! trajectory page on 127.0.0.1 and prints the URL; Ctrl-C stops it.
//!
//! Pages are rendered from the job directory on each request (a running job
//! shows its latest trials); only `/`, `/report.html` and
//! `/trials/<id>/trajectory.html` exist. It binds loopback only, serves
//! GET/HEAD only, and never writes into the job directory.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use eltbench_report::{TRAJECTORY_PAGE, TRIALS_DIR, load_job, render_html, trial_page_html};

use crate::printer::Printer;

/// Serve a job's report and trajectories on localhost.
#[derive(Debug, clap::Args)]
pub struct ViewArgs {
    /// The job directory (holding `results.jsonl`).
    pub job: PathBuf,
    /// The port on 127.0.0.1 (0: any free port).
    #[arg(long, default_value_t = 8765)]
    pub port: u16,
}

pub fn run(args: ViewArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    super::report::check_job_dir(&args.job)?;
    let listener = TcpListener::bind(("127.0.0.1", args.port))
        .with_context(|| format!("cannot listen on 127.0.0.1:{}", args.port))?;
    let port = listener.local_addr()?.port();
    printer.out(&format!("http://127.0.0.1:{port}/"));
    printer.info("serving the report and trajectories; Ctrl-C stops");
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let job = args.job.clone();
        std::thread::spawn(move || {
            let _ = serve(stream, &job);
        });
    }
    Ok(ExitCode::SUCCESS)
}

/// A response: status line, content type, body.
type Response = (&'static str, &'static str, Vec<u8>);

fn serve(stream: TcpStream, job: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let (status, kind, body) = match method {
        "GET" | "HEAD" => respond(job, target),
        _ => plain("405 Method Not Allowed", "only GET and HEAD"),
    };
    let mut out = stream;
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if method != "HEAD" {
        out.write_all(&body)?;
    }
    out.flush()
}

const HTML: &str = "text/html; charset=utf-8";

/// The page at `target` (query string ignored).
fn respond(job: &Path, target: &str) -> Response {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let result = match path {
        "/" | "/report.html" => report_page(job).map(Some),
        _ => match trial_of(path) {
            Some(id) => load_job(job)
                .and_then(|(_, records)| trial_page_html(job, &records, id))
                .map_err(anyhow::Error::from),
            None => Ok(None),
        },
    };
    match result {
        Ok(Some(page)) => ("200 OK", HTML, page.into_bytes()),
        Ok(None) => plain("404 Not Found", &format!("no page {path}")),
        Err(e) => plain("500 Internal Server Error", &format!("{e:#}")),
    }
}

fn report_page(job: &Path) -> anyhow::Result<String> {
    let (report, _) = load_job(job)?;
    Ok(render_html(&report))
}

/// `<id>` of `/trials/<id>/trajectory.html`.
fn trial_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix('/')?.strip_prefix(TRIALS_DIR)?;
    let id = rest.strip_prefix('/')?.strip_suffix(TRAJECTORY_PAGE)?;
    let id = id.strip_suffix('/')?;
    (!id.is_empty() && !id.contains(['/', '\\', '%']) && !id.starts_with('.')).then_some(id)
}

fn plain(status: &'static str, text: &str) -> Response {
    (
        status,
        "text/plain; charset=utf-8",
        text.as_bytes().to_vec(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_only_plain_trial_ids() {
        assert_eq!(trial_of("/trials/a__0/trajectory.html"), Some("a__0"));
        assert_eq!(trial_of("/trials/../trajectory.html"), None);
        assert_eq!(trial_of("/trials/a/b/trajectory.html"), None);
        assert_eq!(trial_of("/trials/%2e%2e/trajectory.html"), None);
        assert_eq!(trial_of("/trials//trajectory.html"), None);
        assert_eq!(trial_of("/etc/passwd"), None);
    }

    #[test]
    fn unknown_paths_are_404() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(respond(dir.path(), "/x").0, "404 Not Found");
    }
}
