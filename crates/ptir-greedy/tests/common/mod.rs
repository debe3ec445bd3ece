//! Helpers shared by the integration tests: parse, run the driver, print, and a few
//! hand-written patterns with known behaviour.
#![allow(dead_code)]

use ptir_greedy::{
    apply_patterns_greedily, GreedyConfig, GreedyError, GreedyReport, Pattern, PatternSet,
    ProgramContext, ProgramRewriter, Roots,
};
use ptir_ir::{InstId, Op, OpKey, Program, UnaryOp};
use std::cell::RefCell;
use std::rc::Rc;

pub fn parse(text: &str) -> Program {
    match ptir_ir::parse(text) {
        Ok(p) => p,
        Err(e) => panic!("test program does not parse: {e}\n{text}"),
    }
}

/// Runs the driver on the first function of `text`; returns the program after and the report.
pub fn run(
    text: &str,
    set: PatternSet,
    config: &GreedyConfig,
) -> Result<(Program, GreedyReport), GreedyError> {
    let mut p = parse(text);
    let cx = ProgramContext::new(&p);
    let f = p.functions.remove(0);
    let mut rw = ProgramRewriter::new(f, &cx).expect("valid function");
    let frozen = set.freeze();
    let result = apply_patterns_greedily(&mut rw, &frozen, config);
    p.functions.insert(0, rw.finish());
    result.map(|r| (p, r))
}

/// The function's body lines (between the signature and the closing brace), trimmed.
pub fn body(p: &Program) -> Vec<String> {
    let text = ptir_ir::print(p);
    let mut lines: Vec<String> = text.lines().map(|l| l.trim().to_string()).collect();
    lines.retain(|l| {
        !l.is_empty() && !l.starts_with("func ") && l != "}" && !l.starts_with("extern")
    });
    lines
}

/// Replaces `from(x)` by a new `to(x)`.
pub struct Swap {
    pub name: &'static str,
    pub from: UnaryOp,
    pub to: UnaryOp,
    pub benefit: u16,
    pub labels: Vec<String>,
    pub bounded: bool,
}

impl Swap {
    pub fn new(name: &'static str, from: UnaryOp, to: UnaryOp) -> Self {
        Swap {
            name,
            from,
            to,
            benefit: 1,
            labels: Vec::new(),
            bounded: true,
        }
    }

    pub fn benefit(mut self, b: u16) -> Self {
        self.benefit = b;
        self
    }

    pub fn label(mut self, l: &str) -> Self {
        self.labels.push(l.to_string());
        self
    }
}

impl Pattern for Swap {
    fn roots(&self) -> Roots {
        Roots::Ops(vec![OpKey::Unary(self.from)])
    }
    fn benefit(&self) -> u16 {
        self.benefit
    }
    fn debug_name(&self) -> &str {
        self.name
    }
    fn labels(&self) -> &[String] {
        &self.labels
    }
    fn has_bounded_recursion(&self) -> bool {
        self.bounded
    }
    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool {
        let x = rw.operands(root)[0];
        let ty = rw.ty(root).clone();
        let new = rw.insert_before(root, Op::Unary(self.to), vec![x], ty);
        rw.replace_op(root, new.value());
        true
    }
}

/// Never matches; records every root it is tried on.
pub struct Spy {
    pub name: &'static str,
    pub roots: Roots,
    pub benefit: u16,
    pub seen: Rc<RefCell<Vec<InstId>>>,
}

impl Spy {
    pub fn any(name: &'static str, benefit: u16) -> (Self, Rc<RefCell<Vec<InstId>>>) {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let spy = Spy {
            name,
            roots: Roots::Any(ptir_greedy::MatchAnyOpTypeTag),
            benefit,
            seen: seen.clone(),
        };
        (spy, seen)
    }

    pub fn on(name: &'static str, key: OpKey, benefit: u16) -> (Self, Rc<RefCell<Vec<InstId>>>) {
        let (mut spy, seen) = Spy::any(name, benefit);
        spy.roots = Roots::Ops(vec![key]);
        (spy, seen)
    }
}

impl Pattern for Spy {
    fn roots(&self) -> Roots {
        self.roots.clone()
    }
    fn benefit(&self) -> u16 {
        self.benefit
    }
    fn debug_name(&self) -> &str {
        self.name
    }
    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool {
        self.seen.borrow_mut().push(root);
        rw.notify_match_failure(root, || format!("{} only watches", self.name))
    }
}

/// Runs `function` of `p` on `args` with every extern's reference semantics (the generated
/// programs' `@gen_pure`/`@gen_impure` among them) and a fixed `rng` seed.
pub fn interpret(
    p: &Program,
    function: &str,
    args: &[ptir_ir::Value],
) -> Result<Vec<ptir_ir::Value>, ptir_ir::InterpError> {
    ptir_test_support::interpreter(p)
        .with_seed(42)
        .run(function, args)
}

/// Checks that `output` computes what `input` computes on `args` (function `function`, seed
/// `seed` for the messages); returns false, comparing nothing, when `input` itself fails on
/// them.
pub fn same_results(
    input: &Program,
    output: &Program,
    function: &str,
    args: &[ptir_ir::Value],
    seed: u64,
) -> bool {
    let Ok(expected) = interpret(input, function, args) else {
        return false;
    };
    let got = interpret(output, function, args)
        .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{}", ptir_ir::print(output)));
    assert_eq!(
        got,
        expected,
        "seed {seed}\ninput:\n{}\noutput:\n{}",
        ptir_ir::print(input),
        ptir_ir::print(output)
    );
    true
}
