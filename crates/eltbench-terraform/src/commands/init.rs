//! `terraform init`: checks the provider requirement, writes the lock file
//! and provider cache, and prints Terraform's initialization text.

use super::Io;
use crate::config;
use crate::diagnostics::{self, Diagnostic};
use crate::lockfile::{self, PROVIDER_SOURCE, PROVIDER_VERSION};

pub(crate) fn run(io: &mut Io) -> i32 {
    let (module, diags) = config::load(&io.cwd);
    if diagnostics::has_errors(&diags) {
        io.print("\nInitializing the backend...\n");
        io.diags(&diags, &module.sources);
        return 1;
    }
    let (source, version) = lockfile::required_source(&module);
    let was_locked = io.cwd.join(lockfile::LOCK_FILE).exists();
    io.print("\nInitializing the backend...\n\nInitializing provider plugins...\n");
    let uses_airbyte = module
        .resources
        .iter()
        .any(|r| r.type_name.starts_with("airbyte_"))
        || module
            .required_providers
            .iter()
            .any(|r| r.local_name == "airbyte")
        || module.providers.iter().any(|p| p.labels[0] == "airbyte");
    if !uses_airbyte {
        io.print("\nTerraform has been successfully initialized!\n");
        return 0;
    }
    let shown = source
        .trim_start_matches("registry.terraform.io/")
        .to_lowercase();
    if was_locked && shown == PROVIDER_SOURCE {
        io.print(&format!(
            "- Reusing previous version of {PROVIDER_SOURCE} from the dependency lock file\n"
        ));
    } else {
        match &version {
            Some(c) => io.print(&format!("- Finding {shown} versions matching \"{c}\"...\n")),
            None => io.print(&format!("- Finding latest version of {shown}...\n")),
        }
    }
    if let Err(d) = lockfile::check_requirement(&source, version.as_deref()) {
        io.diags(&[*d], &module.sources);
        return 1;
    }
    if let Err(e) = lockfile::install(&io.cwd, version.as_deref()) {
        io.diags(
            &[Diagnostic::error(
                "Failed to install provider",
                e.to_string(),
            )],
            &module.sources,
        );
        return 1;
    }
    if was_locked {
        io.print(&format!(
            "- Using previously-installed {PROVIDER_SOURCE} v{PROVIDER_VERSION}\n"
        ));
    } else {
        io.print(&format!(
            "- Installing {PROVIDER_SOURCE} v{PROVIDER_VERSION}...\n- Installed {PROVIDER_SOURCE} v{PROVIDER_VERSION} (signed by a HashiCorp partner)\n\nPartner and community providers are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://www.terraform.io/docs/cli/plugins/signing.html\n\nTerraform has created a lock file .terraform.lock.hcl to record the provider\nselections it made above. Include this file in your version control repository\nso that Terraform can guarantee to make the same selections by default when\nyou run \"terraform init\" in the future.\n"
        ));
    }
    io.print(SUCCESS);
    0
}

const SUCCESS: &str = "
Terraform has been successfully initialized!

You may now begin working with Terraform. Try running \"terraform plan\" to see
any changes that are required for your infrastructure. All Terraform commands
should now work.

If you ever set or change modules or backend configuration for Terraform,
rerun this command to reinitialize your working directory. If you forget, other
commands will detect it and remind you to do so if necessary.
";
