//! `terraform version`.

use super::{Flags, Io};
use crate::lockfile::{PROVIDER_VERSION, check_initialized};
use crate::state::TERRAFORM_VERSION;

pub(crate) fn run(io: &mut Io, flags: &Flags) -> i32 {
    let initialized = check_initialized(&io.cwd).is_ok();
    if flags.json {
        let mut providers = serde_json::Map::new();
        if initialized {
            providers.insert(
                "registry.terraform.io/airbytehq/airbyte".into(),
                PROVIDER_VERSION.into(),
            );
        }
        let v = serde_json::json!({
            "terraform_version": TERRAFORM_VERSION,
            "platform": "linux_amd64",
            "provider_selections": providers,
            "terraform_outdated": false,
        });
        io.print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        ));
        return 0;
    }
    io.print(&format!("Terraform v{TERRAFORM_VERSION}\non linux_amd64\n"));
    if initialized {
        io.print(&format!(
            "+ provider registry.terraform.io/airbytehq/airbyte v{PROVIDER_VERSION}\n"
        ));
    }
    0
}
