//! `terraform state list`: one resource instance address per line.

use super::{Io, load_state};

pub(crate) fn run(io: &mut Io) -> i32 {
    let state = match load_state(io) {
        Ok(s) => s,
        Err(code) => return code,
    };
    for (addr, ..) in state.instances() {
        io.print(&format!("{addr}\n"));
    }
    0
}
