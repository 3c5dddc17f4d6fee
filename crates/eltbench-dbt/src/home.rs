//! Where eltbench keeps what it installs once (the dbt virtualenv): the first of
//! `$ELTBENCH_HOME`, `$XDG_DATA_HOME/eltbench`, `$HOME/.local/share/eltbench`.
//!
//! Resolution only: nothing here creates a directory.

use std::path::PathBuf;

use crate::DbtError;

/// eltbench's home from the process environment.
pub fn default_home() -> Result<PathBuf, DbtError> {
    home_from(|name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()))
        .ok_or(DbtError::NoHome)
}

/// eltbench's home from an environment lookup; empty values count as unset.
pub fn home_from(lookup: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let get = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
    if let Some(home) = get("ELTBENCH_HOME") {
        return Some(PathBuf::from(home));
    }
    if let Some(data) = get("XDG_DATA_HOME") {
        return Some(PathBuf::from(data).join("eltbench"));
    }
    get("HOME").map(|home| PathBuf::from(home).join(".local/share/eltbench"))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn resolve(vars: &[(&str, &str)]) -> Option<PathBuf> {
        let map: BTreeMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        home_from(|name| map.get(name).cloned())
    }

    #[test]
    fn eltbench_home_wins() {
        let vars = [
            ("ELTBENCH_HOME", "/e"),
            ("XDG_DATA_HOME", "/x"),
            ("HOME", "/h"),
        ];
        assert_eq!(resolve(&vars), Some(PathBuf::from("/e")));
    }

    #[test]
    fn xdg_data_home_then_home() {
        let vars = [("XDG_DATA_HOME", "/x"), ("HOME", "/h")];
        assert_eq!(resolve(&vars), Some(PathBuf::from("/x/eltbench")));
        let vars = [
            ("ELTBENCH_HOME", ""),
            ("XDG_DATA_HOME", " "),
            ("HOME", "/h"),
        ];
        assert_eq!(
            resolve(&vars),
            Some(PathBuf::from("/h/.local/share/eltbench"))
        );
    }

    #[test]
    fn nothing_set_is_none() {
        assert_eq!(resolve(&[]), None);
    }
}
