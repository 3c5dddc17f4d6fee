//! Integration tests of the builtin agent against a scripted LLM server that speaks
//! the real OpenAI and Anthropic HTTP protocols.

mod limits;
mod mock_llm;
mod protocols;
mod runs;
mod secrets;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use eltbench_agent::llm::{AnthropicClient, ApiKey, OpenAiClient, RetryPolicy};
use eltbench_agent::{Agent, AgentContext, BuiltinAgent, Trajectory};

use mock_llm::{KEY, MockLlm};

pub fn fast_retry() -> RetryPolicy {
    RetryPolicy {
        max_retries: 3,
        base_delay: Duration::from_millis(1),
        max_delay: Duration::from_millis(10),
        max_retry_after: Duration::from_millis(50),
    }
}

pub fn openai_agent(mock: &MockLlm, model: &str) -> BuiltinAgent {
    let client = OpenAiClient::new(&mock.openai_base(), ApiKey::new(KEY), model).unwrap();
    BuiltinAgent::new(Arc::new(client.with_retry(fast_retry())))
}

pub fn anthropic_agent(mock: &MockLlm, model: &str) -> BuiltinAgent {
    let client = AnthropicClient::new(&mock.anthropic_base(), ApiKey::new(KEY), model).unwrap();
    BuiltinAgent::new(Arc::new(client.with_retry(fast_retry())))
}

pub fn bash(code: &str) -> String {
    format!("Thought: run a command\nAction: Bash(code=\"\"\"{code}\"\"\")")
}

pub fn terminate(answer: &str) -> String {
    format!("Thought: all done\nAction: Terminate(answer=\"{answer}\")")
}

pub fn context(workspace: &Path) -> AgentContext {
    AgentContext::new(workspace, "Load the customers table and build the models.")
}

pub async fn run(agent: &BuiltinAgent, ctx: AgentContext) -> Trajectory {
    tokio::time::timeout(Duration::from_secs(60), agent.run(ctx))
        .await
        .expect("the run should end well within a minute")
}
