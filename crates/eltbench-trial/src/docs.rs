//! The agent documentation (`docs/agent/*.md` of the repository), compiled in
//! so that an installed binary writes the same `documentation/` folder into
//! every workspace. Add a page here when one is added to `docs/agent/`.

/// `(file name, text)` of every page.
pub const PAGES: &[(&str, &str)] = &[
    ("README.md", include_str!("../../../docs/agent/README.md")),
    (
        "dbt_duckdb.md",
        include_str!("../../../docs/agent/dbt_duckdb.md"),
    ),
    (
        "duckdb_destination.md",
        include_str!("../../../docs/agent/duckdb_destination.md"),
    ),
    (
        "terraform_airbyte.md",
        include_str!("../../../docs/agent/terraform_airbyte.md"),
    ),
    (
        "triggering_syncs.md",
        include_str!("../../../docs/agent/triggering_syncs.md"),
    ),
];

#[cfg(test)]
mod tests {
    #[test]
    fn every_page_of_docs_agent_is_compiled_in() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/agent");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".md"))
            .collect();
        on_disk.sort();
        let compiled: Vec<&str> = super::PAGES.iter().map(|(n, _)| *n).collect();
        assert_eq!(on_disk, compiled, "docs/agent changed: update src/docs.rs");
    }
}
