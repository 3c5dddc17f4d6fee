//! The conversation the builtin agent sends: the first observation, then pairs of
//! (model reply, observation), cut to a window of recent turns that fits a
//! character budget (Spider-Agent keeps the last N turns the same way).
//!
//! The window always starts with a user message and alternates, as the Anthropic
//! API requires; the system prompt is sent separately and is never cut.

use crate::llm::{Message, Role};

#[derive(Debug, Clone)]
pub(crate) struct History {
    /// user, assistant, user, assistant, ..., user
    messages: Vec<Message>,
}

impl History {
    pub(crate) fn new(first_observation: String) -> Self {
        History {
            messages: vec![Message::user(first_observation)],
        }
    }

    /// Records the model's reply and the observation that followed it.
    pub(crate) fn push_turn(&mut self, reply: String, observation: String) {
        self.messages.push(Message::assistant(reply));
        self.messages.push(Message::user(observation));
    }

    /// The most recent messages holding at most `max_turns` replies and at most
    /// `max_chars` characters, but always the last observation.
    pub(crate) fn window(&self, max_turns: usize, max_chars: usize) -> Vec<Message> {
        let last = self.messages.len() - 1;
        let mut start = last;
        let mut chars = self.messages[last].content.chars().count();
        while start >= 2 && (last - start) / 2 < max_turns {
            let pair: usize = self.messages[start - 2..start]
                .iter()
                .map(|m| m.content.chars().count())
                .sum();
            if chars + pair > max_chars {
                break;
            }
            chars += pair;
            start -= 2;
        }
        debug_assert_eq!(self.messages[start].role, Role::User);
        self.messages[start..].to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(turns: usize) -> History {
        let mut h = History::new("obs0".into());
        for i in 1..=turns {
            h.push_turn(format!("reply{i}"), format!("obs{i}"));
        }
        h
    }

    fn contents(messages: &[Message]) -> Vec<&str> {
        messages.iter().map(|m| m.content.as_str()).collect()
    }

    #[test]
    fn everything_fits_when_short() {
        let w = history(2).window(10, 1000);
        assert_eq!(contents(&w), ["obs0", "reply1", "obs1", "reply2", "obs2"]);
    }

    #[test]
    fn turn_limit_keeps_the_most_recent_turns_starting_with_a_user_message() {
        let w = history(5).window(2, 1000);
        assert_eq!(contents(&w), ["obs3", "reply4", "obs4", "reply5", "obs5"]);
        assert_eq!(w[0].role, Role::User);
    }

    #[test]
    fn character_budget_drops_old_turns_but_keeps_the_last_observation() {
        let w = history(3).window(10, 14);
        assert_eq!(contents(&w), ["obs2", "reply3", "obs3"]);
        assert_eq!(contents(&history(3).window(10, 1)), ["obs3"]);
    }
}
