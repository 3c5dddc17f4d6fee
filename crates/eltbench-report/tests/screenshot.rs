//! Renders the sample report in headless Chromium and checks the
//! screenshot is a real page. Needs `/usr/bin/chromium` (`scripts/setup`
//! installs it) and fails saying so when it is missing.
//! The PNG and the page are kept in `target/report-screenshot.png` and
//! `target/report-sample.html` for a human look.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use eltbench_report::{JobReport, render_html};

const CHROMIUM: &str = "/usr/bin/chromium";

#[test]
fn headless_screenshot_is_a_full_page() {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: run scripts/setup (it installs the Debian package chromium)"
    );
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report.html");
    let report = JobReport::from_records(&common::sample_records(), &common::suite_info());
    fs::write(&html, render_html(&report)).unwrap();
    let png = dir.path().join("shot.png");
    screenshot(&html, &png, &dir.path().join("profile"));
    let bytes = fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let (width, height) = (be_u32(&bytes[16..20]), be_u32(&bytes[20..24]));
    assert_eq!((width, height), (1280, 2000));
    // A blank 1280x2000 page compresses to a few kilobytes; charts, tables
    // and text take far more.
    assert!(
        bytes.len() > 60_000,
        "screenshot suspiciously small: {} bytes",
        bytes.len()
    );
    fs::write(kept("report-screenshot.png"), &bytes).unwrap();
    fs::copy(&html, kept("report-sample.html")).unwrap();
}

fn screenshot(html: &Path, png: &Path, profile: &Path) {
    let output = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
        ])
        .args([
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg("--window-size=1280,2000")
        .arg(format!("file://{}", html.display()))
        .output()
        .unwrap();
    assert!(
        png.exists(),
        "chromium wrote no screenshot ({}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

fn be_u32(bytes: &[u8]) -> u32 {
    u32::from_be_bytes(bytes.try_into().unwrap())
}

fn kept(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target")
        .join(name)
}
