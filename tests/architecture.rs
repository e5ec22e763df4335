//! The crate's top-level modules depend on each other without a cycle: reading them in
//! some order, each uses only modules read before it (`score` and `rng` first, `engine`
//! and `tools` last). The check reads every `crate::` path in `src/`, tests included.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The first identifier of each top-level item of a `{...}` use group (`{a, b::{c}}`: a, b).
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let (mut depth, mut item) = (0, String::new());
    for ch in group.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => heads.push(std::mem::take(&mut item)),
            _ => {}
        }
        if depth == 0 && ch != ',' {
            item.push(ch);
        }
    }
    heads.push(item);
    heads.iter().filter_map(|i| ident(i.trim_start())).collect()
}

/// The identifier at the start of `text`, if there is one.
fn ident(text: &str) -> Option<String> {
    let name: String = text.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (!name.is_empty()).then_some(name)
}

/// The top-level modules a source file names through `crate::`.
fn uses(source: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in source.match_indices("crate::") {
        let rest = &source[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut end) = (1, 0);
            for (i, ch) in group.char_indices() {
                depth += match ch {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                if depth == 0 {
                    end = i;
                    break;
                }
            }
            found.extend(group_heads(&group[..end]));
        } else if let Some(name) = ident(rest) {
            found.insert(name);
        }
    }
    found
}

/// Every `.rs` file below `dir`.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Top-level module -> the other top-level modules it uses.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap().as_os_str().to_string_lossy().to_string();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let used = uses(&std::fs::read_to_string(&file).unwrap());
        graph.entry(module.clone()).or_default().extend(used.into_iter().filter(|m| *m != module));
    }
    graph
}

#[test]
fn the_top_level_modules_form_no_cycle() {
    let mut graph = module_graph();
    assert!(graph.len() >= 10, "the modules were found: {graph:?}");
    assert!(graph["search"].contains("tt") && graph["tt"].contains("score"), "{graph:?}");
    // Peel off modules that use nothing left; a cycle is what cannot be peeled.
    let mut order = Vec::new();
    while let Some(leaf) = graph.iter().find(|(_, used)| used.iter().all(|m| !graph.contains_key(m))) {
        let leaf = leaf.0.clone();
        graph.remove(&leaf);
        order.push(leaf);
    }
    assert!(graph.is_empty(), "these modules use each other in a cycle: {graph:?} (acyclic: {order:?})");
    let at = |m: &str| order.iter().position(|o| o == m).unwrap();
    assert!(at("score") < at("tt") && at("tt") < at("search") && at("search") < at("engine"), "{order:?}");
}

#[test]
fn use_groups_are_read_item_by_item() {
    let source = "use crate::{eval, tools::{bench, perft}};\nlet x = crate::score::MATE;";
    let found: Vec<String> = uses(source).into_iter().collect();
    assert_eq!(found, ["eval", "score", "tools"]);
}
