//! Runs our extractors on the extraction-gym e-graphs and compares them with REFERENCE.tsv.
//!
//! ```text
//! cargo run --release -p ptir-extract --example extraction_gym -- \
//!     [--dir ../shared/extraction-gym] [--exact-max-nodes 2000] [--exact-secs 10] \
//!     [--per-file FILE.tsv]
//! ```
//!
//! Prints a per-family Markdown table: for each extractor the summed DAG cost and extraction
//! time (JSON parsing excluded), beside the reference `bottom-up` and `faster-greedy-dag`, and
//! how many files our greedy beats, ties or loses against `faster-greedy-dag`. The exact
//! extractor runs on files with at most `--exact-max-nodes` nodes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ptir_extract::serialize::read_json;
use ptir_extract::{ExactDagExtractor, Extractor, Graph, GreedyDagExtractor, TreeExtractor};

/// Reads an egraph-serialize JSON file (the crate does no I/O itself).
fn read_graph(path: &Path) -> Result<Graph, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    read_json(file).map_err(|e| format!("{}: {e}", path.display()))
}

struct Args {
    dir: PathBuf,
    exact_max_nodes: usize,
    exact_secs: f64,
    per_file: Option<PathBuf>,
}

fn parse_args() -> Args {
    let mut args = Args {
        dir: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/extraction-gym"
        )),
        exact_max_nodes: 2000,
        exact_secs: 10.0,
        per_file: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_default();
        match flag.as_str() {
            "--dir" => args.dir = PathBuf::from(value),
            "--exact-max-nodes" => args.exact_max_nodes = value.parse().unwrap_or(2000),
            "--exact-secs" => args.exact_secs = value.parse().unwrap_or(10.0),
            "--per-file" => args.per_file = Some(PathBuf::from(value)),
            _ => eprintln!("ignoring unknown flag {flag}"),
        }
    }
    args
}

/// The columns of the `--per-file` TSV; a row is typed `[String; PER_FILE_COLUMNS.len()]`, so the
/// two cannot disagree (`exact_bound` is the exact
/// extractor's proven lower bound; times in microseconds).
const PER_FILE_COLUMNS: [&str; 12] = [
    "file",
    "nodes",
    "tree",
    "greedy",
    "exact",
    "optimal",
    "exact_bound",
    "fgd",
    "tree_us",
    "greedy_us",
    "exact_us",
    "fgd_us",
];

/// `(dag_cost, micros)` of each reference extractor per file.
type Reference = BTreeMap<(String, String), (f64, f64)>;

fn read_reference(dir: &Path) -> Reference {
    let text = std::fs::read_to_string(dir.join("REFERENCE.tsv")).unwrap_or_default();
    let mut map = Reference::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if let [file, ex, _tree, dag, micros] = f[..] {
            let parse = |s: &str| s.parse::<f64>().unwrap_or(f64::NAN);
            map.insert(
                (file.to_string(), ex.to_string()),
                (parse(dag), parse(micros)),
            );
        }
    }
    map
}

fn json_files(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let Ok(families) = std::fs::read_dir(dir) else {
        return files;
    };
    for family in families.flatten().filter(|e| e.path().is_dir()) {
        let Ok(entries) = std::fs::read_dir(family.path()) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(".json") {
                files.push(format!("{}/{name}", family.file_name().to_string_lossy()));
            }
        }
    }
    files.sort();
    files
}

#[derive(Default, Clone)]
struct Row {
    files: usize,
    nodes: usize,
    cost: [f64; 5],
    micros: [f64; 5],
    exact_files: usize,
    exact_optimal: usize,
    exact_cost_fgd: f64,
    better: usize,
    tie: usize,
    worse: usize,
    /// Sum of `ln(greedy / fgd)` over files where both are positive, and their count.
    log_ratio: f64,
    ratio_files: usize,
}

fn time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let out = f();
    (out, t.elapsed().as_secs_f64() * 1e6)
}

fn main() {
    let args = parse_args();
    let reference = read_reference(&args.dir);
    let mut families: BTreeMap<String, Row> = BTreeMap::new();
    let mut per_file = PER_FILE_COLUMNS.join("\t") + "\n";
    for file in json_files(&args.dir) {
        let graph = match read_graph(&args.dir.join(&file)) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{e}");
                continue;
            }
        };
        let r = |ex: &str| {
            reference
                .get(&(file.clone(), ex.to_string()))
                .copied()
                .unwrap_or((f64::NAN, 0.0))
        };
        let (bu, fgd) = (r("bottom-up"), r("faster-greedy-dag"));
        let (tree, t_us) = time(|| TreeExtractor.extract(&graph));
        let (greedy, g_us) = time(|| GreedyDagExtractor::default().extract(&graph));
        let (t_cost, g_cost) = (tree.dag_cost(&graph), greedy.dag_cost(&graph));
        assert!(
            tree.is_acyclic(&graph) && greedy.is_acyclic(&graph),
            "{file}: cyclic result"
        );
        let row = families
            .entry(file.split('/').next().unwrap_or("").to_string())
            .or_default();
        row.files += 1;
        row.nodes += graph.num_nodes();
        let eps = 1e-6 * fgd.0.abs().max(1.0);
        match g_cost {
            c if c < fgd.0 - eps => row.better += 1,
            c if c <= fgd.0 + eps => row.tie += 1,
            _ => row.worse += 1,
        }
        if g_cost > 0.0 && fgd.0 > 0.0 {
            row.log_ratio += (g_cost / fgd.0).ln();
            row.ratio_files += 1;
        }
        let (mut x_cost, mut x_us, mut optimal, mut bound) = (f64::NAN, f64::NAN, false, f64::NAN);
        if graph.num_nodes() <= args.exact_max_nodes {
            let exact = ExactDagExtractor::default()
                .with_time_limit(Duration::from_secs_f64(args.exact_secs));
            let (out, us) = time(|| exact.solve(&graph));
            assert!(
                out.extraction.is_acyclic(&graph),
                "{file}: cyclic exact result"
            );
            (x_cost, x_us, optimal) = (out.extraction.dag_cost(&graph), us, out.optimal);
            bound = out.lower_bound;
            row.exact_files += 1;
            row.exact_optimal += usize::from(optimal);
            row.cost[4] += x_cost;
            row.micros[4] += x_us;
            row.exact_cost_fgd += fgd.0;
        }
        for (i, (c, us)) in [(t_cost, t_us), (g_cost, g_us), bu, fgd]
            .into_iter()
            .enumerate()
        {
            row.cost[i] += c;
            row.micros[i] += us;
        }
        let fields: [String; PER_FILE_COLUMNS.len()] = [
            file.clone(),
            graph.num_nodes().to_string(),
            t_cost.to_string(),
            g_cost.to_string(),
            x_cost.to_string(),
            optimal.to_string(),
            bound.to_string(),
            fgd.0.to_string(),
            format!("{t_us:.0}"),
            format!("{g_us:.0}"),
            format!("{x_us:.0}"),
            format!("{:.0}", fgd.1),
        ];
        per_file += &(fields.join("\t") + "\n");
        eprintln!("{file}: nodes {} tree {t_cost} greedy {g_cost} exact {x_cost} ({optimal}) fgd {} | {g_us:.0} us vs {:.0} us", graph.num_nodes(), fgd.0, fgd.1);
    }
    if let Some(path) = &args.per_file {
        if let Err(e) = std::fs::write(path, per_file) {
            eprintln!("{}: {e}", path.display());
        }
    }
    print_table(&families);
}

fn print_table(families: &BTreeMap<String, Row>) {
    println!("| family | files | nodes | ref bottom-up DAG | ref faster-greedy-dag DAG | our tree DAG | our greedy DAG | greedy / fgd DAG (geomean) | greedy vs fgd (better/tie/worse) | exact: optimal/run | exact DAG (fgd DAG on same files) | ref fgd ms | our tree ms | our greedy ms | greedy time / fgd time | exact ms |");
    println!("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    let mut total = Row::default();
    for (name, r) in families {
        print_row(name, r);
        total.files += r.files;
        total.nodes += r.nodes;
        for i in 0..5 {
            total.cost[i] += r.cost[i];
            total.micros[i] += r.micros[i];
        }
        total.exact_files += r.exact_files;
        total.exact_optimal += r.exact_optimal;
        total.exact_cost_fgd += r.exact_cost_fgd;
        total.log_ratio += r.log_ratio;
        total.ratio_files += r.ratio_files;
        (total.better, total.tie, total.worse) = (
            total.better + r.better,
            total.tie + r.tie,
            total.worse + r.worse,
        );
    }
    print_row("**all**", &total);
}

fn print_row(name: &str, r: &Row) {
    let ms = |us: f64| us / 1000.0;
    let geomean = match r.ratio_files {
        0 => "n/a".to_string(),
        k => format!("{:.4}", (r.log_ratio / k as f64).exp()),
    };
    println!(
        "| {name} | {} | {} | {:.6} | {:.6} | {:.6} | {:.6} | {} | {}/{}/{} | {}/{} | {:.6} ({:.6}) | {:.1} | {:.1} | {:.1} | {:.2} | {:.0} |",
        r.files, r.nodes, r.cost[2], r.cost[3], r.cost[0], r.cost[1], geomean, r.better, r.tie, r.worse,
        r.exact_optimal, r.exact_files, r.cost[4], r.exact_cost_fgd,
        ms(r.micros[3]), ms(r.micros[0]), ms(r.micros[1]), r.micros[1] / r.micros[3], ms(r.micros[4]),
    );
}
