//! The regions of `stablehlo.reduce` of two operands and of `stablehlo.sort` that PTIR reads
//! as ops: JAX's `argmax`/`argmin` reducer ([`ptir_ir::Op::ArgReduce`]) and comparators on
//! one key ([`ptir_ir::Op::Sort`]).
//!
//! Each value a region returns is written as an expression of the block's arguments (named by
//! their role, whatever the text calls them; constants by value), through `compare`,
//! `select`, `and`, `or`, `not` and scalar constants only, and the expressions are compared to
//! those of the regions PTIR has. So the op order and the names in the text do not matter,
//! the computation does; anything else is not recognized (the importer refuses it, or keeps it
//! opaque with `--allow-opaque`).

use crate::ast::{Block, OpSyntax};
use crate::import::{compare_kind, comparison, constant_of};
use ptir_ir::{ArgKind, Scalar};
use std::collections::HashMap;

/// Longest expression built: regions past it are not recognized (bounds the work on a
/// region that reuses values many times).
const EXPR_LIMIT: usize = 2048;

/// The expression of one region op whose operands have expressions `args`; `None` for ops
/// outside the recognized set.
fn op_expr(op: &OpSyntax, args: &[&String]) -> Option<String> {
    let short = op.name.strip_prefix("stablehlo.")?;
    match short {
        "compare" => {
            let [x, y] = args else { return None };
            let total = compare_kind(op).as_deref() == Some("TOTALORDER");
            let dir = comparison(op).ok()?;
            Some(format!(
                "{dir}{}({x},{y})",
                if total { ".total" } else { "" }
            ))
        }
        "select" | "and" | "or" | "not" => {
            let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
            Some(format!("{short}({})", args.join(",")))
        }
        "constant" => {
            let (lit, _) = constant_of(op, "constant").ok()??;
            match lit.splat_value()? {
                // Either zero: a float pattern compares with `==`.
                Scalar::Float(0.0) => Some("0".into()),
                Scalar::Float(x) if x.is_nan() && x.is_sign_positive() => Some("nan".into()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The expressions of the values `block` returns, its arguments called `names` in order.
pub(crate) fn returned_exprs(block: &Block, names: &[String]) -> Option<Vec<String>> {
    if block.args.len() != names.len() {
        return None;
    }
    let mut env: HashMap<&str, String> = block
        .args
        .iter()
        .zip(names)
        .map(|((n, _, _), x)| (n.as_str(), x.clone()))
        .collect();
    let (ret, body) = block.ops.split_last()?;
    if !matches!(ret.name.as_str(), "stablehlo.return" | "return") {
        return None;
    }
    for op in body {
        let args = op
            .operands
            .iter()
            .map(|(n, _)| env.get(n.as_str()))
            .collect::<Option<Vec<_>>>()?;
        let e = op_expr(op, &args)?;
        let [result] = op.results.as_slice() else {
            return None;
        };
        if e.len() > EXPR_LIMIT {
            return None;
        }
        env.insert(result.as_str(), e);
    }
    ret.operands
        .iter()
        .map(|(n, _)| env.get(n.as_str()).cloned())
        .collect()
}

fn names(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// The kind of a two-operand reduce body (arguments: the accumulator's value and index, the
/// element's) that is JAX's `argmax`/`argmin` reducer: with `pick = a <cmp> b || a != a`,
/// it returns `select(pick, a, b)` and `select(pick || (a == b && ai < bi), ai, bi)`.
pub(crate) fn arg_kind(block: &Block) -> Option<ArgKind> {
    let got = returned_exprs(block, &names(&["a", "ai", "b", "bi"]))?;
    ArgKind::ALL.iter().copied().find(|k| {
        let pick = format!("or({}(a,b),ne(a,a))", k.compare());
        got == [
            format!("select({pick},a,b)"),
            format!("select(or({pick},and(eq(a,b),lt(ai,bi))),ai,bi)"),
        ]
    })
}

/// `(descending, total_order)` of a sort comparator of `operands` operands (arguments: the
/// two elements of each operand in turn) that compares the first operand's elements alone:
/// `LT`/`GT` `TOTALORDER` of them (IEEE totalOrder), of JAX's canonicalized keys
/// (`select(x != x, nan, select(x == 0, 0, x))`: JAX's order), or of them plainly when the
/// key is an integer (`float_key` false). Arguments swapped reverse the direction.
pub(crate) fn sort_order(block: &Block, operands: usize, float_key: bool) -> Option<(bool, bool)> {
    let mut args = names(&["a", "b"]);
    args.extend((2..2 * operands).map(|i| format!("arg{i}")));
    let [got] = <[String; 1]>::try_from(returned_exprs(block, &args)?).ok()?;
    let canonical = |x: &str| format!("select(ne({x},{x}),nan,select(eq({x},0),0,{x}))");
    for (dir, descending) in [("lt", false), ("gt", true)] {
        for (l, r, desc) in [("a", "b", descending), ("b", "a", !descending)] {
            if got == format!("{dir}.total({l},{r})") {
                return Some((desc, true));
            }
            if got == format!("{dir}.total({},{})", canonical(l), canonical(r)) {
                return Some((desc, false));
            }
            if !float_key && got == format!("{dir}({l},{r})") {
                return Some((desc, false));
            }
        }
    }
    None
}
