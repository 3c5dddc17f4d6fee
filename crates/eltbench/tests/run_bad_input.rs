//! Bad input to `eltbench run`: an unknown agent or a missing agent program
//! is refused before any job exists (exit 2); an agent that hangs is stopped
//! at the timeout and one that crashes is recorded, and the job goes on.

mod run_support;

use run_support::{agent_status, result, run, tempdir, text};

#[test]
fn unknown_agent_and_missing_program_exit_2_without_a_job() {
    let tmp = tempdir();
    let job = tmp.path().join("job");
    let job_arg = job.to_str().unwrap();
    let cases = [
        ("gpt-17", "unknown agent"),
        (
            "command:no-such-agent-xyz -p {instruction}",
            "not found on PATH",
        ),
        ("builtin:gemini:pro", "unknown provider"),
    ];
    for (agent, message) in cases {
        let output = run(&[
            "--agent",
            agent,
            "--tasks",
            "amplitude",
            "--job-dir",
            job_arg,
        ]);
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        assert!(text(&output).contains(message), "{}", text(&output));
        assert!(!job.exists(), "no job directory for bad input");
    }
    let output = run(&[
        "--agent",
        "oracle",
        "--tasks",
        "amplitud",
        "--job-dir",
        job_arg,
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
}

#[test]
fn hanging_and_crashing_agents_are_recorded_and_the_job_continues() {
    let tmp = tempdir();
    let job = tmp.path().join("job");
    let marker = tmp.path().join("still-running");
    // Hangs on amplitude (a child that would outlive it touches a marker),
    // exits 3 on twilio.
    let agent = format!(
        "command:sh -c 'case \"$0\" in *amplitude*) (sleep 35; touch {m}) & sleep 600;; *) echo crashing >&2; exit 3;; esac' {{workspace}}",
        m = marker.display()
    );
    let output = run(&[
        "--agent",
        &agent,
        "--tasks",
        "amplitude,twilio",
        "--concurrency",
        "2",
        "--timeout",
        "20s",
        "--job-dir",
        job.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output));
    let hung = result(&job, "amplitude__0");
    assert_eq!(agent_status(&hung), "timeout", "{hung:#}");
    assert!(hung["duration_s"].as_f64().unwrap() < 35.0, "{hung:#}");
    let crashed = result(&job, "twilio__0");
    assert_eq!(agent_status(&crashed), "crashed", "{crashed:#}");
    assert_eq!(crashed["agent"]["exit"], 3, "{crashed:#}");
    let stderr = std::fs::read_to_string(job.join("trials/twilio__0/agent.stderr.log")).unwrap();
    assert_eq!(stderr, "crashing\n");
    for trial in ["amplitude__0", "twilio__0"] {
        assert!(
            job.join("trials")
                .join(trial)
                .join("trajectory.json")
                .is_file()
        );
    }
    let started = std::time::Instant::now();
    let elapsed = hung["duration_s"].as_f64().unwrap();
    std::thread::sleep(std::time::Duration::from_secs_f64(
        (37.0 - elapsed).max(1.0),
    ));
    assert!(started.elapsed().as_secs() < 60);
    assert!(
        !marker.exists(),
        "the hanging agent's process group was not killed"
    );
}

#[test]
fn a_quiet_run_prints_no_progress_and_still_records_the_trial() {
    let tmp = tempdir();
    let job = tmp.path().join("job");
    let output = run(&[
        "--quiet",
        "--agent",
        "command:sh -c 'exit 4'",
        "--tasks",
        "twilio",
        "--job-dir",
        job.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("twilio"),
        "progress under --quiet: {stderr}"
    );
    assert!(output.stdout.is_empty(), "{}", text(&output));
    let crashed = result(&job, "twilio__0");
    assert_eq!(agent_status(&crashed), "crashed", "{crashed:#}");
}
