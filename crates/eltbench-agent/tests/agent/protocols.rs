//! The providers' HTTP protocols, retries and failures.

use std::sync::Arc;

use eltbench_agent::llm::{ApiKey, OpenAiClient, REDACTED};
use eltbench_agent::{BuiltinAgent, Outcome};

use crate::mock_llm::{KEY, MockLlm, Reply};
use crate::{anthropic_agent, bash, context, fast_retry, openai_agent, run, terminate};

#[tokio::test]
async fn anthropic_messages_protocol_with_an_overloaded_retry() {
    let dir = tempfile::tempdir().unwrap();
    let script = vec![
        Reply::priced(bash("echo hi"), 1_000_000, 0),
        Reply::Error {
            status: 529,
            retry_after: None,
        },
        Reply::priced(terminate("done"), 0, 1_000_000),
    ];
    let mock = MockLlm::start(script, None).await;
    let trajectory = run(
        &anthropic_agent(&mock, "claude-sonnet-4-5-20250929"),
        context(dir.path()),
    )
    .await;

    assert_eq!(
        trajectory.outcome,
        Outcome::Finished {
            answer: "done".into()
        }
    );
    assert_eq!(trajectory.provider, "anthropic");
    assert_eq!(trajectory.steps[0].observation, "hi\n[exit code: 0]");
    assert_eq!(trajectory.totals.llm_retries, 1);
    assert!(trajectory.totals.priced);
    assert!(
        (trajectory.totals.cost_usd - 18.0).abs() < 1e-9,
        "{}",
        trajectory.totals.cost_usd
    );
    let requests = mock.requests();
    assert_eq!(requests.len(), 3);
    for request in &requests {
        assert_eq!(request.headers["x-api-key"], KEY);
        assert_eq!(request.headers["anthropic-version"], "2023-06-01");
        assert!(!request.headers.contains_key("authorization"));
        assert_eq!(request.body["model"], "claude-sonnet-4-5-20250929");
        assert!(
            request.body["system"]
                .as_str()
                .unwrap()
                .contains("Load the customers table")
        );
        assert_eq!(request.body["messages"][0]["role"], "user");
    }
    assert_eq!(requests[2].body["messages"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn rate_limited_twice_then_success_is_retried() {
    let dir = tempfile::tempdir().unwrap();
    let script = vec![
        Reply::Error {
            status: 429,
            retry_after: Some("0"),
        },
        Reply::Error {
            status: 429,
            retry_after: Some("0"),
        },
        Reply::text(terminate("ok")),
    ];
    let mock = MockLlm::start(script, None).await;
    let trajectory = run(&openai_agent(&mock, "m"), context(dir.path())).await;
    assert_eq!(
        trajectory.outcome,
        Outcome::Finished {
            answer: "ok".into()
        }
    );
    assert_eq!(trajectory.totals.llm_retries, 2);
    assert_eq!(trajectory.totals.llm_calls, 1);
    assert_eq!(mock.requests().len(), 3);
}

#[tokio::test]
async fn server_error_forever_records_an_llm_error_after_the_retries() {
    let dir = tempfile::tempdir().unwrap();
    let mock = MockLlm::start(
        vec![],
        Some(Reply::Error {
            status: 500,
            retry_after: None,
        }),
    )
    .await;
    let trajectory = run(&openai_agent(&mock, "m"), context(dir.path())).await;
    match &trajectory.outcome {
        Outcome::LlmError { status, message } => {
            assert_eq!(*status, Some(500));
            assert!(message.contains("after 4 attempt(s)"), "{message}");
            assert!(message.contains("/v1/chat/completions"), "{message}");
        }
        other => panic!("unexpected outcome {other:?}"),
    }
    assert!(trajectory.steps.is_empty());
    assert_eq!(mock.requests().len(), 1 + fast_retry().max_retries as usize);
}

#[tokio::test]
async fn a_rejected_key_fails_at_once_and_is_redacted_from_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let mock = MockLlm::start(vec![Reply::text(terminate("never"))], None).await;
    let wrong = "sk-wrong-key-000111222333";
    let client = OpenAiClient::new(&mock.openai_base(), ApiKey::new(wrong), "m").unwrap();
    let agent = BuiltinAgent::new(Arc::new(client.with_retry(fast_retry())));
    let trajectory = run(&agent, context(dir.path())).await;
    let Outcome::LlmError { status, message } = &trajectory.outcome else {
        panic!("unexpected outcome {:?}", trajectory.outcome);
    };
    assert_eq!(*status, Some(401));
    assert!(
        message.contains(&format!("Incorrect API key provided: {REDACTED}")),
        "{message}"
    );
    assert!(!serde_json::to_string(&trajectory).unwrap().contains(wrong));
    assert_eq!(mock.requests().len(), 1);
}
