//! The job report as aligned plain-text tables for a terminal.
//!
//! Cells are made single-line (control characters become spaces) and cut
//! to a maximum width; widths count characters. No colour, no escapes.

use crate::aggregate::JobReport;
use crate::tables::{Align, Table, tables};

/// Cells longer than this are cut with `…`.
const MAX_CELL: usize = 60;

/// The report as plain text.
pub fn render_terminal(report: &JobReport) -> String {
    let mut out = format!(
        "{}\n{}\n",
        clean(&report.title),
        "=".repeat(width(&clean(&report.title)))
    );
    for table in tables(report) {
        out.push('\n');
        out.push_str(&render_table(&table));
    }
    out
}

fn render_table(table: &Table) -> String {
    let mut out = format!("{}\n", table.title);
    let header: Vec<String> = table.columns.iter().map(|(h, _)| (*h).to_owned()).collect();
    let rows: Vec<Vec<String>> = table
        .rows
        .iter()
        .map(|r| r.iter().map(|c| clean(c)).collect())
        .collect();
    let widths = column_widths(&header, &rows);
    let aligns: Vec<Align> = table.columns.iter().map(|(_, a)| *a).collect();
    out.push_str(&line(&header, &widths, &aligns));
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out.push_str(&line(&rule, &widths, &aligns));
    if rows.is_empty() {
        out.push_str("(none)\n");
    }
    for row in &rows {
        out.push_str(&line(row, &widths, &aligns));
    }
    out
}

fn column_widths(header: &[String], rows: &[Vec<String>]) -> Vec<usize> {
    let mut widths: Vec<usize> = header.iter().map(|h| width(h)).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(width(cell));
        }
    }
    widths
}

fn line(cells: &[String], widths: &[usize], aligns: &[Align]) -> String {
    let padded = cells
        .iter()
        .zip(widths)
        .zip(aligns)
        .map(|((cell, &w), align)| {
            let pad = " ".repeat(w.saturating_sub(width(cell)));
            match align {
                Align::Left => format!("{cell}{pad}"),
                Align::Right => format!("{pad}{cell}"),
            }
        });
    let joined = padded.collect::<Vec<_>>().join("  ");
    format!("{}\n", joined.trim_end())
}

fn width(text: &str) -> usize {
    text.chars().count()
}

/// One line, control characters as spaces, cut to [`MAX_CELL`].
fn clean(text: &str) -> String {
    let line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if width(&line) <= MAX_CELL {
        return line;
    }
    let cut: String = line.chars().take(MAX_CELL - 1).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_text_left_numbers_right_and_cleans_cells() {
        let mut table = Table {
            id: "t",
            title: "T",
            columns: vec![("name", Align::Left), ("n", Align::Right)],
            rows: vec![
                vec!["a\nb".into(), "1".into()],
                vec!["long".into(), "100".into()],
            ],
            note: "",
            links: Vec::new(),
        };
        let text = render_table(&table);
        assert_eq!(text, "T\nname    n\n----  ---\na b     1\nlong  100\n");
        table.rows = vec![vec!["x".repeat(100), "1".into()]];
        let text = render_table(&table);
        assert!(
            text.lines()
                .nth(3)
                .unwrap()
                .starts_with(&format!("{}…", "x".repeat(59)))
        );
    }
}
