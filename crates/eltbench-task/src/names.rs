//! Name matching: case-insensitive lookups (the original upper-cased names
//! on Snowflake, so `airlines` and `Airlines` are one table), "did you
//! mean" suggestions, and sorted directory listings.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::SuiteError;

/// The entry whose key is `key`, else the first whose key equals it
/// ignoring ASCII case.
pub fn get_ci<'a, V>(map: &'a BTreeMap<String, V>, key: &str) -> Option<(&'a String, &'a V)> {
    map.get_key_value(key)
        .or_else(|| map.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)))
}

/// Up to five of `candidates` close to `name` (by edit distance, or one
/// containing the other), closest first.
pub fn near_names<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let wanted = name.to_ascii_lowercase();
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter_map(|c| {
            let lower = c.to_ascii_lowercase();
            let distance = edit_distance(&wanted, &lower);
            let contains = lower.contains(&wanted) || wanted.contains(&lower);
            (distance <= wanted.len().max(3) / 3 || contains).then_some((distance, c))
        })
        .collect();
    scored.sort();
    scored
        .into_iter()
        .take(5)
        .map(|(_, c)| c.to_owned())
        .collect()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// The entries of a directory as `(file name, path)`, sorted by name;
/// names that are not UTF-8 are skipped.
pub(crate) fn list_dir(dir: &Path) -> Result<Vec<(String, PathBuf)>, SuiteError> {
    let entries = std::fs::read_dir(dir).map_err(|e| SuiteError::io(dir, e))?;
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| SuiteError::io(dir, e))?;
        if let Ok(name) = entry.file_name().into_string() {
            found.push((name, entry.path()));
        }
    }
    found.sort();
    Ok(found)
}

/// `dir/<stem>.<ext>` if it exists, else a file in `dir` whose name matches
/// ignoring ASCII case.
pub(crate) fn find_file_ci(dir: &Path, stem: &str, ext: &str) -> Option<PathBuf> {
    let wanted = format!("{stem}.{ext}");
    let exact = dir.join(&wanted);
    if exact.is_file() {
        return Some(exact);
    }
    let entries = list_dir(dir).ok()?;
    entries
        .into_iter()
        .find(|(name, path)| name.eq_ignore_ascii_case(&wanted) && path.is_file())
        .map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_key_wins_over_case_insensitive() {
        let map: BTreeMap<String, u8> = [("Orders".to_owned(), 1), ("orders".to_owned(), 2)].into();
        assert_eq!(get_ci(&map, "orders").map(|(_, v)| *v), Some(2));
        assert_eq!(get_ci(&map, "ORDERS").map(|(_, v)| *v), Some(1));
        assert_eq!(get_ci(&map, "order"), None);
    }

    #[test]
    fn near_names_ranks_by_distance() {
        let names = ["amplitude", "asana", "apple_store", "app_store", "xero"];
        assert_eq!(
            near_names("aple_store", names),
            ["apple_store", "app_store"]
        );
        assert_eq!(near_names("amp", names), ["amplitude"]);
        assert!(near_names("zzzzzz", names).is_empty());
    }

    #[test]
    fn finds_files_ignoring_case() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Airlines.csv"), "").unwrap();
        assert_eq!(
            find_file_ci(dir.path(), "airlines", "csv"),
            Some(dir.path().join("Airlines.csv"))
        );
        assert_eq!(find_file_ci(dir.path(), "airline", "csv"), None);
    }
}
