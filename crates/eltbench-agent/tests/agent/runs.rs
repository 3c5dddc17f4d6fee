//! Whole runs: files, Bash, SQL on a DuckDB warehouse, termination, parse errors.

use eltbench_agent::{Action, Outcome, Trajectory, write_trajectory};

use crate::mock_llm::{KEY, MockLlm, Reply};
use crate::{bash, context, openai_agent, run, terminate};

fn warehouse(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("warehouse.duckdb");
    let conn = duckdb::Connection::open(&path).unwrap();
    conn.execute_batch(
        "CREATE SCHEMA airbyte_schema;
         CREATE TABLE airbyte_schema.customers(id INTEGER, name VARCHAR);
         INSERT INTO airbyte_schema.customers VALUES (1, 'a'), (2, 'b'), (3, 'c');",
    )
    .unwrap();
    path
}

#[tokio::test]
async fn scripted_run_creates_a_file_runs_bash_and_sql_then_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let workspace = dir.path().join("ws");
    std::fs::create_dir(&workspace).unwrap();
    let script = vec![
        Reply::text(
            "Thought: write a file\nAction: CreateFile(filepath=\"elt/hello.txt\"):\n```\nhello from the agent\n```",
        ),
        Reply::text(bash("cat elt/hello.txt && ls elt")),
        Reply::text(
            "Thought: count\nAction: SQL(query=\"\"\"SELECT count(*) AS n FROM airbyte_schema.customers\"\"\")",
        ),
        Reply::text("Thought: columns\nAction: TableInfo(table=\"airbyte_schema.customers\")"),
        Reply::text(terminate("pipeline built")),
    ];
    let mock = MockLlm::start(script, None).await;
    let mut ctx = context(&workspace);
    ctx.warehouse = Some(warehouse(dir.path()));
    let trajectory = run(&openai_agent(&mock, "test-model"), ctx).await;

    assert_eq!(
        trajectory.outcome,
        Outcome::Finished {
            answer: "pipeline built".into()
        }
    );
    let observations: Vec<&str> = trajectory
        .steps
        .iter()
        .map(|s| s.observation.as_str())
        .collect();
    assert_eq!(observations[0], "Created elt/hello.txt (21 bytes).");
    assert_eq!(
        observations[1],
        "hello from the agent\nhello.txt\n[exit code: 0]"
    );
    assert_eq!(observations[2], "n\n3\n(1 row)");
    assert!(
        observations[3].contains("customers,id,INTEGER,YES"),
        "{}",
        observations[3]
    );
    assert_eq!(
        std::fs::read_to_string(workspace.join("elt/hello.txt")).unwrap(),
        "hello from the agent\n"
    );
    assert_eq!(
        trajectory.steps[1].action,
        Some(Action::Bash {
            code: "cat elt/hello.txt && ls elt".into()
        })
    );
    assert_eq!(trajectory.steps[1].thought, "run a command");
    assert!(trajectory.steps.iter().all(|s| s.parse_error.is_none()));
    assert_eq!(
        (
            trajectory.totals.steps,
            trajectory.totals.llm_calls,
            trajectory.totals.input_tokens,
            trajectory.totals.output_tokens
        ),
        (5, 5, 500, 100)
    );
    assert!(!trajectory.totals.priced);
    assert_eq!(trajectory.totals.cost_usd, 0.0);
    assert_eq!(
        (trajectory.agent.as_str(), trajectory.provider.as_str()),
        ("builtin", "openai")
    );

    let requests = mock.requests();
    assert_eq!(requests.len(), 5);
    for request in &requests {
        assert_eq!(request.headers["authorization"], format!("Bearer {KEY}"));
        assert_eq!(request.body["model"], "test-model");
        assert_eq!(request.body["messages"][0]["role"], "system");
    }
    let system = requests[0].body["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("Load the customers table") && system.contains("SQL(query="));
    let second = requests[1].body["messages"].as_array().unwrap();
    assert_eq!(
        second.last().unwrap()["content"],
        "Observation: Created elt/hello.txt (21 bytes)."
    );

    let path = write_trajectory(dir.path(), &trajectory).unwrap();
    let back: Trajectory = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(back, trajectory);
}

#[tokio::test]
async fn malformed_output_is_a_parse_error_step_and_the_loop_continues() {
    let dir = tempfile::tempdir().unwrap();
    let script = vec![
        Reply::text("I think I should look around first."),
        Reply::text(bash("echo recovered")),
        Reply::text(terminate("ok")),
    ];
    let mock = MockLlm::start(script, None).await;
    let trajectory = run(&openai_agent(&mock, "test-model"), context(dir.path())).await;

    assert_eq!(
        trajectory.outcome,
        Outcome::Finished {
            answer: "ok".into()
        }
    );
    let first = &trajectory.steps[0];
    assert_eq!(first.action, None);
    assert!(
        first
            .parse_error
            .as_deref()
            .unwrap()
            .contains("no action found")
    );
    assert!(
        first
            .observation
            .contains("Thought: <your reasoning>\nAction: Bash(")
    );
    assert_eq!(trajectory.steps[1].observation, "recovered\n[exit code: 0]");
    let requests = mock.requests();
    let last = requests[1].body["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert!(
        last["content"]
            .as_str()
            .unwrap()
            .contains("could not be parsed")
    );
}

#[tokio::test]
async fn workspace_that_does_not_exist_is_an_error_outcome_without_model_calls() {
    let mock = MockLlm::start(vec![], None).await;
    let ctx = context(std::path::Path::new("/nonexistent/ws"));
    let trajectory = run(&openai_agent(&mock, "m"), ctx).await;
    assert!(
        matches!(&trajectory.outcome, Outcome::Error { message } if message.contains("/nonexistent/ws"))
    );
    assert!(mock.requests().is_empty());
}
