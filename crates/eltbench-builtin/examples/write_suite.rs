//! Regenerates the built-in suite's generated files (data, configs, schemas,
//! row counts) under `suites/builtin/`, or under the directory given.

fn main() -> Result<(), eltbench_builtin::BuiltinError> {
    let root = std::env::args_os()
        .nth(1)
        .map(std::path::PathBuf::from)
        .unwrap_or_else(eltbench_builtin::default_root);
    let n = eltbench_builtin::write(&root)?;
    eprintln!("wrote {n} files under {}", root.display());
    Ok(())
}
