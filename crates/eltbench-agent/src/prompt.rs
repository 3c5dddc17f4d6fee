//! The text the builtin agent shows the model: the system prompt (role, action
//! space, reply format, task), the first observation and the reminder sent after a
//! reply that could not be parsed.
//!
//! Written for eltbench (not copied from Spider-Agent); it must describe exactly
//! the syntax [`crate::parse`] accepts.

use std::path::Path;
use std::time::Duration;

use crate::parse::ParseError;

/// What the system prompt is built from.
#[derive(Debug, Clone)]
pub struct PromptInputs<'a> {
    pub workspace: &'a Path,
    pub instruction: &'a str,
    pub max_steps: usize,
    pub action_timeout: Duration,
    /// The DuckDB warehouse; when `None` the SQL actions are left out.
    pub warehouse: Option<&'a Path>,
}

/// The system prompt for one run.
pub fn system_prompt(inputs: &PromptInputs<'_>) -> String {
    let workspace = inputs.workspace.display();
    let mut text = format!(
        "You are a data engineer who builds ELT pipelines: you extract data from sources, \
         load it into a warehouse and write transformation models on top of it.\n\
         You work in the folder {workspace}, which holds everything the task needs. \
         You act only through the actions listed below, one action per reply, and you have \
         at most {max} replies in total.\n\n# Actions\n",
        max = inputs.max_steps
    );
    text.push_str(&bash_description(inputs.action_timeout));
    text.push_str(FILE_ACTIONS);
    if let Some(warehouse) = inputs.warehouse {
        text.push_str(&sql_description(warehouse));
    }
    text.push_str(TERMINATE);
    text.push_str(GUIDELINES);
    text.push_str(REPLY_FORMAT);
    text.push_str("\n# Task\n");
    text.push_str(inputs.instruction.trim());
    text.push('\n');
    text
}

/// The observation the first request carries.
pub fn first_observation(workspace: &Path) -> String {
    format!(
        "Observation: You are in {}. Nothing has been run yet; start by looking around.",
        workspace.display()
    )
}

/// The observation after a reply that could not be parsed.
pub fn format_reminder(error: &ParseError) -> String {
    format!(
        "Your reply could not be parsed: {error}.\nReply with one thought and exactly one \
         action, in this form:\n\nThought: <your reasoning>\nAction: Bash(code=\"\"\"ls -la\"\"\")\n\n\
         Use one of the actions described in the system prompt, with its exact name and \
         arguments."
    )
}

fn bash_description(timeout: Duration) -> String {
    format!(
        "\n## Bash\nSignature: Bash(code=\"\"\"<shell commands>\"\"\")\n\
         Runs the commands with bash in the workspace folder. Every call starts a fresh \
         shell: `cd` and variables do not carry over to the next call. Only non-interactive \
         commands work (no editors, pagers or prompts). You see stdout and stderr together, \
         then the exit code. A call that runs longer than {} s is killed.\n\
         Example: Bash(code=\"\"\"ls -la && cat config.yaml\"\"\")\n",
        timeout.as_secs()
    )
}

const FILE_ACTIONS: &str = "\n## CreateFile\nSignature:\nCreateFile(filepath=\"<path>\"):\n```\n<the whole file content>\n```\n\
Creates a new file with the content of the fenced block; relative paths are inside the \
workspace and missing folders are created. It refuses to overwrite an existing file.\n\
Example:\nCreateFile(filepath=\"models/orders.sql\"):\n```\nselect * from {{ source('shop', 'orders') }}\n```\n\
\n## EditFile\nSignature:\nEditFile(filepath=\"<path>\"):\n```\n<the whole new content>\n```\n\
Replaces the entire content of a file with the fenced block; nothing of the old content \
is kept, so read the file first and write it out completely.\n";

fn sql_description(warehouse: &Path) -> String {
    format!(
        "\n## SQL\nSignature: SQL(query=\"\"\"<SQL statements>\"\"\")\n\
         Runs SQL on the DuckDB warehouse {}. Separate several statements with `;`; the \
         result of the last one is shown as CSV (header line first).\n\
         Example: SQL(query=\"\"\"SELECT count(*) FROM airbyte_schema.customers\"\"\")\n\
         \n## ListTables\nSignature: ListTables()\nLists every table and view in the warehouse \
         with its database and schema.\n\
         \n## TableInfo\nSignature: TableInfo(table=\"<schema.table>\")\nShows the columns of \
         one table with their types.\n\
         \n## SampleRows\nSignature: SampleRows(table=\"<schema.table>\", rows=5)\nShows the \
         first rows of one table.\n",
        warehouse.display()
    )
}

const TERMINATE: &str = "\n## Terminate\nSignature: Terminate(answer=\"<short summary>\")\n\
Ends the run. Use it when the task is complete and checked, or when you are sure you \
cannot make further progress; say which in the answer.\n";

const GUIDELINES: &str = "\n# How to work\n\
- Read the task files and any documentation in the workspace before changing anything.\n\
- Check the result of every action; when a command fails, read the error and change \
  your approach instead of repeating the same command.\n\
- Verify your work (for example, count the rows that landed and query the models you \
  built) before you terminate.\n\
- Long outputs are cut; narrow them with head, grep or LIMIT.\n";

const REPLY_FORMAT: &str = "\n# Reply format\nEvery reply has exactly two parts:\n\
Thought: <what you learned from the last observation and what you will do next>\n\
Action: <one action from the list above>\n\
Do not write the observation yourself; it comes back after the action has run.\n";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{ACTION_NAMES, parse_response};

    fn inputs(warehouse: Option<&Path>) -> PromptInputs<'_> {
        PromptInputs {
            workspace: Path::new("/ws"),
            instruction: "Build the pipeline.",
            max_steps: 30,
            action_timeout: Duration::from_secs(200),
            warehouse,
        }
    }

    #[test]
    fn every_action_is_described_when_a_warehouse_exists() {
        let text = system_prompt(&inputs(Some(Path::new("/ws/wh.duckdb"))));
        for name in ACTION_NAMES {
            assert!(
                text.contains(&format!("Signature: {name}("))
                    || text.contains(&format!("\n{name}(")),
                "{name}"
            );
        }
        assert!(text.contains("at most 30 replies") && text.contains("200 s"));
        assert!(text.ends_with("# Task\nBuild the pipeline.\n"));
    }

    #[test]
    fn sql_actions_are_left_out_without_a_warehouse() {
        let text = system_prompt(&inputs(None));
        assert!(!text.contains("SQL(query="));
        assert!(!text.contains("ListTables"));
    }

    #[test]
    fn documented_examples_parse() {
        let text = system_prompt(&inputs(Some(Path::new("/ws/wh.duckdb"))));
        let examples: Vec<&str> = text.split("Example:").skip(1).collect();
        assert_eq!(examples.len(), 3);
        for example in examples {
            let section = example.split("\n\n").next().unwrap();
            let reply = format!("Thought: t\nAction: {}", section.trim());
            assert!(parse_response(&reply).is_ok(), "{reply}");
        }
        let reminder = format_reminder(&ParseError("x".into()));
        let sample = reminder.split("\n\n").nth(1).unwrap();
        assert!(parse_response(sample).is_ok(), "{sample}");
    }
}
