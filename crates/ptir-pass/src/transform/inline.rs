//! Inlining the calls of a program's own functions.
//!
//! JAX wraps helpers in private functions (`@_var`, `@_where`, `@tril`, `@"<lambda>"`) and
//! calls them with `func.call`: no rule matches across a call, so a layernorm whose variance is
//! `call @_var` is never recognized, and nothing folds into or out of a helper. Inlined, their
//! ops meet their callers' and both engines see the program as the user wrote it.
//!
//! What stays a call: calls of externs, calls of functions in a cycle of the call graph
//! (recursion), and calls past the budget. The budget bounds what a call graph that doubles at
//! each level would make (a function calling its helper twice, which calls its own twice, ...:
//! 2^depth copies): at most [`INLINE_GROWTH`] times the program's own instructions (and
//! [`INLINE_FLOOR`] at least) are added, and calls that would pass it stay calls. Functions no
//! longer called by anything (the helpers, all of whose calls were inlined) are dropped; those
//! never called (the entry points) stay.
//!
//! The inliner walks each function once, top-down, with an explicit stack of the bodies being
//! inlined: a chain of 20,000 functions each calling the next costs the size of what it
//! produces and no recursion of the Rust stack (regions recurse, to their nesting depth, which
//! inlining keeps under [`INLINE_NESTING_LIMIT`]).
//!
//! ```
//! let p = ptir_ir::parse("func @sq(%x: f32[4]) -> (f32[4]) {
//!   %y = mul %x, %x : f32[4]
//!   return %y
//! }
//! func @main(%a: f32[4]) -> (f32[4]) {
//!   %b = call @sq(%a) : f32[4]
//!   %c = call @sq(%b) : f32[4]
//!   return %c
//! }").unwrap();
//! let (inlined, stats) = ptir_pass::transform::inline_calls(&p);
//! assert_eq!(stats.inlined, 2);
//! assert_eq!(inlined.functions.len(), 1); // @sq is no longer called
//! assert!(ptir_ir::verify(&inlined).is_ok());
//! assert!(!ptir_ir::print(&inlined).contains("call"));
//! ```

use ptir_ir::analysis::recursive_functions;
use ptir_ir::Op;
use ptir_ir::Type;
use ptir_ir::{Function, Instruction, Param, Program, Region, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// How many times its own instructions a program may grow by inlining.
pub const INLINE_GROWTH: usize = 4;

/// Instructions inlining may always add, however small the program (so that a tiny program
/// calling a helper a few times is inlined whole).
pub const INLINE_FLOOR: usize = 10_000;

/// The deepest region nesting inlining makes: a call inside a region is inlined only if the
/// callee's own regions stay within it (the text formats refuse deeper nesting).
pub const INLINE_NESTING_LIMIT: usize = 32;

/// What [`inline_calls`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InlineStats {
    /// Calls replaced by the callee's body.
    pub inlined: usize,
    /// Calls of the program's own non-recursive functions kept because the budget or the
    /// nesting limit would have been passed.
    pub kept: usize,
    /// Functions dropped because nothing calls them any more.
    pub dropped: usize,
}

/// Inlines every call of a function of `program` that is not recursive, within the budget (see
/// the module docs); the program computes what it computed.
pub fn inline_calls(program: &Program) -> (Program, InlineStats) {
    let budget = INLINE_FLOOR.max(program.num_insts().saturating_mul(INLINE_GROWTH));
    let mut inliner = Inliner::new(program, budget);
    let called_before = program.called_names();
    // The entry points first (nothing calls them); then the functions their inlined bodies
    // still call (recursive ones, or past the budget), and so on: a helper whose every call
    // was inlined is never walked, so a chain costs what it produces, not its square.
    let mut done: FxHashMap<&str, Function> = FxHashMap::default();
    let mut work: Vec<&Function> = (program.functions.iter())
        .filter(|f| !called_before.contains(&f.name))
        .collect();
    while let Some(f) = work.pop() {
        if done.contains_key(f.name.as_str()) {
            continue;
        }
        let inlined = inliner.function(f);
        inlined.body.walk(&mut |inst, _| {
            if let Op::Call { callee } = &inst.op {
                if let Some(g) = inliner.functions.get(callee.as_str()) {
                    if !done.contains_key(callee.as_str()) {
                        work.push(g);
                    }
                }
            }
        });
        done.insert(f.name.as_str(), inlined);
    }
    let functions: Vec<Function> = (program.functions.iter())
        .filter_map(|f| done.remove(f.name.as_str()))
        .collect();
    inliner.stats.dropped = program.functions.len() - functions.len();
    let out = Program {
        externs: program.externs.clone(),
        functions,
    };
    (out, inliner.stats)
}

/// The deepest region nesting in `region` (0: no region op).
fn nesting(region: &Region) -> usize {
    let mut deepest = 0;
    region.walk(&mut |inst, depth| {
        if !inst.op.regions().is_empty() {
            deepest = deepest.max(depth + 1);
        }
    });
    deepest
}

/// Value renaming inside one inlined body (or none, for a function's own body).
#[derive(Default)]
struct Renames {
    map: FxHashMap<ValueId, ValueId>,
    /// Fresh ids for definitions (bodies being inlined), or the ids as they are.
    fresh: bool,
}

impl Renames {
    fn get(&self, v: ValueId) -> ValueId {
        self.map.get(&v).copied().unwrap_or(v)
    }
}

/// One body being inlined: its instructions, the next one, its renaming, and the call it
/// replaces (`None` for the function's own body).
struct Frame<'p> {
    insts: &'p [Instruction],
    at: usize,
    names: Renames,
    call: Option<(&'p Instruction, &'p [ValueId])>,
}

struct Inliner<'p> {
    functions: FxHashMap<&'p str, &'p Function>,
    recursive: FxHashSet<&'p str>,
    /// Instructions and region nesting of each function's own body.
    sizes: FxHashMap<&'p str, (usize, usize)>,
    budget: usize,
    next: u32,
    stats: InlineStats,
}

impl<'p> Inliner<'p> {
    fn new(program: &'p Program, budget: usize) -> Self {
        let functions = (program.functions.iter())
            .map(|f| (f.name.as_str(), f))
            .collect();
        let sizes = (program.functions.iter())
            .map(|f| (f.name.as_str(), (f.body.num_insts(), nesting(&f.body))))
            .collect();
        Inliner {
            functions,
            recursive: recursive_functions(program),
            sizes,
            budget,
            next: 0,
            stats: InlineStats::default(),
        }
    }

    fn function(&mut self, f: &'p Function) -> Function {
        self.next = f.body.max_value_id().map_or(0, |m| m + 1);
        let mut names = Renames::default();
        Function {
            name: f.name.clone(),
            result_types: f.result_types.clone(),
            body: self.region(&f.body, &mut names, 0),
        }
    }

    fn define(&mut self, names: &mut Renames, v: ValueId) -> ValueId {
        if !names.fresh {
            return v;
        }
        let id = ValueId(self.next);
        self.next += 1;
        names.map.insert(v, id);
        id
    }

    /// `region` with its calls inlined, its definitions renamed by `names` (whose map also
    /// renames the values of enclosing scopes it uses); `depth` is its nesting.
    fn region(&mut self, region: &'p Region, names: &mut Renames, depth: usize) -> Region {
        let params = (region.params.iter())
            .map(|p| Param {
                id: self.define(names, p.id),
                ty: p.ty.clone(),
            })
            .collect();
        let insts = self.block(&region.insts, names, depth);
        let results = region.results.iter().map(|&r| names.get(r)).collect();
        Region {
            params,
            insts,
            results,
        }
    }

    /// The callee of `inst` if its call is to be inlined at nesting `depth`.
    fn inlinable(&self, inst: &Instruction, depth: usize) -> Option<&'p Function> {
        let Op::Call { callee } = &inst.op else {
            return None;
        };
        let f = *self.functions.get(callee.as_str())?;
        if self.recursive.contains(callee.as_str()) {
            return None;
        }
        let (size, nest) = self.sizes.get(callee.as_str()).copied().unwrap_or_default();
        (size <= self.budget && depth + nest <= INLINE_NESTING_LIMIT).then_some(f)
    }

    /// The instructions of `insts` with calls inlined (see [`Frame`]).
    fn block(
        &mut self,
        insts: &'p [Instruction],
        names: &mut Renames,
        depth: usize,
    ) -> Vec<Instruction> {
        let mut out = Vec::with_capacity(insts.len());
        let own = std::mem::take(names);
        let mut stack = vec![Frame {
            insts,
            at: 0,
            names: own,
            call: None,
        }];
        while let Some(top) = stack.last_mut() {
            let Some(inst) = top.insts.get(top.at) else {
                let Some(done) = stack.pop() else { break };
                match (done.call, stack.last_mut()) {
                    (Some((call, results)), Some(caller)) => {
                        let values: Vec<ValueId> =
                            results.iter().map(|&r| done.names.get(r)).collect();
                        self.bind_results(call, values, &mut caller.names, &mut out);
                    }
                    _ => *names = done.names,
                }
                continue;
            };
            top.at += 1;
            if let Some(f) = self.inlinable(inst, depth) {
                let mut callee = Renames {
                    map: FxHashMap::default(),
                    fresh: true,
                };
                for (p, &o) in f.body.params.iter().zip(&inst.operands) {
                    callee.map.insert(p.id, top.names.get(o));
                }
                self.budget -= self.sizes.get(f.name.as_str()).map_or(0, |s| s.0);
                self.stats.inlined += 1;
                stack.push(Frame {
                    insts: &f.body.insts,
                    at: 0,
                    names: callee,
                    call: Some((inst, &f.body.results)),
                });
                continue;
            }
            if matches!(inst.op, Op::Call { ref callee } if self.functions.contains_key(callee.as_str()) && !self.recursive.contains(callee.as_str()))
            {
                self.stats.kept += 1;
            }
            let operands = inst.operands.iter().map(|&o| top.names.get(o)).collect();
            let mut op = inst.op.clone();
            let mut frame_names = std::mem::take(&mut top.names);
            for (slot, r) in op.regions_mut().into_iter().zip(inst.op.regions()) {
                *slot = self.region(r, &mut frame_names, depth + 1);
            }
            let result = self.define(&mut frame_names, inst.result);
            if let Some(top) = stack.last_mut() {
                top.names = frame_names;
            }
            out.push(Instruction {
                result,
                ty: inst.ty.clone(),
                op,
                operands,
            });
        }
        out
    }

    /// Binds the result of an inlined `call` in its caller to the callee's `values`: one
    /// tensor result is the value itself; several are packed in a tuple under the call's id,
    /// as the call returned them.
    fn bind_results(
        &mut self,
        call: &Instruction,
        values: Vec<ValueId>,
        caller: &mut Renames,
        out: &mut Vec<Instruction>,
    ) {
        if let ([v], Type::Tensor(_)) = (values.as_slice(), &call.ty) {
            caller.map.insert(call.result, *v);
            return;
        }
        let result = self.define(caller, call.result);
        out.push(Instruction {
            result,
            ty: call.ty.clone(),
            op: Op::Tuple,
            operands: values,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptir_ir::{parse, verify, DType, Interpreter, Tensor, TensorType, Value};

    fn same_results(p: &Program, q: &Program, x: f64) {
        let arg = Value::Tensor(Tensor::from_f64(
            TensorType::new(DType::F32, vec![2]),
            &[x, -x],
        ));
        let a = Interpreter::new(p).run("main", std::slice::from_ref(&arg));
        let b = Interpreter::new(q).run("main", &[arg]);
        assert_eq!(a, b);
    }

    #[test]
    fn several_results_nested_regions_and_recursion() {
        let p = parse(
            "func @two(%x: f32[2]) -> (f32[2], f32[2]) {
  %p = constant splat(true) : bool[]
  %y = cond %p : f32[2] {
    %n = neg %x : f32[2]
    yield %n
  } {
    yield %x
  }
  return %y, %x
}
func @spin(%x: f32[2]) -> (f32[2]) {
  %y = call @spin(%x) : f32[2]
  return %y
}
func @main(%a: f32[2]) -> (f32[2]) {
  %t = call @two(%a) : (f32[2], f32[2])
  %u = tuple_get %t index=0 : f32[2]
  %v = tuple_get %t index=1 : f32[2]
  %w = add %u, %v : f32[2]
  %p = constant splat(false) : bool[]
  %z = cond %p : f32[2] {
    %s = call @spin(%w) : f32[2]
    yield %s
  } {
    yield %w
  }
  return %z
}",
        )
        .unwrap();
        let (q, stats) = inline_calls(&p);
        verify(&q).unwrap();
        assert_eq!((stats.inlined, stats.dropped), (1, 1), "{stats:?}");
        let names: Vec<&str> = q.functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["spin", "main"]);
        same_results(&p, &q, 1.5);
    }

    /// 20,000 functions, each calling the next: linear, and no recursion of the Rust stack.
    #[test]
    fn a_long_chain_of_calls_is_inlined_whole() {
        let n = 20_000;
        let mut text = String::from(
            "func @f0(%x: f32[2]) -> (f32[2]) {\n  %y = neg %x : f32[2]\n  return %y\n}\n",
        );
        for k in 1..n {
            text += &format!(
                "func @f{k}(%x: f32[2]) -> (f32[2]) {{\n  %y = call @f{}(%x) : f32[2]\n  %z = abs %y : f32[2]\n  return %z\n}}\n",
                k - 1
            );
        }
        text += &format!("func @main(%a: f32[2]) -> (f32[2]) {{\n  %b = call @f{}(%a) : f32[2]\n  return %b\n}}\n", n - 1);
        let p = parse(&text).unwrap();
        let (q, stats) = inline_calls(&p);
        assert_eq!(stats.inlined, n);
        assert_eq!(q.functions.len(), 1);
        assert_eq!(q.num_insts(), n);
        verify(&q).unwrap();
    }

    /// Each function calls the next twice: 2^40 copies, cut by the budget.
    #[test]
    fn a_doubling_call_graph_stops_at_the_budget() {
        let mut text = String::from(
            "func @f0(%x: f32[2]) -> (f32[2]) {\n  %y = neg %x : f32[2]\n  return %y\n}\n",
        );
        for k in 1..40 {
            text += &format!(
                "func @f{k}(%x: f32[2]) -> (f32[2]) {{\n  %y = call @f{j}(%x) : f32[2]\n  %z = call @f{j}(%y) : f32[2]\n  return %z\n}}\n",
                j = k - 1
            );
        }
        text +=
            "func @main(%a: f32[2]) -> (f32[2]) {\n  %b = call @f39(%a) : f32[2]\n  return %b\n}\n";
        let p = parse(&text).unwrap();
        let (q, stats) = inline_calls(&p);
        verify(&q).unwrap();
        assert!(stats.kept > 0, "{stats:?}");
        assert!(
            q.num_insts() <= INLINE_FLOOR + 3 * p.num_insts(),
            "{}",
            q.num_insts()
        );
    }
}
