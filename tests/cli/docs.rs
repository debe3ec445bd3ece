//! The documentation's shape, held: README.md stays a short entry page (under 150 lines) and
//! BENCHMARKS.md today's figures (under 700), ARCHITECTURE.md has no paragraph longer than 25
//! lines, both name every crate of `crates/` and `python/`, and every relative link of the
//! pages (`](path)`, `](path#anchor)`, `](#anchor)`) points to a file that exists and, for a
//! markdown file, to a heading it has. The pages are read from the tree, not compiled in, so a
//! failure names the file and line as they are now.

use std::path::{Path, PathBuf};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The pages whose links are checked: the top-level guides and every `docs/*.md`, as (path
/// from the repository root, file).
fn pages() -> Vec<(String, PathBuf)> {
    let mut pages: Vec<(String, PathBuf)> = ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md"]
        .iter()
        .map(|p| (p.to_string(), repo().join(p)))
        .collect();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .expect("docs/ is readable")
        .map(|e| e.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    for path in docs {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        pages.push((format!("docs/{name}"), path));
    }
    pages
}

/// The lines outside code fences, numbered from 1, with `None` for a line inside a fence or a
/// fence itself.
fn prose_lines(text: &str) -> Vec<(usize, Option<&str>)> {
    let mut in_fence = false;
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            lines.push((n + 1, None));
        } else if in_fence {
            lines.push((n + 1, None));
        } else {
            lines.push((n + 1, Some(line)));
        }
    }
    lines
}

/// The runs of non-blank lines outside code fences, as (first line, length).
fn paragraphs(text: &str) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut run: Option<(usize, usize)> = None;
    for (n, line) in prose_lines(text) {
        match line {
            Some(l) if !l.trim().is_empty() => {
                let (first, len) = run.unwrap_or((n, 0));
                run = Some((first, len + 1));
            }
            _ => runs.extend(run.take()),
        }
    }
    runs.extend(run);
    runs
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_` kept, spaces made
/// `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a markdown text's headings.
fn anchors(text: &str) -> Vec<String> {
    prose_lines(text)
        .into_iter()
        .filter_map(|(_, line)| line?.strip_prefix('#'))
        .map(|h| slug(h.trim_start_matches('#')))
        .collect()
}

/// The targets of a line's markdown links, `](target)`, outside inline code.
fn link_targets(line: &str) -> Vec<String> {
    let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    prose
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|t| t.split_whitespace().next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_readme_is_under_150_lines() {
    let lines = read(&repo().join("README.md")).lines().count();
    assert!(
        lines < 150,
        "README.md:{lines}: the README has {lines} lines; it is the entry page (what the project \
         is, the two commands, where to read on): move prose into docs/"
    );
}

#[test]
fn the_benchmarks_are_under_700_lines() {
    let lines = read(&repo().join("BENCHMARKS.md")).lines().count();
    assert!(
        lines < 700,
        "BENCHMARKS.md:{lines}: BENCHMARKS.md has {lines} lines; it holds today's figures \
         (history lives in git): drop superseded passages"
    );
}

#[test]
fn no_paragraph_of_the_architecture_is_longer_than_25_lines() {
    let text = read(&repo().join("ARCHITECTURE.md"));
    let long: Vec<String> = paragraphs(&text)
        .into_iter()
        .filter(|&(_, len)| len > 25)
        .map(|(first, len)| format!("ARCHITECTURE.md:{first}: a paragraph of {len} lines"))
        .collect();
    assert!(
        long.is_empty(),
        "split these (blank lines between list items, sub-lists):\n{}",
        long.join("\n")
    );
}

#[test]
fn every_crate_is_named_in_the_architecture_and_the_readme() {
    let mut names: Vec<String> = std::fs::read_dir(repo().join("crates"))
        .expect("crates/ is readable")
        .map(|e| e.expect("a crates/ entry").path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .map(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            format!("`crates/{name}`")
        })
        .collect();
    names.sort();
    assert!(names.len() >= 10, "crates/ has {} crates", names.len());
    names.push("`python/`".to_string());
    for page in ["ARCHITECTURE.md", "README.md"] {
        let text = read(&repo().join(page));
        for name in &names {
            assert!(
                text.contains(name.as_str()),
                "{page}:1: {name} is not named (the crate map of ARCHITECTURE.md and the Layout \
                 table of README.md list every crate)"
            );
        }
    }
}

#[test]
fn every_relative_link_points_to_an_existing_file_and_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for (page, path) in pages() {
        let text = read(&path);
        let dir = path.parent().expect("a page is in a directory");
        for (n, line) in prose_lines(&text) {
            let Some(line) = line else {
                continue;
            };
            for target in link_targets(line) {
                if target.starts_with("http://")
                    || target.starts_with("https://")
                    || target.starts_with("mailto:")
                {
                    continue;
                }
                checked += 1;
                let (file, anchor) = match target.split_once('#') {
                    Some((file, anchor)) => (file, Some(anchor)),
                    None => (target.as_str(), None),
                };
                let file = if file.is_empty() {
                    path.clone()
                } else {
                    dir.join(file)
                };
                if !file.exists() {
                    broken.push(format!("{page}:{n}: `{target}`: no such file"));
                    continue;
                }
                let is_md = file.extension().is_some_and(|e| e == "md");
                if let (Some(anchor), true) = (anchor, is_md) {
                    if !anchors(&read(&file)).iter().any(|a| a == anchor) {
                        broken.push(format!("{page}:{n}: `{target}`: no heading #{anchor}"));
                    }
                }
            }
        }
    }
    assert!(checked > 0, "no relative link was found to check");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_checks_find_what_they_look_for() {
    let text = "a\nb\n\n```\nx\n\ny\n```\n- c\n  d\n";
    assert_eq!(paragraphs(text), [(1, 2), (9, 2)]);
    assert_eq!(
        slug("Today: the model zoo (2026-12-02, on `IREE`)"),
        "today-the-model-zoo-2026-12-02-on-iree"
    );
    assert_eq!(
        slug("`crates/ptir-ir` — API boundary"),
        "cratesptir-ir--api-boundary"
    );
    assert_eq!(
        link_targets("see [a](docs/a.md#b), `[c](not/a/link)` and [d](#e \"title\")"),
        ["docs/a.md#b", "#e"]
    );
    assert_eq!(
        anchors("# A b\n```\n# not a heading\n```\n## `c`?\n"),
        ["a-b", "c"]
    );
}
