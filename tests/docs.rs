//! The user's guide cannot drift from the engine: the README names every UCI option the
//! engine offers, every file and heading the README and the docs link to exists, and the
//! README stays a guide (at most 10 KB) and the docs reference (at most 60 KB a file,
//! 160 KB in all).

mod common;

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The targets of the Markdown links `[text](target)` in `text`.
fn link_targets(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &text[at + 2..];
            rest.find(')').map(|end| &rest[..end])
        })
        .collect()
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of the headings of a Markdown text (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            found.push(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// The relative links of the Markdown file at `path` that name no existing file, or a
/// heading that the file they name does not have.
fn broken_links(path: &Path) -> Vec<String> {
    let dir = path.parent().expect("a file in a folder");
    let text = read(path);
    let mut broken = Vec::new();
    for target in link_targets(&text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, heading) = target.split_once('#').unwrap_or((target, ""));
        let file = if file.is_empty() { path.to_path_buf() } else { dir.join(file) };
        if !file.exists() {
            broken.push(format!("{}: {target}", path.display()));
        } else if !heading.is_empty()
            && file.extension().is_some_and(|e| e == "md")
            && !anchors(&read(&file)).iter().any(|a| a == heading)
        {
            broken.push(format!("{}: {target} (no such heading)", path.display()));
        }
    }
    broken
}

#[cfg(not(feature = "tune"))] // A tuning build offers its search parameters too.
#[test]
fn the_readme_names_every_option_the_engine_offers() {
    let mut e = common::Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    let names: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .filter_map(|l| l.split(" type ").next())
        .collect();
    assert!(names.contains(&"Hash") && names.contains(&"Skill Level"), "{lines:?}");
    let readme = read(&root().join("README.md"));
    let missing: Vec<&&str> = names.iter().filter(|name| !readme.contains(&format!("`{name}`"))).collect();
    assert!(missing.is_empty(), "options the README does not name (in backticks): {missing:?}");
}

#[test]
fn every_file_the_readme_and_the_docs_link_to_exists() {
    let readme = root().join("README.md");
    let docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("a docs folder")
        .map(|entry| entry.expect("a docs entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    let readme_text = read(&readme);
    let linked = link_targets(&readme_text);
    for doc in &docs {
        let name = format!("docs/{}", doc.file_name().unwrap().to_string_lossy());
        assert!(linked.iter().any(|t| t.starts_with(&name)), "the README links to no {name}");
    }
    let broken: Vec<String> = std::iter::once(&readme).chain(&docs).flat_map(|p| broken_links(p)).collect();
    assert!(broken.is_empty(), "links to files that do not exist: {broken:?}");
}

#[test]
fn the_readme_is_a_guide_and_the_docs_are_reference_sized() {
    let size =
        |path: &Path| std::fs::metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).len();
    let readme = size(&root().join("README.md"));
    assert!(readme <= 10 * 1024, "README.md is {readme} bytes, more than 10 KB");
    let mut total = 0;
    for entry in std::fs::read_dir(root().join("docs")).expect("a docs folder") {
        let path = entry.expect("a docs entry").path();
        if path.extension().is_some_and(|ext| ext == "md") {
            let bytes = size(&path);
            assert!(bytes <= 60 * 1024, "{} is {bytes} bytes, more than 60 KB", path.display());
            total += bytes;
        }
    }
    assert!(total <= 160 * 1024, "docs/ holds {total} bytes of Markdown, more than 160 KB");
}

#[test]
fn anchors_are_github_s() {
    assert_eq!(
        anchor(" Playing levels: the rule and its calibration"),
        "playing-levels-the-rule-and-its-calibration"
    );
    assert_eq!(anchor("Scores and WDL"), "scores-and-wdl");
    assert_eq!(anchors("# A\n```\n# not\n```\n## B c"), ["a", "b-c"]);
}

#[test]
fn link_targets_are_read_from_markdown() {
    let text = "see [search](docs/search.md#steps) and ![chart](../benches/a.svg), not (this)";
    assert_eq!(link_targets(text), ["docs/search.md#steps", "../benches/a.svg"]);
}
