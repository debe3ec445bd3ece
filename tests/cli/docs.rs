//! The documentation's shape, held: README.md stays a short entry page (under 150 lines) and
//! BENCHMARKS.md today's figures (under 700), ARCHITECTURE.md has no paragraph longer than 25
//! lines, both name every crate of `crates/` and `python/`, and every relative link of the
//! pages (`](path)`, `](path#anchor)`, `](#anchor)`) points to a file that exists and, for a
//! markdown file, to a heading it has. ARCHITECTURE.md's code map matches the tree: every
//! top-level module of every crate is named in its crate's section, and every source path it
//! writes exists. The pages are read from the tree, not compiled in, so a failure names the
//! file and line as they are now.

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

/// The inline code spans of the lines `lines` (from [`prose_lines`]: fenced lines are left
/// out), each with the line it opens on; a span may run over a line break.
fn code_spans(lines: &[(usize, Option<&str>)]) -> Vec<(usize, String)> {
    let prose: Vec<&str> = lines.iter().map(|(_, l)| l.unwrap_or_default()).collect();
    let prose = prose.join("\n");
    let mut spans = Vec::new();
    let mut line = 0;
    for (i, part) in prose.split('`').enumerate() {
        if i % 2 == 1 {
            spans.push((lines.get(line).map_or(0, |&(n, _)| n), part.to_string()));
        }
        line += part.matches('\n').count();
    }
    spans
}

/// The words of a code span that may be paths (`interp/sort.rs`, `generate/`): split at
/// white space, commas, semicolons and parentheses.
fn span_words(span: &str) -> impl Iterator<Item = &str> {
    span.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')'))
        .filter(|w| !w.is_empty())
}

/// The lines of the section of a markdown text whose heading line starts with `heading`
/// (``### `crates/ptir-ir` ``): the heading and what follows it up to the next heading of its
/// level or above.
fn section<'a>(text: &'a str, heading: &str) -> Option<Vec<(usize, Option<&'a str>)>> {
    let lines = prose_lines(text);
    let level = heading.chars().take_while(|&c| c == '#').count();
    let start = lines
        .iter()
        .position(|(_, l)| l.is_some_and(|l| l.starts_with(heading)))?;
    let end = (lines.iter().enumerate().skip(start + 1))
        .find(|(_, (_, l))| {
            l.is_some_and(|l| {
                let hashes = l.chars().take_while(|&c| c == '#').count();
                (1..=level).contains(&hashes) && l[hashes..].starts_with(' ')
            })
        })
        .map_or(lines.len(), |(i, _)| i);
    Some(lines[start..end].to_vec())
}

/// Does `dir` hold Rust code, at any depth?
fn holds_rust(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|e| {
            let path = e.path();
            match path.is_dir() {
                true => holds_rust(&path),
                false => path.extension().is_some_and(|x| x == "rs"),
            }
        })
    })
}

/// The file names of `dir`'s tree, at any depth.
fn file_names(dir: &Path, names: &mut std::collections::BTreeSet<String>) {
    for entry in std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
    {
        let path = entry.path();
        match path.is_dir() {
            true => file_names(&path, names),
            false => {
                names.insert(entry.file_name().to_string_lossy().into_owned());
            }
        }
    }
}

/// The top-level modules of a source directory as the map spells them: each `NAME.rs` but
/// `lib.rs` and `main.rs`, and each directory holding Rust code as `NAME/` (a module with both
/// a file and a directory is its file), sorted.
fn top_level_modules(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(src).expect("a source directory is readable") {
        let path = entry.expect("a source directory's entry").path();
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if path.is_dir() && holds_rust(&path) {
            dirs.push(name);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            if stem != "lib" && stem != "main" {
                files.push(stem.to_string());
            }
        }
    }
    dirs.retain(|d| !files.contains(d));
    let mut modules: Vec<String> = (files.iter().map(|f| format!("{f}.rs")))
        .chain(dirs.iter().map(|d| format!("{d}/")))
        .collect();
    modules.sort();
    modules
}

/// Every source directory the code map covers, from the repository root, with the heading of
/// the section that maps it: each crate of `crates/` under ``### `crates/NAME` ``, the root
/// crate (`src`) and the Python crate (`python/src`) under Entry points.
fn mapped_sources() -> Vec<(String, String)> {
    let mut crates: Vec<String> = std::fs::read_dir(repo().join("crates"))
        .expect("crates/ is readable")
        .map(|e| e.expect("a crates/ entry").path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .map(|p| {
            p.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    crates.sort();
    let mut sources: Vec<(String, String)> = (crates.iter())
        .map(|c| (format!("crates/{c}/src"), format!("### `crates/{c}`")))
        .collect();
    sources.push(("src".into(), "## Entry points".into()));
    sources.push(("python/src".into(), "## Entry points".into()));
    sources
}

/// The module a path word names in source directory `src` (`crates/ptir-ir/src`): read
/// relative to `src` when `relative` (a word of the crate's own section), else only when it
/// is written from the repository root (`crates/ptir-ir/src/...`, `src/...`) or from `crates/`
/// (`ptir-ir/src/...`). A module is its first component: `interp/sort.rs` names `interp/`.
fn named_module(word: &str, src: &str, relative: bool) -> Option<String> {
    let from_crates = src.strip_prefix("crates/").unwrap_or(src);
    let rest = (word
        .strip_prefix(src)
        .or_else(|| word.strip_prefix(from_crates)))
    .and_then(|r| r.strip_prefix('/'))
    .or(relative.then_some(word))?;
    match rest.split_once('/') {
        Some((dir, _)) if !dir.is_empty() => Some(format!("{dir}/")),
        Some(_) => None,
        None => rest.ends_with(".rs").then(|| rest.to_string()),
    }
}

/// Where a path word of the map is, when it is a source path (`crates/X/src/...`,
/// `X/src/...`, `src/...`, `python/src/...`, a `.rs` file or a directory).
fn source_path(word: &str) -> Option<PathBuf> {
    let is_path = word.ends_with(".rs") || word.ends_with('/');
    if !is_path || word.contains('*') {
        return None;
    }
    if word.starts_with("crates/") && word.contains("/src/") {
        return Some(repo().join(word));
    }
    if word.starts_with("ptir-") && word.contains("/src/") {
        return Some(repo().join("crates").join(word));
    }
    (word.starts_with("src/") || word.starts_with("python/src/")).then(|| repo().join(word))
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
fn the_code_map_names_every_top_level_module_of_every_crate() {
    let text = read(&repo().join("ARCHITECTURE.md"));
    let everywhere = code_spans(&prose_lines(&text));
    let mut missing = Vec::new();
    let mut checked = 0;
    for (src, heading) in mapped_sources() {
        let Some(lines) = section(&text, &heading) else {
            missing.push(format!("{src}: no section `{heading}`"));
            continue;
        };
        let here = code_spans(&lines);
        let named: std::collections::BTreeSet<String> = (here.iter().map(|s| (s, true)))
            .chain(everywhere.iter().map(|s| (s, false)))
            .flat_map(|((_, span), relative)| {
                span_words(span)
                    .filter_map(|w| named_module(w, &src, relative))
                    .collect::<Vec<_>>()
            })
            .collect();
        let modules = top_level_modules(&repo().join(&src));
        checked += modules.len();
        let unnamed: Vec<String> = (modules.into_iter())
            .filter(|m| {
                let stem = m.trim_end_matches(".rs").trim_end_matches('/');
                !named.contains(&format!("{stem}.rs")) && !named.contains(&format!("{stem}/"))
            })
            .map(|m| format!("`{m}`"))
            .collect();
        if !unnamed.is_empty() {
            let line = lines.first().map_or(1, |&(n, _)| n);
            missing.push(format!(
                "ARCHITECTURE.md:{line}: {src}: {} (under `{heading}`)",
                unnamed.join(", ")
            ));
        }
    }
    assert!(checked >= 100, "only {checked} modules were found to check");
    assert!(
        missing.is_empty(),
        "modules the code map does not name (a line each, `NAME.rs` or `NAME/` in backticks, in \
         the crate's section):\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_source_path_of_the_code_map_exists() {
    let text = read(&repo().join("ARCHITECTURE.md"));
    let mut broken = Vec::new();
    let mut checked = 0;
    for (line, span) in code_spans(&prose_lines(&text)) {
        for word in span_words(&span) {
            if let Some(path) = source_path(word) {
                checked += 1;
                if !path.exists() {
                    broken.push(format!("ARCHITECTURE.md:{line}: `{word}`: no such file"));
                }
            }
        }
    }
    // A bare file name in a crate's section (`loop_hoist.rs`) is a file of that crate's tree.
    let mut sections: Vec<(String, Vec<String>)> = Vec::new();
    for (src, heading) in mapped_sources() {
        match sections.iter_mut().find(|(h, _)| *h == heading) {
            Some((_, srcs)) => srcs.push(src),
            None => sections.push((heading, vec![src])),
        }
    }
    for (heading, srcs) in sections {
        let mut files = std::collections::BTreeSet::new();
        for src in &srcs {
            file_names(&repo().join(src), &mut files);
        }
        for (line, span) in code_spans(&section(&text, &heading).unwrap_or_default()) {
            for word in span_words(&span) {
                if word.ends_with(".rs") && !word.contains('/') {
                    checked += 1;
                    if !files.contains(word) {
                        broken.push(format!(
                            "ARCHITECTURE.md:{line}: `{word}`: no such file in {}",
                            srcs.join(" or ")
                        ));
                    }
                }
            }
        }
    }
    assert!(
        checked >= 50,
        "only {checked} source paths were found to check"
    );
    assert!(
        broken.is_empty(),
        "source paths of ARCHITECTURE.md that are not in the tree:\n{}",
        broken.join("\n")
    );
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
    let map = "## A\n`x.rs`, `y/\nz.rs`\n```\n`no.rs`\n```\n### B\n`b.rs`\n## C\n`c.rs`\n";
    let spans = code_spans(&prose_lines(map));
    assert_eq!(spans.len(), 4);
    assert_eq!(spans[1], (2, "y/\nz.rs".to_string()));
    assert_eq!(spans[3], (10, "c.rs".to_string()));
    let a = section(map, "## A").expect("a section");
    assert_eq!(a.first().map(|l| l.0), Some(1));
    assert_eq!(a.last().map(|l| l.0), Some(8));
    assert_eq!(section(map, "### B").map(|s| s.len()), Some(2));
    let src = "crates/ptir-ir/src";
    assert_eq!(
        named_module("interp/sort.rs", src, true).as_deref(),
        Some("interp/")
    );
    assert_eq!(
        named_module("infer.rs", src, true).as_deref(),
        Some("infer.rs")
    );
    assert_eq!(named_module("infer.rs", src, false), None);
    assert_eq!(
        named_module("ptir-ir/src/analysis/purity.rs", src, false).as_deref(),
        Some("analysis/")
    );
    assert_eq!(
        named_module("src/optimize.rs", "src", false).as_deref(),
        Some("optimize.rs")
    );
    assert_eq!(
        source_path("ptir-ir/src/x.rs"),
        Some(repo().join("crates/ptir-ir/src/x.rs"))
    );
    assert_eq!(source_path("crates/*/tests/*.rs"), None);
    assert_eq!(source_path("tests/cli/docs.rs"), None);
    assert_eq!(
        span_words("a.rs, b/ (c.rs)").collect::<Vec<_>>(),
        ["a.rs", "b/", "c.rs"]
    );
}
