//! The agent-facing helper a trial workspace holds as `check_job_status` (the
//! original benchmark shipped `check_job_status.py`): a POSIX shell script that waits
//! for the latest sync job of every connection in `elt/terraform.tfstate` through
//! `eltbench airbyte wait`. Text only; writing it into a workspace is the trial's job.

/// The script, to be written as `<workspace>/check_job_status` with mode 0755. Extra
/// arguments go to `eltbench airbyte wait` (`--timeout 10m`, `--api URL`...).
pub const CHECK_JOB_STATUS: &str = r#"#!/bin/sh
# check_job_status: wait until the latest sync job of every Airbyte connection in
# elt/terraform.tfstate has finished, then print one line per connection:
#   <resource address> <connection id> job <id> <status> <rows> rows
# Exit status: 0 all succeeded, 1 some job failed, was cancelled or never started,
# 2 bad input (no terraform.tfstate: run `terraform apply` in elt/ first), 124 timeout.
# Start the syncs first (POST /jobs, see documentation/triggering_syncs.md); this
# script only waits. Options: --timeout 30m (default), --api URL, --user, --password.
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
if command -v eltbench >/dev/null 2>&1; then
    exec eltbench airbyte wait --dir "$here/elt" "$@"
elif [ -x "$here/bin/eltbench" ]; then
    exec "$here/bin/eltbench" airbyte wait --dir "$here/elt" "$@"
fi
echo "check_job_status: eltbench is not on PATH (expected in $here/bin)" >&2
exit 2
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_waits_on_the_workspace_elt_directory() {
        assert!(CHECK_JOB_STATUS.starts_with("#!/bin/sh\n"));
        assert!(CHECK_JOB_STATUS.contains("airbyte wait --dir \"$here/elt\" \"$@\""));
    }
}
