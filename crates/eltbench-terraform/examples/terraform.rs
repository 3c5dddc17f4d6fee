//! Runs the emulated `terraform` in the current directory, e.g.
//! `cargo run -p eltbench-terraform --example terraform -- plan`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let code = eltbench_terraform::main_with_args(
        args,
        &cwd,
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    );
    std::process::exit(code);
}
