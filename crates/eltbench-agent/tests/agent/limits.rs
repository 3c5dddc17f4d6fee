//! Limits: steps, cost, per-action timeout, deadline, cancellation, parse errors.

use std::time::{Duration, Instant};

use eltbench_agent::{BuiltinConfig, Outcome};

use crate::mock_llm::{MockLlm, Reply};
use crate::{bash, context, openai_agent, run, terminate};

#[tokio::test]
async fn step_limit_stops_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let mock = MockLlm::start(vec![], Some(Reply::text(bash("echo again")))).await;
    let mut ctx = context(dir.path());
    ctx.limits.max_steps = 3;
    let trajectory = run(&openai_agent(&mock, "m"), ctx).await;
    assert_eq!(trajectory.outcome, Outcome::StepLimit { max_steps: 3 });
    assert_eq!(trajectory.steps.len(), 3);
    assert_eq!(mock.requests().len(), 3);
}

#[tokio::test]
async fn cost_limit_stops_a_priced_model() {
    let dir = tempfile::tempdir().unwrap();
    // gpt-4o: 2.50 + 10.00 USD per 1M tokens -> 0.25 + 0.10 per step.
    let mock = MockLlm::start(
        vec![],
        Some(Reply::priced(bash("echo spend"), 100_000, 10_000)),
    )
    .await;
    let mut ctx = context(dir.path());
    ctx.limits.max_cost_usd = Some(0.5);
    let trajectory = run(&openai_agent(&mock, "gpt-4o-2024-08-06"), ctx).await;
    let Outcome::CostLimit {
        limit_usd,
        cost_usd,
    } = trajectory.outcome
    else {
        panic!("unexpected outcome {:?}", trajectory.outcome);
    };
    assert_eq!(limit_usd, 0.5);
    assert!((cost_usd - 0.70).abs() < 1e-9, "{cost_usd}");
    assert_eq!(trajectory.steps.len(), 2);
    assert!((trajectory.steps[0].cost_usd - 0.35).abs() < 1e-9);
    assert!(trajectory.totals.priced);
}

fn process_is_gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // A zombie waiting for a reaper no longer runs.
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

#[tokio::test]
async fn action_timeout_kills_the_whole_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let script = vec![
        Reply::text(bash(
            "sleep 1000 & echo $! > bg.pid; echo started; sleep 1000",
        )),
        Reply::text(terminate("gave up")),
    ];
    let mock = MockLlm::start(script, None).await;
    let mut ctx = context(dir.path());
    ctx.limits.action_timeout = Duration::from_secs(1);
    let started = Instant::now();
    let trajectory = run(&openai_agent(&mock, "m"), ctx).await;

    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        trajectory.outcome,
        Outcome::Finished {
            answer: "gave up".into()
        }
    );
    let observation = &trajectory.steps[0].observation;
    assert!(
        observation.starts_with("started\n[timeout: the command was still running after 1 s"),
        "{observation}"
    );
    let pid = std::fs::read_to_string(dir.path().join("bg.pid")).unwrap();
    let pid = pid.trim();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !process_is_gone(pid) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        process_is_gone(pid),
        "background sleep {pid} survived the timeout"
    );
}

#[tokio::test]
async fn deadline_cuts_a_running_command_and_ends_with_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let mock = MockLlm::start(vec![], Some(Reply::text(bash("sleep 1000")))).await;
    let mut ctx = context(dir.path());
    ctx.limits.deadline = Some(Instant::now() + Duration::from_secs(1));
    let started = Instant::now();
    let trajectory = run(&openai_agent(&mock, "m"), ctx).await;
    assert_eq!(trajectory.outcome, Outcome::Timeout);
    assert_eq!(trajectory.steps.len(), 1);
    assert!(trajectory.steps[0].observation.contains("[timeout:"));
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn cancellation_kills_the_command_and_ends_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let mock = MockLlm::start(vec![], Some(Reply::text(bash("sleep 1000")))).await;
    let ctx = context(dir.path());
    let cancel = ctx.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(500)).await;
        cancel.cancel();
    });
    let started = Instant::now();
    let trajectory = run(&openai_agent(&mock, "m"), ctx).await;
    assert_eq!(trajectory.outcome, Outcome::Cancelled);
    assert!(trajectory.steps[0].observation.contains("[cancelled:"));
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn endless_malformed_replies_stop_after_the_configured_count() {
    let dir = tempfile::tempdir().unwrap();
    let mock = MockLlm::start(vec![], Some(Reply::text("no idea"))).await;
    let config = BuiltinConfig {
        max_consecutive_parse_errors: 2,
        ..BuiltinConfig::default()
    };
    let agent = openai_agent(&mock, "m").with_config(config);
    let trajectory = run(&agent, context(dir.path())).await;
    assert_eq!(trajectory.outcome, Outcome::ParseErrors { consecutive: 2 });
    assert_eq!(trajectory.steps.len(), 2);
}

#[tokio::test]
async fn long_observations_are_truncated_with_a_marker() {
    let dir = tempfile::tempdir().unwrap();
    let script = vec![
        Reply::text(bash("seq 1 100000")),
        Reply::text(terminate("ok")),
    ];
    let mock = MockLlm::start(script, None).await;
    let mut ctx = context(dir.path());
    ctx.limits.max_observation_chars = 100;
    let trajectory = run(&openai_agent(&mock, "m"), ctx).await;
    let observation = &trajectory.steps[0].observation;
    assert!(observation.starts_with("1\n2\n3\n"));
    assert!(
        observation.contains("\n[observation truncated: showing the first 100 of"),
        "{observation}"
    );
    let sent = mock.requests()[1].body["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(
        sent["content"].as_str().unwrap(),
        format!("Observation: {observation}")
    );
}
