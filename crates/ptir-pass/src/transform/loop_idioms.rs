//! Loop idioms (SMR's control-dependence idioms): a `scan` whose body is a reduction is raised
//! to a loop-free `reduce`, as SMR raises loops to BLAS calls.
//!
//! Recognized: a `scan` with one carry `acc` and no per-step outputs whose body yields
//! `acc ⊕ e` (or `e ⊕ acc`), `⊕` being `add` or `max`, where `e` is computed from the scanned
//! rows by elementwise ops only (unary, binary, compare, select, cast) and `acc` is used once.
//! With the same ops applied to the whole scanned operands, the loop is
//! `init ⊕ reduce(e(xs), axes=[0])`: a sum (a dot product when `e` is a product), a max.
//!
//! Exactness against the interpreter's order (reductions visit the reduced elements in
//! row-major order starting from `+0` for sums, `-inf` / the minimum for max):
//!
//! - integer sums wrap, so `((init + e0) + e1) + ...` = `init + (((0 + e0) + e1) + ...)`;
//! - float sums are raised only when `init` is a constant `+0.0` splat of the same block,
//!   where the scan performs exactly the reduction's additions in the same order (no
//!   reassociation, hence no `fast-math` label is needed);
//! - `max` is associative and commutative bit for bit (NaN propagates, `-0 < +0`), for every
//!   dtype but `bool`, which is left alone.
//!
//! Both engines run this before their own rewriting (`ptir::optimize`), so the raised form is
//! what the greedy patterns and the e-graph see.

use ptir_ir::{BinaryOp, Op, ReduceKind};
use ptir_ir::{DType, TensorType, Type};
use ptir_ir::{Function, Instruction, Program, Region, ValueId};
use ptir_ir::{Literal, Scalar};
use rustc_hash::FxHashMap;

/// Raises every recognized reduction `scan` of `program` (see the module docs); returns how
/// many were raised. The program still verifies and computes the same results.
pub fn raise_loop_idioms(program: &mut Program) -> usize {
    program.functions.iter_mut().map(raise_in_function).sum()
}

/// Raises the reduction scans of one function, in every block.
fn raise_in_function(f: &mut Function) -> usize {
    let mut next = f.fresh_value_id().0;
    let mut raised = 0;
    let mut stack: Vec<&mut Region> = vec![&mut f.body];
    while let Some(region) = stack.pop() {
        raised += raise_in_block(region, &mut next);
        for inst in region.insts.iter_mut() {
            stack.extend(inst.op.regions_mut());
        }
    }
    raised
}

/// A recognized reduction scan.
struct Idiom {
    kind: ReduceKind,
    /// The body value `e` reduced over the steps.
    reduced: ValueId,
    /// Whether the init must be combined with the reduction (else it is a `+0.0` splat).
    combine_init: bool,
}

/// Is `op` elementwise (applied to rows or to whole stacked operands alike)?
fn is_elementwise(op: &Op) -> bool {
    matches!(
        op,
        Op::Unary(_) | Op::Binary(_) | Op::Compare(_) | Op::Select | Op::Cast | Op::Bitcast
    )
}

/// Is `v` a constant `+0.0` splat (or dense all-`+0.0`) defined among `insts`?
fn is_positive_zero(insts: &[Instruction], v: ValueId) -> bool {
    let zero = |s: &Scalar| matches!(s, Scalar::Float(x) if *x == 0.0 && x.is_sign_positive());
    insts.iter().any(|i| {
        i.result == v
            && match &i.op {
                Op::Constant(Literal::Splat(s)) => zero(s),
                _ => false,
            }
    })
}

/// Recognizes the reduction scan `inst` (in a block whose instructions are `block`).
fn recognize(block: &[Instruction], inst: &Instruction) -> Option<Idiom> {
    let Op::Scan {
        num_carry: 1, body, ..
    } = &inst.op
    else {
        return None;
    };
    let [result] = body.results.as_slice() else {
        return None;
    };
    let acc = body.params.first()?.id;
    let (last, rest) = body.insts.split_last()?;
    if last.result != *result || rest.iter().any(|i| !is_elementwise(&i.op)) {
        return None;
    }
    let kind = match last.op {
        Op::Binary(BinaryOp::Add) => ReduceKind::Sum,
        Op::Binary(BinaryOp::Max) => ReduceKind::Max,
        _ => return None,
    };
    let reduced = match last.operands.as_slice() {
        [a, e] | [e, a] if *a == acc && *e != acc => *e,
        _ => return None,
    };
    // Only the scanned rows and the body's own elementwise values feed `e`; `acc` only the
    // combine.
    let local: Vec<ValueId> = body.params[1..]
        .iter()
        .map(|p| p.id)
        .chain(rest.iter().map(|i| i.result))
        .collect();
    if rest
        .iter()
        .any(|i| i.operands.iter().any(|v| !local.contains(v)))
        || !local.contains(&reduced)
    {
        return None;
    }
    let dtype = inst.ty.as_tensor()?.dtype;
    let combine_init = match (kind, dtype) {
        (ReduceKind::Max, DType::Bool) => return None,
        (ReduceKind::Sum, d) if d.is_float() => {
            if !is_positive_zero(block, *inst.operands.first()?) {
                return None;
            }
            false
        }
        (ReduceKind::Sum, DType::Bool) => return None,
        _ => true,
    };
    Some(Idiom {
        kind,
        reduced,
        combine_init,
    })
}

/// The stacked type of a row type: `length` prepended to its shape.
fn stacked(ty: &Type, length: usize) -> Option<Type> {
    let t = ty.as_tensor()?;
    let mut shape = vec![length];
    shape.extend_from_slice(&t.shape);
    Some(Type::Tensor(TensorType::new(t.dtype, shape)))
}

/// The loop-free instructions replacing the recognized scan `inst`, the last defining the
/// scan's own result value.
fn raise(inst: &Instruction, idiom: &Idiom, next: &mut u32) -> Option<Vec<Instruction>> {
    let Op::Scan { length, body, .. } = &inst.op else {
        return None;
    };
    let mut fresh = || {
        *next += 1;
        ValueId(*next - 1)
    };
    let mut map: FxHashMap<ValueId, ValueId> = FxHashMap::default();
    for (p, &x) in body.params[1..].iter().zip(&inst.operands[1..]) {
        map.insert(p.id, x);
    }
    let mut out = Vec::new();
    let (_, rest) = body.insts.split_last()?;
    for i in rest {
        let result = fresh();
        map.insert(i.result, result);
        out.push(Instruction {
            result,
            ty: stacked(&i.ty, *length)?,
            op: i.op.clone(),
            operands: i.operands.iter().map(|v| map[v]).collect(),
        });
    }
    let reduce = Instruction {
        result: if idiom.combine_init {
            fresh()
        } else {
            inst.result
        },
        ty: inst.ty.clone(),
        op: Op::Reduce {
            kind: idiom.kind,
            axes: vec![0],
            keep_dims: false,
        },
        operands: vec![*map.get(&idiom.reduced)?],
    };
    let reduced = reduce.result;
    out.push(reduce);
    if idiom.combine_init {
        let op = idiom.kind.step(inst.ty.as_tensor()?.dtype);
        out.push(Instruction {
            result: inst.result,
            ty: inst.ty.clone(),
            op: Op::Binary(op),
            operands: vec![inst.operands[0], reduced],
        });
    }
    Some(out)
}

/// Raises the reduction scans directly in `region` (not in nested blocks).
fn raise_in_block(region: &mut Region, next: &mut u32) -> usize {
    let mut raised = 0;
    let mut k = 0;
    while k < region.insts.len() {
        let replacement = recognize(&region.insts[..k], &region.insts[k])
            .and_then(|idiom| raise(&region.insts[k], &idiom, next));
        match replacement {
            Some(new) => {
                let n = new.len();
                region.insts.splice(k..=k, new);
                k += n;
                raised += 1;
            }
            None => k += 1,
        }
    }
    raised
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptir_ir::{parse, print, run, verify, Tensor, Value};

    fn raised(text: &str) -> (Program, usize) {
        let mut p = parse(text).unwrap();
        let n = raise_loop_idioms(&mut p);
        verify(&p).unwrap_or_else(|e| panic!("{e}\n{}", print(&p)));
        (p, n)
    }

    /// The integration test's dot product (`tests/rules/loop_idioms.rs`).
    const DOT: &str = include_str!("../../../../tests/data/dot_scan.ptir");

    #[test]
    fn integer_dot_product_scan_becomes_a_reduce() {
        let (p, n) = raised(DOT);
        assert_eq!(n, 1);
        let text = print(&p);
        assert!(!text.contains("scan"), "{text}");
        assert!(text.contains("reduce_sum"), "{text}");
    }

    #[test]
    fn float_sum_from_a_nonzero_init_is_left_alone() {
        let text = "func @s(%a: f32[4], %c: f32[]) -> (f32[]) {
  %r = scan %c, %a num_carry=1 length=4 : f32[] {
  ^(%acc: f32[], %x: f32[]):
    %s = add %acc, %x : f32[]
    yield %s
  }
  return %r
}";
        assert_eq!(raised(text).1, 0);
        let zero = text
            .replace(", %c: f32[]) ", ") ")
            .replace("{\n  %r", "{\n  %c = constant splat(0.0) : f32[]\n  %r");
        assert_eq!(raised(&zero).1, 1, "{zero}");
        let neg_zero = zero.replace("splat(0.0)", "splat(-0.0)");
        assert_eq!(raised(&neg_zero).1, 0);
    }

    #[test]
    fn accumulator_used_in_the_reduced_value_is_not_a_reduction() {
        let text = DOT.replace("%p = mul %x, %y", "%p = mul %acc, %y");
        assert_eq!(raised(&text).1, 0);
    }

    #[test]
    fn raised_max_scan_computes_what_the_loop_computes() {
        let text = "func @m(%a: f32[3,2], %c: f32[2]) -> (f32[2]) {
  %r = scan %c, %a num_carry=1 length=3 : f32[2] {
  ^(%acc: f32[2], %x: f32[2]):
    %e = exp %x : f32[2]
    %s = max %e, %acc : f32[2]
    yield %s
  }
  return %r
}";
        let before = parse(text).unwrap();
        let (after, n) = raised(text);
        assert_eq!(n, 1);
        let a = Tensor::from_f64(
            TensorType::new(DType::F32, vec![3, 2]),
            &[0.5, f64::NAN, -1.0, 2.0, 3.0, -0.0],
        );
        let c = Tensor::from_f64(TensorType::new(DType::F32, vec![2]), &[1.0, -4.0]);
        let args = vec![Value::Tensor(a), Value::Tensor(c)];
        let x = run(&before, "m", &args).unwrap();
        let y = run(&after, "m", &args).unwrap();
        assert_eq!(format!("{x:?}"), format!("{y:?}"));
    }
}
