//! Every extractor on every e-graph of ../shared/extraction-gym (skipped if absent).
//!
//! Checks acyclicity and completeness, that the tree extractor's tree cost equals the reference
//! `bottom-up`'s, and that our greedy DAG cost is at most the reference `faster-greedy-dag`'s.
//! The exact extractor runs on the files under 2,000 nodes with a short limit, and must never
//! be worse than the greedy answer.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ptir_extract::serialize::{from_json, read_json, to_json};
use ptir_extract::{ExactDagExtractor, Extractor, Graph, GreedyDagExtractor, TreeExtractor};

/// Reads an egraph-serialize JSON file (the crate does no I/O itself).
fn read_graph(path: &Path) -> Result<Graph, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    read_json(file).map_err(|e| format!("{}: {e}", path.display()))
}

fn gym_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/extraction-gym")
}

/// `(file, extractor) -> (tree cost, DAG cost)` from REFERENCE.tsv.
fn reference(dir: &Path) -> HashMap<(String, String), (f64, f64)> {
    let text = std::fs::read_to_string(dir.join("REFERENCE.tsv")).expect("REFERENCE.tsv");
    let mut map = HashMap::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let num = |s: &str| s.parse::<f64>().expect("number in REFERENCE.tsv");
        map.insert((f[0].to_string(), f[1].to_string()), (num(f[2]), num(f[3])));
    }
    map
}

fn files(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for family in std::fs::read_dir(dir).expect("gym dir").flatten() {
        if !family.path().is_dir() {
            continue;
        }
        for e in std::fs::read_dir(family.path())
            .expect("family dir")
            .flatten()
        {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(".json") {
                files.push(format!("{}/{name}", family.file_name().to_string_lossy()));
            }
        }
    }
    files.sort();
    files
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
}

fn check_file(dir: &Path, file: &str, reference: &HashMap<(String, String), (f64, f64)>) {
    let g = read_graph(&dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
    let r = |ex: &str| reference[&(file.to_string(), ex.to_string())];
    let tree = TreeExtractor.extract(&g);
    let greedy = GreedyDagExtractor::default().extract(&g);
    for (name, e) in [("tree", &tree), ("greedy", &greedy)] {
        assert!(e.is_acyclic(&g), "{file}: {name} is cyclic");
        assert!(e.is_complete(&g), "{file}: {name} misses a root or child");
    }
    let (bottom_up_tree, _) = r("bottom-up");
    assert!(
        close(tree.tree_cost(&g), bottom_up_tree),
        "{file}: tree cost {} vs bottom-up {bottom_up_tree}",
        tree.tree_cost(&g)
    );
    let (_, fgd) = r("faster-greedy-dag");
    let ours = greedy.dag_cost(&g);
    assert!(
        ours <= fgd + 1e-6 * fgd.abs().max(1.0),
        "{file}: greedy {ours} > faster-greedy-dag {fgd}"
    );
    if g.num_nodes() < 2000 {
        check_exact(file, &g, ours);
    }
}

fn check_exact(file: &str, g: &Graph, greedy: f64) {
    let out = ExactDagExtractor::default()
        .with_time_limit(Duration::from_millis(250))
        .solve(g);
    assert!(
        out.extraction.is_acyclic(g) && out.extraction.is_complete(g),
        "{file}: exact"
    );
    let cost = out.extraction.dag_cost(g);
    assert!(
        cost <= greedy + 1e-6 * greedy.abs().max(1.0),
        "{file}: exact {cost} > greedy {greedy}"
    );
    let back = from_json(&to_json(g)).unwrap_or_else(|e| panic!("{file}: round trip: {e}"));
    assert_eq!(&back, g, "{file}: JSON round trip");
}

#[test]
fn extractors_on_extraction_gym() {
    let dir = gym_dir();
    if !dir.join("REFERENCE.tsv").exists() {
        eprintln!(
            "skipped: {} not found (it lives in the project's shared folder)",
            dir.display()
        );
        return;
    }
    let reference = reference(&dir);
    let files = files(&dir);
    assert_eq!(files.len(), 125, "the gym subset has 125 files");
    for file in &files {
        check_file(&dir, file, &reference);
    }
}
