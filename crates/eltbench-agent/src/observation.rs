//! Truncation of observations to the character limit, with a marker that tells
//! the model how much it did not see.
//!
//! Counts characters, never bytes, so it never splits a UTF-8 sequence.

/// Returns `text` unchanged when it has at most `max_chars` characters; otherwise
/// its first `max_chars` characters followed by a marker line.
pub fn truncate_observation(text: &str, max_chars: usize) -> String {
    let Some((cut, _)) = text.char_indices().nth(max_chars) else {
        return text.to_owned();
    };
    let total = text.chars().count();
    format!(
        "{}\n[observation truncated: showing the first {max_chars} of {total} characters; \
         narrow the command (head, tail, grep, LIMIT) to see the rest]",
        &text[..cut]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_untouched() {
        assert_eq!(truncate_observation("héllo", 5), "héllo");
    }

    #[test]
    fn long_text_is_cut_on_a_char_boundary_with_a_marker() {
        let out = truncate_observation("ééééé", 2);
        assert!(out.starts_with("éé\n[observation truncated"));
        assert!(out.contains("first 2 of 5 characters"));
    }
}
