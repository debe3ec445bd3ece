//! Extractors on tiny hand-made e-graphs with known optimal tree and DAG costs.

use std::time::Duration;

use ptir_extract::serialize::{from_json, to_json};
use ptir_extract::{
    ExactDagExtractor, Extraction, Extractor, Graph, GraphBuilder, GraphError, GreedyDagExtractor,
    TreeExtractor,
};

/// Builds a graph from `(class, op, cost, children)` rows; the first class is the root.
fn graph(rows: &[(&str, &str, f64, &[&str])]) -> Graph {
    let mut b = GraphBuilder::default();
    for &(class, op, cost, children) in rows {
        let c = b.class(class);
        let children: Vec<_> = children.iter().map(|d| b.class(d)).collect();
        b.add_node(c, op, cost, &children);
    }
    let root = b.class(rows[0].0);
    b.add_root(root);
    b.build().expect("test graph is valid")
}

/// Runs every extractor, checks the duty of [`Extractor`], and returns
/// `(tree extractor's tree cost, tree extractor's DAG cost, greedy DAG cost, exact DAG cost)`.
fn check(g: &Graph) -> (f64, f64, f64, f64) {
    let tree = TreeExtractor.extract(g);
    let greedy = GreedyDagExtractor::default().extract(g);
    let exact = ExactDagExtractor::default().solve(g);
    for e in [&tree, &greedy, &exact.extraction] {
        assert!(e.is_acyclic(g), "cyclic extraction {e:?}");
        assert!(e.is_complete(g), "incomplete extraction {e:?}");
    }
    assert!(exact.optimal, "tiny graphs are solved to optimality");
    let (t, gr, x) = (
        tree.dag_cost(g),
        greedy.dag_cost(g),
        exact.extraction.dag_cost(g),
    );
    assert!(x <= gr + 1e-9, "exact {x} worse than greedy {gr}");
    (tree.tree_cost(g), t, gr, x)
}

#[test]
fn shared_product_is_paid_once_in_dag_cost() {
    // (+ (* x x) (* x x)): tree 7, DAG 3.
    let g = graph(&[
        ("add", "+", 1.0, &["mul", "mul"]),
        ("mul", "*", 1.0, &["x", "x"]),
        ("x", "x", 1.0, &[]),
    ]);
    assert_eq!(check(&g), (7.0, 3.0, 3.0, 3.0));
}

#[test]
fn exact_beats_tree_thanks_to_sharing() {
    // r = g(a, b). Alone, a and b are cheapest as private leaves (3 each, tree cost 7), but
    // both can be f(s) with one shared s (4): DAG cost 4 + 1 = 5 instead of 7.
    let g = graph(&[
        ("r", "g", 1.0, &["a", "b"]),
        ("a", "a", 3.0, &[]),
        ("a", "fa", 0.0, &["s"]),
        ("b", "b", 3.0, &[]),
        ("b", "fb", 0.0, &["s"]),
        ("s", "s", 4.0, &[]),
    ]);
    let (tree_cost, tree_dag, _, exact) = check(&g);
    assert_eq!((tree_cost, tree_dag, exact), (7.0, 7.0, 5.0));
}

#[test]
fn exact_beats_greedy_where_sharing_needs_foresight() {
    // Each of r's children can use its own cheap leaf or the shared, costly `s` through a
    // free node; s only pays off when at least three of them share it. Exact sees that.
    let mut rows: Vec<(&str, &str, f64, &[&str])> = vec![("r", "g", 0.0, &["a", "b", "c", "d"])];
    for (class, leaf) in [("a", "la"), ("b", "lb"), ("c", "lc"), ("d", "ld")] {
        rows.push((class, leaf, 2.0, &[]));
        rows.push((class, "via-s", 0.0, &["s"]));
    }
    rows.push(("s", "s", 5.0, &[]));
    let g = graph(&rows);
    let (_, tree_dag, greedy, exact) = check(&g);
    // Greedy moves one class at a time, and no single move pays for s: a known limit.
    assert_eq!((tree_dag, greedy, exact), (8.0, 8.0, 5.0));
}

#[test]
fn cycles_are_never_chosen() {
    // a = f(b) | big; b = g(a) | leaf. The cheapest-looking choice f -> g -> f is a cycle.
    let g = graph(&[
        ("a", "f", 0.5, &["b"]),
        ("a", "big", 9.0, &[]),
        ("b", "g", 0.5, &["a"]),
        ("b", "leaf", 3.0, &[]),
        ("a", "self", 0.0, &["a"]),
    ]);
    assert_eq!(check(&g), (3.5, 3.5, 3.5, 3.5));
}

#[test]
fn negative_costs_count_each_node_once() {
    // A tiny MaxSAT: v = p (satisfies c1, c2) | n (satisfies c3); each clause is worth -1.
    let g = graph(&[
        ("root", "root", 0.0, &["v", "w"]),
        ("v", "p", 0.0, &["c1", "c2"]),
        ("v", "n", 0.0, &["c3"]),
        ("w", "p", 0.0, &["c3"]),
        ("w", "n", 0.0, &["c1"]),
        ("c1", "c1", -1.0, &[]),
        ("c2", "c2", -1.0, &[]),
        ("c3", "c3", -1.0, &[]),
    ]);
    let (_, _, greedy, exact) = check(&g);
    assert_eq!((greedy, exact), (-3.0, -3.0));
}

#[test]
fn exact_time_limit_falls_back_to_greedy() {
    let g = graph(&[("add", "+", 1.0, &["x", "x"]), ("x", "x", 1.0, &[])]);
    let out = ExactDagExtractor::default()
        .with_time_limit(Duration::ZERO)
        .solve(&g);
    assert!(!out.optimal);
    assert!(out.extraction.is_complete(&g) && out.extraction.is_acyclic(&g));
    assert_eq!(out.extraction.dag_cost(&g), 2.0);
}

#[test]
fn from_choices_detects_cycles() {
    let g = graph(&[
        ("a", "f", 1.0, &["b"]),
        ("a", "x", 5.0, &[]),
        ("b", "g", 1.0, &["a"]),
    ]);
    let cyclic = Extraction::from_choices(&g, |c| Some(g.nodes(c).start));
    assert!(!cyclic.is_acyclic(&g));
    assert_eq!(cyclic.tree_cost(&g), f64::INFINITY);
    assert_eq!(cyclic.dag_cost(&g), 2.0);
}

#[test]
fn json_round_trip() {
    let g = graph(&[
        ("r", "g", 1.5, &["a", "b"]),
        ("a", "a", 3.0, &[]),
        ("a", "fa", -2.0, &["s"]),
        ("b", "b", 3.0, &[]),
        ("s", "s", 4.0, &[]),
    ]);
    let text = to_json(&g);
    let back = from_json(&text).expect("own JSON reads back");
    assert_eq!(back, g);
    assert_eq!(back.num_nodes(), 5);
}

#[test]
fn json_errors_name_their_cause() {
    let err = |text: &str| from_json(text).expect_err("invalid").to_string();
    assert!(err("{").starts_with("invalid egraph-serialize JSON"));
    assert_eq!(
        err(r#"{"nodes": {}, "root_eclasses": ["r"]}"#),
        "root e-class `r` has no node"
    );
    assert_eq!(
        err(
            r#"{"nodes": {"a": {"op": "f", "children": ["a"], "eclass": "c"}},
                "root_eclasses": ["c"]}"#
        ),
        "root e-class `c` has no acyclic term of finite cost"
    );
    assert_eq!(
        from_json(r#"{"nodes": {"a": {"op": "f", "children": ["b"], "eclass": "c"}}}"#),
        Err(GraphError::MissingChild {
            node: "a".into(),
            child: "b".into()
        })
    );
}

#[test]
fn subsumed_nodes_are_not_extracted() {
    let text = r#"{"nodes": {
        "cheap": {"op": "cheap", "children": [], "eclass": "c", "cost": 1, "subsumed": true},
        "dear": {"op": "dear", "children": [], "eclass": "c", "cost": 5}},
        "root_eclasses": ["c"]}"#;
    let g = from_json(text).expect("valid");
    assert_eq!(check(&g), (5.0, 5.0, 5.0, 5.0));
}

/// The optimal DAG cost by trying every choice of node per class (`+inf` if none is acyclic).
fn brute_force(g: &Graph) -> f64 {
    let classes: Vec<_> = g.classes().collect();
    let mut pick = vec![0usize; classes.len()];
    let mut best = f64::INFINITY;
    loop {
        let e = Extraction::from_choices(g, |c| g.node_ids(c).nth(pick[c.index()]));
        let usable = e.chosen().all(|(_, n)| !g.is_subsumed(n));
        if usable && e.is_acyclic(g) && e.is_complete(g) {
            best = best.min(e.dag_cost(g));
        }
        // Next combination, like an odometer.
        let mut i = 0;
        loop {
            if i == classes.len() {
                return best;
            }
            pick[i] += 1;
            if pick[i] < g.node_ids(classes[i]).len() {
                break;
            }
            pick[i] = 0;
            i += 1;
        }
    }
}

/// A seeded linear congruential generator, enough for test graphs.
struct Lcg(u64);

impl Lcg {
    fn step(state: u64) -> u64 {
        state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407)
    }

    /// The next number in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.0 = Lcg::step(self.0);
        (self.0 >> 33) % n
    }
}

/// A small pseudo-random e-graph: `k` classes, up to 3 nodes each, children anywhere (so
/// cycles are common), costs in -1..6 if `negative` else 0..6.
fn random_graph(seed: u64, k: usize, negative: bool) -> Option<Graph> {
    let mut rng = Lcg(Lcg::step(seed));
    let mut next = |n: u64| rng.below(n);
    let mut b = GraphBuilder::default();
    let ids: Vec<_> = (0..k).map(|i| b.class(&format!("c{i}"))).collect();
    for &c in &ids {
        for _ in 0..1 + next(3) {
            let children: Vec<_> = (0..next(3)).map(|_| ids[next(k as u64) as usize]).collect();
            let cost = next(7) as f64 - if negative { 1.0 } else { 0.0 };
            b.add_node(c, "op", cost, &children);
        }
    }
    b.add_root(ids[0]);
    b.build().ok()
}

#[test]
fn exact_matches_brute_force_on_random_graphs() {
    let mut checked = 0;
    for seed in 0..1500 {
        let Some(g) = random_graph(seed, 3 + (seed % 6) as usize, seed % 3 == 0) else {
            continue;
        };
        let optimum = brute_force(&g);
        let exact = ExactDagExtractor::default().solve(&g);
        let greedy = GreedyDagExtractor::default().extract(&g);
        for e in [&exact.extraction, &greedy] {
            assert!(e.is_acyclic(&g) && e.is_complete(&g), "seed {seed}");
        }
        assert!(exact.optimal, "seed {seed}: not proved");
        let cost = exact.extraction.dag_cost(&g);
        assert!(
            (cost - optimum).abs() < 1e-9,
            "seed {seed}: exact {cost} vs optimum {optimum}"
        );
        assert!(
            greedy.dag_cost(&g) >= optimum - 1e-9,
            "seed {seed}: greedy below optimum"
        );
        checked += 1;
    }
    assert!(
        checked > 700,
        "only {checked} random graphs were extractable"
    );
}

#[test]
fn exact_proves_associativity_closure_optimal() {
    // Every non-empty subset of 6 summands is a class; a class of two or more is the sum of
    // any split into two parts. The optimum, 6 leaves and 5 additions, is found by every
    // extractor; proving it takes the disjoint-children bound (the LP relaxation is far below).
    let k = 6;
    let mut b = GraphBuilder::default();
    let class = |b: &mut GraphBuilder, s: u32| b.class(&format!("s{s}"));
    for s in 1u32..1 << k {
        let c = class(&mut b, s);
        if s.count_ones() == 1 {
            b.add_node(c, &format!("x{}", s.trailing_zeros()), 1.0, &[]);
            continue;
        }
        let mut a = (s - 1) & s;
        while a > 0 {
            let (ca, cb) = (class(&mut b, a), class(&mut b, s & !a));
            b.add_node(c, "+", 1.0, &[ca, cb]);
            a = (a - 1) & s;
        }
    }
    let root = class(&mut b, (1 << k) - 1);
    b.add_root(root);
    let g = b.build().expect("valid");
    let out = ExactDagExtractor::default()
        .with_time_limit(Duration::from_secs(5))
        .solve(&g);
    assert!(out.optimal);
    assert_eq!(out.extraction.dag_cost(&g), 11.0);
    assert_eq!(check(&g).2, 11.0);
}

/// extraction-gym's `bottom-up`, written as it is there: sweeps over classes and nodes in order,
/// a node replacing its class's choice when strictly cheaper as a tree, until nothing changes.
fn gym_bottom_up(g: &Graph) -> Extraction {
    let mut cost = vec![f64::INFINITY; g.num_classes()];
    let mut choice = vec![None; g.num_classes()];
    let mut changed = true;
    while changed {
        changed = false;
        for c in g.classes() {
            for n in g.node_ids(c) {
                let children: f64 = g.children(n).iter().map(|d| cost[d.index()]).sum();
                if g.is_usable(n) && g.cost(n) + children < cost[c.index()] {
                    cost[c.index()] = g.cost(n) + children;
                    choice[c.index()] = Some(n);
                    changed = true;
                }
            }
        }
    }
    Extraction::from_choices(g, |c| choice[c.index()])
}

/// On a herbie e-graph (`herbie/6712.json` of extraction-gym, not in the bundled
/// subset) the greedy DAG extractor (4,736) lost to extraction-gym's bottom-up (4,608), whose
/// tree-optimal choice breaks ties differently from ours. Greedy now starts from that choice
/// too, so it never loses to it: checked here on many small graphs full of tree-cost ties (they
/// are too small to make the old extractor lose; the herbie figure is in BENCHMARKS.md).
#[test]
fn greedy_never_loses_to_gym_bottom_up() {
    let mut compared = 0;
    for seed in 0..4000 {
        let Some(g) = layered_graph(seed, 20 + (seed % 40) as usize) else {
            continue;
        };
        let bottom_up = gym_bottom_up(&g);
        if !bottom_up.is_complete(&g) || !bottom_up.is_acyclic(&g) {
            continue;
        }
        let greedy = GreedyDagExtractor::default().extract(&g);
        let (b, gr) = (bottom_up.dag_cost(&g), greedy.dag_cost(&g));
        assert!(gr <= b, "seed {seed}: greedy {gr} > gym bottom-up {b}");
        compared += 1;
    }
    assert!(compared > 1000, "only {compared} graphs compared");
}

/// A pseudo-random acyclic e-graph with many tree-cost ties: class `i` has 1 to 3 nodes whose
/// children are earlier classes, with costs in 0..3; the last class is the root.
fn layered_graph(seed: u64, k: usize) -> Option<Graph> {
    let mut rng = Lcg(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut next = |n: u64| rng.below(n);
    let mut b = GraphBuilder::default();
    let ids: Vec<_> = (0..k).map(|i| b.class(&format!("c{i}"))).collect();
    for (i, &c) in ids.iter().enumerate() {
        for _ in 0..1 + next(3) {
            let arity = if i == 0 { 0 } else { next(3) };
            let children: Vec<_> = (0..arity).map(|_| ids[next(i as u64) as usize]).collect();
            b.add_node(c, "op", next(3) as f64, &children);
        }
    }
    b.add_root(ids[k - 1]);
    b.build().ok()
}

/// A 384-layer GPT-2 stack failed to optimize ("returns () but is declared to return
/// (f32[4,8])"): its tree cost doubles with each level of sharing and overflowed `f64`, so the
/// tree extractor chose nothing for the root, and the greedy extractor took that empty choice
/// (DAG cost 0) as its best. Tree sums now saturate and only complete choices compete.
#[test]
fn deep_sharing_overflowing_tree_cost_still_extracts() {
    let levels = 1100;
    let mut b = GraphBuilder::default();
    let ids: Vec<_> = (0..levels).map(|i| b.class(&format!("x{i}"))).collect();
    b.add_node(ids[0], "x", 1.0, &[]);
    for i in 1..levels {
        b.add_node(ids[i], "f", 1.0, &[ids[i - 1], ids[i - 1]]);
    }
    b.add_root(ids[levels - 1]);
    let g = b.build().expect("valid");
    for e in [
        TreeExtractor.extract(&g),
        GreedyDagExtractor::default().extract(&g),
    ] {
        assert!(e.is_complete(&g) && e.is_acyclic(&g));
        assert_eq!(e.dag_cost(&g), levels as f64);
    }
}
