//! The user's guide cannot drift from the engine: the README names every UCI option the
//! engine offers, and every file the README and the docs link to exists.

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

/// The relative links of the Markdown file at `path` that name no existing file.
fn broken_links(path: &Path) -> Vec<String> {
    let dir = path.parent().expect("a file in a folder");
    link_targets(&read(path))
        .into_iter()
        .filter(|target| {
            !target.contains("://") && !target.starts_with('#') && !target.starts_with("mailto:")
        })
        .map(|target| target.split('#').next().unwrap_or(target))
        .filter(|file| !dir.join(file).exists())
        .map(|file| format!("{}: {file}", path.display()))
        .collect()
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
fn link_targets_are_read_from_markdown() {
    let text = "see [search](docs/search.md#steps) and ![chart](../benches/a.svg), not (this)";
    assert_eq!(link_targets(text), ["docs/search.md#steps", "../benches/a.svg"]);
}
