//! The builtin agent: a Spider-Agent-style ReAct loop. Each step sends the system
//! prompt and a window of recent turns to the model, parses one action from the
//! reply, carries it out and feeds the (redacted, truncated) observation back,
//! until the model terminates or a limit stops the run.
//!
//! The API key stays inside the [`LlmClient`]: commands get an environment with
//! every value that contains it removed, and every text that reaches the
//! trajectory or the model passes through the client's redaction first.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;

use crate::actions::{Action, ActionBudget, Actions, command_env};
use crate::agent::{Agent, AgentContext};
use crate::history::History;
use crate::llm::{Completion, LlmClient, LlmRequest, PriceTable};
use crate::observation::truncate_observation;
use crate::parse::{Parsed, parse_response};
use crate::prompt::{PromptInputs, first_observation, format_reminder, system_prompt};
use crate::trajectory::{Outcome, Step, Totals, Trajectory};

/// Tuning of the loop (the budgets come from [`crate::Limits`]).
#[derive(Debug, Clone, PartialEq)]
pub struct BuiltinConfig {
    /// Upper bound on the tokens of one reply.
    pub max_tokens: u32,
    pub temperature: Option<f32>,
    /// Most recent turns sent with each request (Spider-Agent keeps 10).
    pub history_turns: usize,
    /// Character budget of those turns.
    pub history_chars: usize,
    /// Stop after this many unparseable replies in a row.
    pub max_consecutive_parse_errors: usize,
}

impl Default for BuiltinConfig {
    fn default() -> Self {
        BuiltinConfig {
            max_tokens: 4096,
            temperature: Some(0.5),
            history_turns: 10,
            history_chars: 200_000,
            max_consecutive_parse_errors: 5,
        }
    }
}

pub struct BuiltinAgent {
    llm: Arc<dyn LlmClient>,
    prices: PriceTable,
    config: BuiltinConfig,
}

impl BuiltinAgent {
    pub fn new(llm: Arc<dyn LlmClient>) -> Self {
        BuiltinAgent {
            llm,
            prices: PriceTable::builtin(),
            config: BuiltinConfig::default(),
        }
    }

    pub fn with_prices(mut self, prices: PriceTable) -> Self {
        self.prices = prices;
        self
    }

    pub fn with_config(mut self, config: BuiltinConfig) -> Self {
        self.config = config;
        self
    }
}

#[async_trait]
impl Agent for BuiltinAgent {
    fn name(&self) -> &str {
        "builtin"
    }

    async fn run(&self, ctx: AgentContext) -> Trajectory {
        let mut run = Run::new(self, ctx);
        let outcome = run.outcome().await;
        run.finish(outcome)
    }
}

/// The state of one run.
struct Run<'a> {
    agent: &'a BuiltinAgent,
    ctx: AgentContext,
    actions: Actions,
    history: History,
    trajectory: Trajectory,
    clock: Instant,
    parse_errors_in_a_row: usize,
}

/// What the model's reply led to.
struct Turn {
    thought: String,
    action: Option<Action>,
    parse_error: Option<String>,
    observation: String,
    finished: Option<Outcome>,
}

impl<'a> Run<'a> {
    fn new(agent: &'a BuiltinAgent, ctx: AgentContext) -> Self {
        let llm = &agent.llm;
        let env = command_env(&ctx.env, |value| llm.redact(value) != value);
        let actions = Actions::new(ctx.workspace.clone(), env, ctx.warehouse.clone())
            .with_shell(ctx.shell.clone());
        let system = system_prompt(&PromptInputs {
            workspace: &ctx.workspace,
            instruction: &ctx.instruction,
            max_steps: ctx.limits.max_steps,
            action_timeout: ctx.limits.action_timeout,
            warehouse: ctx.warehouse.as_deref(),
        });
        let trajectory = Trajectory {
            agent: agent.name().to_owned(),
            model: llm.model().to_owned(),
            provider: llm.provider().to_owned(),
            started_at: now(),
            instruction: llm.redact(&ctx.instruction),
            system_prompt: llm.redact(&system),
            steps: Vec::new(),
            outcome: Outcome::Cancelled,
            totals: Totals {
                priced: agent.prices.lookup(llm.model()).is_some(),
                ..Totals::default()
            },
        };
        Run {
            agent,
            history: History::new(first_observation(&ctx.workspace)),
            actions,
            ctx,
            trajectory,
            clock: Instant::now(),
            parse_errors_in_a_row: 0,
        }
    }

    async fn outcome(&mut self) -> Outcome {
        if !self.ctx.workspace.is_dir() {
            let message = format!(
                "the workspace {} is not a directory",
                self.ctx.workspace.display()
            );
            return Outcome::Error { message };
        }
        loop {
            if let Some(stop) = self.limit_reached() {
                return stop;
            }
            if let Some(end) = self.step().await {
                return end;
            }
        }
    }

    /// A budget that is used up before the next step.
    fn limit_reached(&self) -> Option<Outcome> {
        let limits = &self.ctx.limits;
        let totals = &self.trajectory.totals;
        if self.ctx.cancel.is_cancelled() {
            return Some(Outcome::Cancelled);
        }
        if limits.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Outcome::Timeout);
        }
        if let Some(limit) = limits
            .max_cost_usd
            .filter(|limit| totals.cost_usd >= *limit)
        {
            return Some(Outcome::CostLimit {
                limit_usd: limit,
                cost_usd: totals.cost_usd,
            });
        }
        if self.trajectory.steps.len() >= limits.max_steps {
            return Some(Outcome::StepLimit {
                max_steps: limits.max_steps,
            });
        }
        None
    }

    /// One model call and its action; `Some` when the run ends here.
    async fn step(&mut self) -> Option<Outcome> {
        let started_at = now();
        let clock = Instant::now();
        let completion = match self.call_model().await {
            Ok(completion) => completion,
            Err(end) => return Some(end),
        };
        let llm_ms = millis(clock.elapsed());
        let response = self.agent.llm.redact(&completion.text);
        let turn = self.act(&response).await;
        let cost = self.record_usage(&completion);
        let observation = truncate_observation(
            &self.agent.llm.redact(&turn.observation),
            self.ctx.limits.max_observation_chars,
        );
        self.history
            .push_turn(response.clone(), format!("Observation: {observation}"));
        self.trajectory.steps.push(Step {
            index: self.trajectory.steps.len(),
            started_at,
            duration_ms: millis(clock.elapsed()),
            llm_ms,
            thought: turn.thought,
            response,
            action: turn.action,
            observation,
            parse_error: turn.parse_error,
            input_tokens: completion.input_tokens,
            output_tokens: completion.output_tokens,
            cost_usd: cost,
        });
        turn.finished.or_else(|| self.too_many_parse_errors())
    }

    async fn call_model(&self) -> Result<Completion, Outcome> {
        let request = LlmRequest {
            system: self.trajectory.system_prompt.clone(),
            messages: self.history.window(
                self.agent.config.history_turns,
                self.agent.config.history_chars,
            ),
            max_tokens: self.agent.config.max_tokens,
            temperature: self.agent.config.temperature,
        };
        let deadline = self.ctx.limits.deadline;
        tokio::select! {
            () = self.ctx.cancel.cancelled() => Err(Outcome::Cancelled),
            () = sleep_until(deadline) => Err(Outcome::Timeout),
            result = self.agent.llm.complete(&request) => result.map_err(|err| Outcome::LlmError {
                status: err.status,
                message: self.agent.llm.redact(&err.to_string()),
            }),
        }
    }

    /// Parses the reply and carries out its action.
    async fn act(&mut self, response: &str) -> Turn {
        match parse_response(response) {
            Err(error) => {
                self.parse_errors_in_a_row += 1;
                Turn {
                    thought: response.trim().to_owned(),
                    action: None,
                    observation: format_reminder(&error),
                    parse_error: Some(error.0),
                    finished: None,
                }
            }
            Ok(Parsed { thought, action }) => {
                self.parse_errors_in_a_row = 0;
                let finished = match &action {
                    Action::Terminate { answer } => Some(Outcome::Finished {
                        answer: answer.clone(),
                    }),
                    _ => None,
                };
                let observation = self.actions.execute(&action, &self.budget()).await;
                Turn {
                    thought,
                    action: Some(action),
                    parse_error: None,
                    observation,
                    finished,
                }
            }
        }
    }

    /// The action timeout, shortened so no action outlives the deadline.
    fn budget(&self) -> ActionBudget {
        let limits = &self.ctx.limits;
        let left = limits.deadline.map_or(limits.action_timeout, |d| {
            d.saturating_duration_since(Instant::now())
        });
        ActionBudget {
            timeout: limits.action_timeout.min(left),
            cancel: self.ctx.cancel.clone(),
            max_chars: limits.max_observation_chars,
        }
    }

    fn record_usage(&mut self, completion: &Completion) -> f64 {
        let model = self.agent.llm.model();
        let (input, output) = (completion.input_tokens, completion.output_tokens);
        let cost = self.agent.prices.cost(model, input, output).unwrap_or(0.0);
        let totals = &mut self.trajectory.totals;
        totals.llm_calls += 1;
        totals.llm_retries += completion.retries;
        totals.input_tokens += input;
        totals.output_tokens += output;
        totals.cost_usd += cost;
        cost
    }

    fn too_many_parse_errors(&self) -> Option<Outcome> {
        let limit = self.agent.config.max_consecutive_parse_errors;
        (self.parse_errors_in_a_row >= limit).then_some(Outcome::ParseErrors {
            consecutive: self.parse_errors_in_a_row,
        })
    }

    fn finish(mut self, outcome: Outcome) -> Trajectory {
        self.trajectory.outcome = outcome;
        self.trajectory.totals.steps = self.trajectory.steps.len();
        self.trajectory.totals.duration_ms = millis(self.clock.elapsed());
        self.trajectory
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
