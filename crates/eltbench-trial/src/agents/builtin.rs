//! `builtin:<provider>:<model>`: eltbench's ReAct agent
//! (`eltbench_agent::BuiltinAgent`) on an OpenAI-compatible or Anthropic API.
//! The base URL and key come from the environment ([`crate::LlmEnv`]); the
//! key goes to the HTTP client only, which also strips it from the agent's
//! command environment and from every text it records. Every Bash action
//! runs in the trial's sandbox ([`SandboxShell`]) with the sandbox's explicit
//! environment, and the sandbox's limits hold for the whole trial (a hit ends
//! it with status `limit`); the SQL and table actions open the warehouse from
//! the harness's side (they run no agent code).

use std::sync::Arc;

use eltbench_agent::llm::{AnthropicClient, ApiKey, LlmClient, OpenAiClient, RetryPolicy};
use eltbench_agent::{Agent, BuiltinAgent, Outcome};
use eltbench_harness::AgentStatus;
use eltbench_sandbox::Mode;

use super::record::status_of;
use super::shell::SandboxShell;
use super::{AgentInput, AgentRun, TrialAgent};
use crate::{LlmEnv, Provider, TrialError};

pub struct Builtin {
    agent: BuiltinAgent,
}

impl Builtin {
    pub fn new(spec: &str, provider: Provider, model: &str) -> Result<Self, TrialError> {
        let env = LlmEnv::read(provider);
        let mut retry = RetryPolicy::default();
        if let Some(n) = env.max_retries {
            retry.max_retries = n;
        }
        let key = ApiKey::new(env.api_key);
        let bad = |e: eltbench_agent::llm::ClientBuildError| TrialError::spec(spec, e.to_string());
        let client: Arc<dyn LlmClient> = match provider {
            Provider::OpenAi => Arc::new(
                OpenAiClient::new(&env.base_url, key, model)
                    .map_err(bad)?
                    .with_retry(retry),
            ),
            Provider::Anthropic => Arc::new(
                AnthropicClient::new(&env.base_url, key, model)
                    .map_err(bad)?
                    .with_retry(retry),
            ),
        };
        Ok(Self {
            agent: BuiltinAgent::new(client),
        })
    }
}

#[async_trait::async_trait]
impl TrialAgent for Builtin {
    async fn run(&self, input: AgentInput) -> AgentRun {
        let mut ctx = input.ctx;
        // A limit hit stops this agent only (never the job's token).
        ctx.cancel = ctx.cancel.child_token();
        let shell = Arc::new(SandboxShell::new(input.sandbox.clone(), ctx.cancel.clone()));
        ctx.env = input.sandbox.env.clone();
        ctx.shell = shell.clone();
        let mut trajectory = self.agent.run(ctx).await;
        let mode = shell.mode();
        let status = match shell.limit_hit() {
            Some((hit, detail)) => {
                let detail = format!("{detail}; the trial ended");
                let message = format!("limit: {} ({detail})", hit.name());
                trajectory.outcome = Outcome::Error { message };
                AgentStatus::Limit {
                    limit: hit.name().to_owned(),
                    detail,
                }
            }
            None => status_of(&trajectory.outcome),
        };
        AgentRun {
            status,
            trajectory,
            sandboxed: Some(mode == Mode::Bubblewrap),
            sandbox_mode: Some(mode.label()),
        }
    }
}
