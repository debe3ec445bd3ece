//! The regions of `stablehlo.reduce` of two operands and of `stablehlo.sort` that PTIR reads
//! as ops: JAX's `argmax`/`argmin` reducer ([`ptir_ir::Op::ArgReduce`]) and comparators on
//! one or several keys ([`ptir_ir::Op::Sort`]).
//!
//! Each value a region returns is written as an expression of the block's arguments (named by
//! their role, whatever the text calls them; constants by value), through `compare`,
//! `select`, `and`, `or`, `not` and scalar constants only, and the expressions are compared to
//! those of the regions PTIR has. So the op order and the names in the text do not matter,
//! the computation does; anything else is not recognized (the importer refuses it, or keeps it
//! opaque with `--allow-opaque`).

use super::{compare_kind, comparison, constant_of};
use crate::ast::{Block, OpSyntax};
use ptir_ir::{ArgKind, DType, Scalar};
use std::collections::HashMap;

/// Longest expression built per block argument: regions past it are not recognized (bounds
/// the work on a region that reuses values many times, while a comparator on many keys, whose
/// expression grows with each key, stays readable: `jnp.lexsort` of 40 float keys is 18k).
const EXPR_LIMIT_PER_ARG: usize = 1024;

/// The expression of one region op whose operands have expressions `args`; `None` for ops
/// outside the recognized set.
fn op_expr(op: &OpSyntax, args: &[&String]) -> Option<String> {
    let short = op.name.strip_prefix("stablehlo.")?;
    match short {
        "compare" => {
            let [x, y] = args else { return None };
            // The comparison type: `TOTALORDER` for floats; for integers a signedness other
            // than the operands' own (an `UNSIGNED` compare of `i32`s) is marked, so that no
            // pattern of a natural comparison takes it.
            // Bools compare as unsigned integers (`false < true`): JAX writes them `UNSIGNED`.
            let unsigned =
                (op.operand_types.first()).map(|t| t.dtype.is_unsigned() || t.dtype == DType::Bool);
            let kind = match (compare_kind(op).as_deref(), unsigned) {
                (Some("TOTALORDER"), _) => ".total",
                (Some("UNSIGNED"), Some(false)) => ".unsigned",
                (Some("SIGNED"), Some(true)) => ".signed",
                (Some("UNSIGNED" | "SIGNED"), None) => ".untyped",
                _ => "",
            };
            let dir = comparison(op).ok()?;
            Some(format!("{dir}{kind}({x},{y})"))
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
        if e.len() > EXPR_LIMIT_PER_ARG * block.args.len().max(2) {
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

/// The combining op of each operand of a reduction of `n` operands whose body combines each
/// accumulator with its own element only: the block's arguments are the accumulators
/// `a0..an` then the elements `x0..xn`, and it returns, in order, one `op(ai, xi)` (or
/// `op(xi, ai)`) each, computed by an op of its own of one result; `None` for any other body
/// (an unused op in it too: what the importer does not read, it refuses).
pub(crate) fn independent_reducers(block: &Block, n: usize) -> Option<Vec<String>> {
    if n == 0 || block.args.len() != 2 * n {
        return None;
    }
    let (ret, body) = block.ops.split_last()?;
    if !matches!(ret.name.as_str(), "stablehlo.return" | "return")
        || ret.operands.len() != n
        || body.len() != n
    {
        return None;
    }
    let arg = |i: usize| block.args[i].0.as_str();
    (ret.operands.iter().enumerate())
        .map(|(i, (r, _))| {
            let combine = body
                .iter()
                .find(|o| o.results.len() == 1 && o.results[0] == *r)?;
            let ops: Vec<&str> = combine.operands.iter().map(|(o, _)| o.as_str()).collect();
            let own = ops == [arg(i), arg(n + i)] || ops == [arg(n + i), arg(i)];
            // Types that agree: the accumulator and the element one type, the combining op's
            // declared operands and result of it, the return's declared operand too.
            let t = &block.args[i].1;
            let agree = block.args[n + i].1 == *t
                && combine.operand_types.iter().all(|u| u == t)
                && super::region_result_type(combine, t) == t
                && ret.operand_types.get(i).is_none_or(|u| u == t)
                && (ret.operand_types.is_empty() || ret.operand_types.len() == n);
            (own && agree && combine.regions.is_empty()).then(|| combine.name.clone())
        })
        .collect()
}

/// How a sort comparator orders (see [`ptir_ir::Op::Sort`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SortOrder {
    /// How many leading operands are keys.
    pub keys: usize,
    /// Greatest first?
    pub descending: bool,
    /// Float keys in IEEE totalOrder rather than JAX's order.
    pub total_order: bool,
}

/// The order of a sort comparator of operands whose dtypes are float or not as `float_keys`
/// says (arguments: the two elements of each operand in turn) that compares the first
/// operands' elements alone, lexicographically as JAX writes it:
/// `lt(k1) || (eq(k1) && (lt(k2) || (eq(k2) && ... lt(kn))))`. Each comparison is
/// `LT`/`GT` `TOTALORDER` (IEEE totalOrder), of JAX's canonicalized keys
/// (`select(x != x, nan, select(x == 0, 0, x))`: JAX's order), or plain for integer keys.
/// Arguments swapped reverse the direction.
pub(crate) fn sort_order(block: &Block, keys_dtypes: &[DType]) -> Option<SortOrder> {
    let mut args = Vec::new();
    for i in 0..keys_dtypes.len() {
        args.extend([format!("a{i}"), format!("b{i}")]);
    }
    let [got] = <[String; 1]>::try_from(returned_exprs(block, &args)?).ok()?;
    for keys in 1..=keys_dtypes.len() {
        for (dir, descending) in [("lt", false), ("gt", true)] {
            for swapped in [false, true] {
                for total_order in [true, false] {
                    let order = SortOrder {
                        keys,
                        descending: descending != swapped,
                        total_order,
                    };
                    let key = |i: usize, dir: &str| -> Vec<String> {
                        let (l, r) = match swapped {
                            false => (format!("a{i}"), format!("b{i}")),
                            true => (format!("b{i}"), format!("a{i}")),
                        };
                        key_compares(dir, &l, &r, keys_dtypes[i], total_order)
                    };
                    if lexicographic(&got, 0, keys, &|i| key(i, dir), &|i| key(i, "eq")) {
                        return Some(order);
                    }
                }
            }
        }
    }
    None
}

/// The ways one key's comparison `dir` of `l` and `r` is written, for a key of `dtype` (an
/// integer comparison of the other signedness is marked by [`op_expr`] and matches none).
fn key_compares(dir: &str, l: &str, r: &str, dtype: DType, total_order: bool) -> Vec<String> {
    let canonical = |x: &str| format!("select(ne({x},{x}),nan,select(eq({x},0),0,{x}))");
    match (dtype.is_float(), total_order) {
        (true, true) => vec![format!("{dir}.total({l},{r})")],
        (true, false) => vec![format!("{dir}.total({},{})", canonical(l), canonical(r))],
        (false, _) => vec![format!("{dir}({l},{r})"), format!("{dir}.total({l},{r})")],
    }
}

/// Is `expr` the lexicographic comparison of keys `i..keys`, each key's ordering and equality
/// written as `less(i)` and `equal(i)` say?
fn lexicographic(
    expr: &str,
    i: usize,
    keys: usize,
    less: &dyn Fn(usize) -> Vec<String>,
    equal: &dyn Fn(usize) -> Vec<String>,
) -> bool {
    if i + 1 == keys {
        return less(i).iter().any(|l| l == expr);
    }
    let Some(inner) = expr.strip_prefix("or(").and_then(|e| e.strip_suffix("))")) else {
        return false;
    };
    less(i).iter().any(|l| {
        equal(i).iter().any(|e| {
            inner
                .strip_prefix(&format!("{l},and({e},"))
                .is_some_and(|rest| lexicographic(rest, i + 1, keys, less, equal))
        })
    })
}
