//! `eltbench view JOB --port 0` on a fixture job: the printed URL serves the
//! report and each trial's trajectory page; headless Chromium renders the
//! report (a non-blank screenshot) and its DOM names every trial. Fails
//! with "run scripts/setup" when Chromium is missing.

mod report_support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

const CHROMIUM: &str = "/usr/bin/chromium";

/// The server, killed (by its own pid) when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(job: &Path) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_eltbench"))
        .args(["view", job.to_str().unwrap(), "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let url = line.trim().to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url:?}");
    (server, url)
}

fn chromium(profile: &Path) -> Command {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: run scripts/setup (it installs the Debian package chromium)"
    );
    let mut cmd = Command::new(CHROMIUM);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    cmd
}

fn dump_dom(profile: &Path, url: &str) -> String {
    let out = chromium(profile)
        .args(["--dump-dom", url])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn be_u32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

#[test]
fn view_serves_report_and_trajectories_to_headless_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let ids = report_support::write_job(&job);
    let (_server, url) = start(&job);

    let png = tmp.path().join("shot.png");
    let out = chromium(&tmp.path().join("profile1"))
        .arg(format!("--screenshot={}", png.display()))
        .args(["--window-size=1280,2000", &url])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    assert_eq!(
        (be_u32(&bytes[16..20]), be_u32(&bytes[20..24])),
        (1280, 2000)
    );
    // A blank 1280x2000 page compresses to a few kilobytes; the cards,
    // charts and tables of the report take far more.
    assert!(
        bytes.len() > 40_000,
        "blank-looking screenshot: {} bytes",
        bytes.len()
    );
    // Kept for a human look.
    let kept = Path::new(env!("CARGO_TARGET_TMPDIR")).join("view-screenshot.png");
    std::fs::write(kept, &bytes).unwrap();

    let dom = dump_dom(&tmp.path().join("profile2"), &url);
    assert!(dom.contains("fixture-job"), "{dom}");
    for id in &ids {
        assert!(
            dom.contains(&format!("trials/{id}/trajectory.html")),
            "{id}"
        );
    }
    let page = format!("{url}trials/{}/trajectory.html", ids[0]);
    let dom = dump_dom(&tmp.path().join("profile3"), &page);
    assert!(dom.contains("Step 0") && dom.contains("Step 1"), "{dom}");
    assert!(dom.contains("action: terminate") && dom.contains("pipeline built"));
}

#[test]
fn view_answers_404_and_405_and_never_leaves_the_job() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let ids = report_support::write_job(&job);
    let (_server, url) = start(&job);
    let client = reqwest::blocking::Client::new();
    let get = |path: &str| client.get(format!("{url}{path}")).send().unwrap();
    assert_eq!(get("report.html").status(), 200);
    assert_eq!(
        get(&format!("trials/{}/trajectory.html", ids[1])).status(),
        200
    );
    assert_eq!(get("trials/nope__9/trajectory.html").status(), 404);
    assert_eq!(get("trials/../job.json").status(), 404);
    assert_eq!(get("results.jsonl").status(), 404);
    let post = client.post(format!("{url}report.html")).send().unwrap();
    assert_eq!(post.status(), 405);
    assert!(
        !job.join("report.html").exists(),
        "view must not write the job"
    );
}
