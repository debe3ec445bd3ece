//! Fact-in, literal-out tests of the analyses on hand-written programs: the Datalog programs
//! fed facts directly, and whole programs (parsed and verified) through [`Analysis`].

use super::*;
use crate::ops::{Op, OpKey};
use crate::program::{InstId, Program, ValueId};

/// Parses and verifies `src`, then runs every analysis.
fn analyse(src: &str) -> (Program, Analysis) {
    let p = crate::parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    if let Err(e) = crate::verify(&p) {
        panic!("{e}\n{src}");
    }
    let a = Analysis::of(&p);
    (p, a)
}

fn insts(ids: &[u32]) -> Vec<InstId> {
    ids.iter().map(|&i| InstId(i)).collect()
}

/// The names of the functions for which `keep` holds, sorted.
fn function_names(a: &Analysis, keep: impl Fn(&FunctionAnalysis) -> bool) -> Vec<&str> {
    let mut names: Vec<&str> = a
        .functions()
        .iter()
        .filter(|f| keep(f))
        .map(|f| f.name())
        .collect();
    names.sort();
    names
}

#[test]
fn purity_program_facts_in_literal_out() {
    // f0 and f1 call each other; f2 calls f0 and the impure extern e0; f3 has an `rng`
    // (#5) inside the `while` #4; f4 calls an unknown name.
    let (f0, f1, f2, f3, f4) = (FuncId(0), FuncId(1), FuncId(2), FuncId(3), FuncId(4));
    let mut dl = PurityProgram::default();
    dl.function = vec![(f0,), (f1,), (f2,), (f3,), (f4,)];
    dl.inst = vec![
        (f0, InstId(1)),
        (f1, InstId(1)),
        (f2, InstId(1)),
        (f2, InstId(2)),
    ];
    dl.inst.extend([
        (f3, InstId(4)),
        (f3, InstId(5)),
        (f3, InstId(6)),
        (f4, InstId(1)),
    ]);
    dl.op_kind = vec![(f3, InstId(4), OpKey::While), (f3, InstId(5), OpKey::Rng)];
    dl.nested = vec![(f3, InstId(5), InstId(4)), (f3, InstId(6), InstId(4))];
    dl.calls_function = vec![
        (f0, InstId(1), f1),
        (f1, InstId(1), f0),
        (f2, InstId(1), f0),
    ];
    dl.calls_extern = vec![(f2, InstId(2), ExternId(0))];
    dl.impure_extern = vec![(ExternId(0),)];
    dl.calls_unknown = vec![(f4, InstId(1))];
    dl.run();
    let PurityProgram {
        mut pure,
        mut pure_function,
        mut impure,
        ..
    } = dl;
    pure.sort();
    pure_function.sort();
    impure.sort();
    assert_eq!(pure_function, vec![(f0,), (f1,)]);
    assert_eq!(
        pure,
        vec![
            (f0, InstId(1)),
            (f1, InstId(1)),
            (f2, InstId(1)),
            (f3, InstId(6))
        ]
    );
    assert_eq!(
        impure,
        vec![
            (f2, InstId(2)),
            (f3, InstId(4)),
            (f3, InstId(5)),
            (f4, InstId(1))
        ]
    );
}

const CALLS: &str = "
extern @log(f32[]) -> (f32[]) impure
extern @fast(f32[]) -> (f32[]) pure

func @rec(%0: f32[], %1: bool[]) -> (f32[]) {
  %2 = cond %1 : f32[] {
    %3 = call @rec(%0, %1) : f32[]
    yield %3
  } {
    yield %0
  }
  return %2
}

func @even(%0: f32[], %1: bool[]) -> (f32[]) {
  %2 = call @odd(%0, %1) : f32[]
  return %2
}

func @odd(%0: f32[], %1: bool[]) -> (f32[]) {
  %2 = call @even(%0, %1) : f32[]
  %3 = call @fast(%2) : f32[]
  return %3
}

func @ping(%0: f32[]) -> (f32[]) {
  %1 = call @pong(%0) : f32[]
  return %1
}

func @pong(%0: f32[]) -> (f32[]) {
  %1 = call @ping(%0) : f32[]
  %2 = call @log(%1) : f32[]
  return %2
}

func @noisy(%0: f32[]) -> (f32[]) {
  %1 = while %0 : f32[] {
  ^(%2: f32[]):
    %3 = lt %2, %0 : bool[]
    yield %3
  } {
  ^(%4: f32[]):
    %5 = rng uniform : f32[]
    %6 = add %4, %5 : f32[]
    yield %6
  }
  return %1
}

func @caller(%0: f32[]) -> (f32[]) {
  %1 = call @noisy(%0) : f32[]
  %2 = exp %0 : f32[]
  return %1
}
";

#[test]
fn recursion_is_pure_and_impurity_crosses_calls() {
    let (_, a) = analyse(CALLS);
    assert_eq!(
        function_names(&a, FunctionAnalysis::is_pure_function),
        ["even", "odd", "rec"]
    );
    assert_eq!(
        function_names(&a, |f| !f.is_pure_function()),
        ["caller", "noisy", "ping", "pong"]
    );
    let pure_insts = |name: &str| {
        let f = a.function(name).unwrap();
        let mut v: Vec<InstId> = f.facts().insts().iter().map(|i| i.id).collect();
        v.retain(|&i| f.is_pure(i));
        v.sort();
        v
    };
    assert_eq!(pure_insts("rec"), insts(&[2, 3]));
    assert_eq!(pure_insts("odd"), insts(&[2, 3]));
    assert_eq!(pure_insts("pong"), insts(&[]));
    // The `rng` makes the `while` impure; the loop test stays pure.
    assert_eq!(pure_insts("noisy"), insts(&[3, 6]));
    assert_eq!(pure_insts("caller"), insts(&[2]));
}

#[test]
fn unknown_callee_is_impure() {
    let (mut p, _) = analyse(CALLS);
    let f = p.functions.iter_mut().find(|f| f.name == "even").unwrap();
    f.body.insts[0].op = Op::Call {
        callee: "nowhere".into(),
    };
    let a = Analysis::of(&p);
    assert_eq!(
        function_names(&a, FunctionAnalysis::is_pure_function),
        ["rec"]
    );
}

/// Captured outer values, a `cond` and a `while` nested in it. Blocks in pre-order: 0 body,
/// 1 then, 2 else, 3 while cond, 4 while body.
const NESTED: &str = "
func @f(%0: bool[], %1: f32[]) -> (f32[]) {
  %2 = exp %1 : f32[]
  %3 = cond %0 : f32[] {
    %4 = neg %2 : f32[]
    yield %4
  } {
    %5 = while %2 : f32[] {
    ^(%6: f32[]):
      %7 = lt %6, %1 : bool[]
      yield %7
    } {
    ^(%8: f32[]):
      %9 = add %8, %2 : f32[]
      yield %9
    }
    yield %5
  }
  %10 = abs %3 : f32[]
  return %10
}
";

/// Every `(value, inst)` pair of a function for which `holds`, sorted.
fn all_pairs(facts: &FunctionFacts, holds: impl Fn(ValueId, InstId) -> bool) -> Vec<(u32, u32)> {
    let mut values: Vec<ValueId> = facts.values().map(|(v, _)| v).collect();
    values.sort();
    let mut pairs = Vec::new();
    for &v in &values {
        for i in facts.insts() {
            if holds(v, i.id) {
                pairs.push((v.0, i.id.0));
            }
        }
    }
    pairs.sort();
    pairs
}

#[rustfmt::skip]
const NESTED_DOMINATES: &[(u32, u32)] = &[
    (0, 2), (0, 3), (0, 4), (0, 5), (0, 7), (0, 9), (0, 10),
    (1, 2), (1, 3), (1, 4), (1, 5), (1, 7), (1, 9), (1, 10),
    (2, 3), (2, 4), (2, 5), (2, 7), (2, 9), (2, 10),
    (3, 10),
    (6, 7),
    (8, 9),
];

#[test]
fn dominance_in_nested_regions() {
    let (_, a) = analyse(NESTED);
    let f = a.function("f").unwrap();
    let facts = f.facts();
    assert_eq!(all_pairs(facts, |v, i| f.dominates(v, i)), NESTED_DOMINATES);
    let mut available = Vec::new();
    let mut at_results = Vec::new();
    for v in 0..=10 {
        for b in 0..facts.blocks().len() as u32 {
            if f.available_at(ValueId(v), BlockId(b)) {
                available.push((v, b));
            }
            if facts.available_at_results(ValueId(v), BlockId(b)) {
                at_results.push((v, b));
            }
        }
    }
    #[rustfmt::skip]
    let expected_available = [
        (0, 0), (0, 1), (0, 2), (0, 3), (0, 4),
        (1, 0), (1, 1), (1, 2), (1, 3), (1, 4),
        (2, 1), (2, 2), (2, 3), (2, 4),
        (6, 3),
        (8, 4),
    ];
    assert_eq!(available, expected_available);
    // Results may also name values defined in the block itself.
    #[rustfmt::skip]
    let expected_at_results = [
        (0, 0), (0, 1), (0, 2), (0, 3), (0, 4),
        (1, 0), (1, 1), (1, 2), (1, 3), (1, 4),
        (2, 0), (2, 1), (2, 2), (2, 3), (2, 4),
        (3, 0), (4, 1), (5, 2), (6, 3), (7, 3), (8, 4), (9, 4), (10, 0),
    ];
    assert_eq!(at_results, expected_at_results);
}

#[test]
fn dominance_program_answers_asked_pairs() {
    let (_, a) = analyse(NESTED);
    let facts = a.function("f").unwrap().facts();
    let mut dl = DominanceProgram::from_facts(facts);
    dl.dominance_query = all_pairs(facts, |_, _| true)
        .into_iter()
        .map(|(v, i)| (ValueId(v), InstId(i)))
        .collect();
    dl.availability_query = vec![(ValueId(2), BlockId(4)), (ValueId(5), BlockId(2))];
    dl.run();
    let mut dominates: Vec<(u32, u32)> = dl.dominates.iter().map(|(v, i)| (v.0, i.0)).collect();
    dominates.sort();
    assert_eq!(dominates, NESTED_DOMINATES);
    assert_eq!(dl.available, vec![(ValueId(2), BlockId(4))]);
}

/// A block as `(owner, parent, depth, entry, end)`.
type BlockRow = (Option<u32>, Option<u32>, usize, u32, u32);

#[test]
fn block_tree_and_numbering_of_nested_regions() {
    let (_, a) = analyse(NESTED);
    let facts = a.function("f").unwrap().facts();
    let tree: Vec<BlockRow> = facts
        .blocks()
        .iter()
        .map(|b| {
            let (owner, parent) = (b.owner.map(|i| i.0), b.parent.map(|p| p.0));
            (owner, parent, b.depth, b.entry.0, b.end.0)
        })
        .collect();
    // Positions: %0 0, %1 1, body 2, %2 3, %3 4, then 5, %4 6, then-end 7, else 8, %5 9,
    // %6 10, cond 11, %7 12, cond-end 13, %8 14, body 15, %9 16, body-end 17, else-end 18,
    // %10 19, body-end 20.
    assert_eq!(
        tree,
        [
            (None, None, 0, 2, 20),
            (Some(3), Some(0), 1, 5, 7),
            (Some(3), Some(0), 1, 8, 18),
            (Some(5), Some(2), 2, 11, 13),
            (Some(5), Some(2), 2, 15, 17),
        ]
    );
    assert_eq!(facts.span(ValueId(3)), Some((Pos(4), Pos(18), Pos(20))));
    assert_eq!(facts.span(ValueId(8)), Some((Pos(14), Pos(14), Pos(17))));
    assert!(facts.block_within(BlockId(4), BlockId(2)));
    assert!(!facts.block_within(BlockId(4), BlockId(1)));
}

#[test]
fn use_counts_include_captures_and_results() {
    let (_, a) = analyse(NESTED);
    let f = a.function("f").unwrap();
    let counts: Vec<usize> = (0..=10).map(|v| f.use_count(ValueId(v))).collect();
    assert_eq!(counts, [1, 2, 3, 1, 1, 1, 1, 1, 1, 1, 1]);
    assert_eq!(f.use_count(ValueId(99)), 0);
    assert_eq!(f.dead(), insts(&[]));
    assert_eq!(f.loop_invariant(), insts(&[]));
}

#[test]
fn uses_program_facts_in_literal_out() {
    // %0 param; #1 = f(%0); #2 = g(%1, %1); #3 = h(%0), impure; #4 = cond-like op over
    // block 1 which yields %1; #4 is returned.
    let mut dl = UsesProgram::default();
    dl.value = (0..=4).map(|v| (ValueId(v),)).collect();
    dl.inst = (1..=4).map(|i| (InstId(i),)).collect();
    dl.pure = vec![(InstId(1),), (InstId(2),), (InstId(4),)];
    dl.operand = vec![
        (InstId(1), 0, ValueId(0)),
        (InstId(2), 0, ValueId(1)),
        (InstId(2), 1, ValueId(1)),
        (InstId(3), 0, ValueId(0)),
    ];
    dl.block_result = vec![(BlockId(0), 0, ValueId(4)), (BlockId(1), 0, ValueId(1))];
    dl.block_owner = vec![(BlockId(1), InstId(4))];
    dl.run();
    let UsesProgram {
        mut use_count,
        mut dead,
        ..
    } = dl;
    use_count.sort();
    dead.sort();
    let expected = [(0, 2), (1, 3), (2, 0), (3, 0), (4, 1)].map(|(v, n)| (ValueId(v), n));
    assert_eq!(use_count, expected);
    assert_eq!(dead, vec![(InstId(2),)]);
}

#[test]
fn dead_chains_and_dead_regions() {
    let (_, a) = analyse(
        "
func @d(%0: f32[]) -> (f32[]) {
  %1 = exp %0 : f32[]
  %2 = neg %1 : f32[]
  %3 = add %2, %2 : f32[]
  %4 = rng uniform : f32[]
  %5 = add %4, %0 : f32[]
  %6 = abs %0 : f32[]
  %7 = sqrt %0 : f32[]
  %8 = while %0 : f32[] {
  ^(%9: f32[]):
    %10 = lt %9, %6 : bool[]
    yield %10
  } {
  ^(%11: f32[]):
    %12 = tanh %7 : f32[]
    %13 = mul %11, %11 : f32[]
    yield %13
  }
  %14 = lt %0, %0 : bool[]
  %15 = cond %14 : f32[] {
    %16 = log %6 : f32[]
    yield %16
  } {
    yield %0
  }
  %17 = rng normal : f32[]
  %18 = cond %14 : f32[] {
    %19 = mul %17, %17 : f32[]
    yield %19
  } {
    %20 = exp %0 : f32[]
    yield %0
  }
  return %8
}
",
    );
    let f = a.function("d").unwrap();
    // %4 and %17 are impure, so live. %18 only reads the impure %17: it is pure and
    // unused, so dead with all it contains. %14 is used only by the dead %15 and %18.
    assert_eq!(
        f.dead(),
        insts(&[1, 2, 3, 5, 7, 12, 14, 15, 16, 18, 19, 20])
    );
    assert!(!f.is_dead(InstId(4)) && !f.is_dead(InstId(6)) && !f.is_dead(InstId(8)));
    assert_eq!(f.use_count(ValueId(14)), 2);
    assert_eq!(f.use_count(ValueId(7)), 1);
}

const LOOPS: &str = "
func @g(%0: f32[], %1: f32[], %2: bool[]) -> (f32[]) {
  %3 = while %0 : f32[] {
  ^(%4: f32[]):
    %5 = exp %1 : f32[]
    %6 = lt %4, %5 : bool[]
    yield %6
  } {
  ^(%7: f32[]):
    %8 = neg %1 : f32[]
    %9 = mul %8, %8 : f32[]
    %10 = add %7, %9 : f32[]
    %11 = cond %2 : f32[] {
      %12 = abs %9 : f32[]
      yield %12
    } {
      yield %1
    }
    %13 = cond %2 : f32[] {
      yield %7
    } {
      yield %11
    }
    %14 = rng uniform : f32[]
    %15 = add %10, %13 : f32[]
    %16 = add %15, %14 : f32[]
    %17 = exp %11 : f32[]
    %18 = mul %14, %17 : f32[]
    %19 = add %16, %18 : f32[]
    yield %19
  }
  return %3
}

func @h(%0: f32[], %1: f32[]) -> (f32[]) {
  %2 = scan %0 num_carry=1 length=4 : f32[] {
  ^(%3: f32[]):
    %4 = while %3 : f32[] {
    ^(%5: f32[]):
      %6 = lt %5, %3 : bool[]
      yield %6
    } {
    ^(%7: f32[]):
      %8 = exp %3 : f32[]
      %9 = add %7, %8 : f32[]
      yield %9
    }
    %10 = tanh %1 : f32[]
    %11 = while %10 : f32[] {
    ^(%12: f32[]):
      %13 = lt %12, %1 : bool[]
      yield %13
    } {
    ^(%14: f32[]):
      %15 = mul %14, %1 : f32[]
      yield %15
    }
    %16 = add %4, %11 : f32[]
    yield %16
  }
  return %2
}
";

#[test]
fn loop_invariant_chains_captures_and_impurity() {
    let (_, a) = analyse(LOOPS);
    let g = a.function("g").unwrap();
    // %5 in the loop test; %8 -> %9 a chain; %11 a `cond` capturing only invariant values;
    // %17 reads %11. %12 is inside a branch: not a candidate. %13 captures the loop
    // parameter %7, %14 is `rng`, %18 reads it.
    assert_eq!(g.loop_invariant(), insts(&[5, 8, 9, 11, 17]));
    assert!(g
        .loop_invariant()
        .iter()
        .all(|&i| g.invariant_loop(i) == Some(InstId(3))));
    assert!(!g.is_pure_function());
}

#[test]
fn loop_invariance_in_nested_loops() {
    let (_, a) = analyse(LOOPS);
    let h = a.function("h").unwrap();
    // %8 reads the scan's carry %3, which dominates the inner `while` %4: invariant there.
    // %4 itself reads %3, so it varies in the scan; %10 and the `while` %11 over it do not.
    assert_eq!(h.loop_invariant(), insts(&[8, 10, 11]));
    assert_eq!(h.invariant_loop(InstId(8)), Some(InstId(4)));
    assert_eq!(h.invariant_loop(InstId(11)), Some(InstId(2)));
    assert_eq!(h.invariant_loop(InstId(9)), None);
    assert!(h.is_pure_function());
}

#[test]
fn speculation_program_facts_in_literal_out() {
    // f0 -> f1 -> f0 (a recursion: may not terminate; the call graph's components find it,
    // given here as the `recursive` facts); f2 has the hazard #2 nested in the region op #1;
    // f3 calls f2, f4 calls the extern e0, f5 calls nothing and is safe.
    let f: Vec<FuncId> = (0..6).map(FuncId).collect();
    let mut dl = SpeculationProgram::default();
    dl.function = f.iter().map(|g| (*g,)).collect();
    dl.inst = vec![
        (f[0], InstId(1)),
        (f[1], InstId(1)),
        (f[2], InstId(1)),
        (f[2], InstId(2)),
        (f[3], InstId(1)),
        (f[4], InstId(1)),
        (f[5], InstId(1)),
    ];
    dl.calls_function = vec![
        (f[0], InstId(1), f[1]),
        (f[1], InstId(1), f[0]),
        (f[3], InstId(1), f[2]),
    ];
    dl.hazard = vec![(f[2], InstId(2))];
    dl.nested = vec![(f[2], InstId(2), InstId(1))];
    dl.calls_extern = vec![(f[4], InstId(1), ExternId(0))];
    dl.recursive = vec![(f[0],), (f[1],)];
    dl.run();
    let mut safe: Vec<u32> = dl.speculatable_function.iter().map(|(g,)| g.0).collect();
    safe.sort();
    assert_eq!(safe, vec![5]);
    let mut insts: Vec<(u32, u32)> = dl.speculatable.iter().map(|(g, i)| (g.0, i.0)).collect();
    insts.sort();
    assert_eq!(insts, vec![(5, 1)]);
}

#[test]
fn speculation_of_whole_programs() {
    let (_, a) = analyse(
        "func @fdiv(%x: f32[]) -> (f32[]) {\n  %1 = div %x, %x : f32[]\n  return %1\n}\n\
         func @idiv(%x: i32[]) -> (i32[]) {\n  %1 = rem %x, %x : i32[]\n  return %1\n}\n\
         func @guarded(%p: bool[], %x: i32[]) -> (i32[]) {\n  %1 = cond %p : i32[] {\n    \
         %2 = call @idiv(%x) : i32[]\n    yield %2\n  } {\n    yield %x\n  }\n  return %1\n}\n\
         func @scan_sum(%x: f32[4]) -> (f32[]) {\n  %1 = constant splat(0) : f32[]\n  \
         %2 = scan %1, %x num_carry=1 length=4 : f32[] {\n  ^(%3: f32[], %4: f32[]):\n    \
         %5 = add %3, %4 : f32[]\n    yield %5\n  }\n  return %2\n}\n\
         func @huge(%x: f32[]) -> (f32[]) {\n  %1 = broadcast %x dims=[] : f32[5000,5000]\n  \
         %2 = reduce_sum %1 axes=[0,1] keep_dims=false : f32[]\n  return %2\n}",
    );
    assert_eq!(
        function_names(&a, |f| a.is_speculatable_function(f.name())),
        vec!["fdiv", "scan_sum"]
    );
}
