//! The job report as Markdown (`report.md`): a title, one section per
//! table with its note, pipe tables.
//!
//! Every cell is escaped so data can neither break a table nor inject HTML
//! or Markdown formatting. Output is deterministic.

use crate::aggregate::JobReport;
use crate::tables::{Align, Table, tables};

/// The report as Markdown.
pub fn render_markdown(report: &JobReport) -> String {
    let mut out = format!("# {}\n", escape(&report.title));
    for table in tables(report) {
        out.push('\n');
        out.push_str(&render_table(&table));
    }
    out
}

fn render_table(table: &Table) -> String {
    let mut out = format!("## {}\n\n", table.title);
    if !table.note.is_empty() {
        out.push_str(&format!("{}\n\n", table.note));
    }
    if table.rows.is_empty() {
        out.push_str("(none)\n");
        return out;
    }
    let header: Vec<&str> = table.columns.iter().map(|(h, _)| *h).collect();
    out.push_str(&format!("| {} |\n", header.join(" | ")));
    let rule: Vec<&str> = table
        .columns
        .iter()
        .map(|(_, a)| match a {
            Align::Left => "---",
            Align::Right => "---:",
        })
        .collect();
    out.push_str(&format!("| {} |\n", rule.join(" | ")));
    for row in &table.rows {
        let cells: Vec<String> = row.iter().map(|c| escape(c)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

/// Escapes text for a Markdown table cell or heading: one line, HTML
/// special characters as entities, Markdown punctuation backslashed.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '|' | '*' | '_' | '`' | '[' | ']' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_pipes_html_and_newlines() {
        assert_eq!(escape("a|b<script>\nc_d"), "a\\|b&lt;script&gt; c\\_d");
    }
}
