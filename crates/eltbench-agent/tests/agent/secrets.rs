//! The API key never reaches a command's environment or the trajectory; the
//! harness's PATH does reach commands, even through a login shell.

use std::os::unix::fs::PermissionsExt;

use eltbench_agent::{Outcome, write_trajectory};

use crate::mock_llm::{KEY, MockLlm, Reply};
use crate::{bash, context, openai_agent, run, terminate};

#[tokio::test]
async fn api_key_never_appears_in_the_bash_env_nor_the_trajectory() {
    let dir = tempfile::tempdir().unwrap();
    let workspace = dir.path().join("ws");
    let tools = dir.path().join("tools");
    std::fs::create_dir_all(&workspace).unwrap();
    std::fs::create_dir_all(&tools).unwrap();
    let fake = tools.join("terraform");
    std::fs::write(&fake, "#!/bin/sh\necho fake terraform \"$@\"\n").unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();

    let script = vec![
        Reply::text(bash("env > env.txt; env")),
        Reply::text(bash(&format!("terraform version; echo {KEY}"))),
        Reply::text(terminate("done")),
    ];
    let mock = MockLlm::start(script, None).await;
    let mut ctx = context(&workspace);
    let path = format!("{}:/usr/local/bin:/usr/bin:/bin", tools.display());
    ctx.env.insert("PATH".into(), path);
    ctx.env.insert("SAFE_SETTING".into(), "visible".into());
    ctx.env.insert("LEAKY_KEY".into(), KEY.into());
    let trajectory = run(&openai_agent(&mock, "m"), ctx).await;
    assert_eq!(
        trajectory.outcome,
        Outcome::Finished {
            answer: "done".into()
        }
    );

    let env = std::fs::read_to_string(workspace.join("env.txt")).unwrap();
    assert!(env.contains("SAFE_SETTING=visible"), "{env}");
    assert!(!env.contains(KEY) && !env.contains("LEAKY_KEY"), "{env}");
    assert!(env.contains(&format!("PATH={}", tools.display())), "{env}");

    let second = &trajectory.steps[1];
    assert!(
        second
            .observation
            .starts_with("fake terraform version\n[REDACTED]\n"),
        "{}",
        second.observation
    );
    assert!(second.response.contains("echo [REDACTED]"));

    let written = write_trajectory(dir.path(), &trajectory).unwrap();
    let json = std::fs::read_to_string(written).unwrap();
    assert!(!json.contains(KEY));
    assert!(json.contains("[REDACTED]"));
}
