//! `terraform fmt [-check]`: rewrites (or lists) `.tf` and `.tfvars` files
//! that are not in canonical layout. `-check` exits 3 when any would change.

use super::{Flags, Io};
use crate::fmt::format_source;

pub(crate) fn run(io: &mut Io, flags: &Flags) -> i32 {
    let mut names: Vec<String> = std::fs::read_dir(&io.cwd)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.retain(|n| n.ends_with(".tf") || n.ends_with(".tfvars"));
    names.sort();
    let mut changed = false;
    for name in names {
        let path = io.cwd.join(&name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let formatted = format_source(&text);
        if formatted == text {
            continue;
        }
        changed = true;
        io.print(&format!("{name}\n"));
        if !flags.check && std::fs::write(&path, formatted).is_err() {
            io.print(&format!("Failed to write {name}\n"));
            return 1;
        }
    }
    if flags.check && changed { 3 } else { 0 }
}
