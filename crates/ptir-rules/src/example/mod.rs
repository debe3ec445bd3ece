//! Proof by interpreter: a rule turned into a concrete program that runs.
//!
//! [`instantiate`] makes an [`Example`] of a rule: a verified program with two functions,
//! `@source` (the rule's source pattern, with random shapes, dtypes and attributes that
//! satisfy its constraints) and `@result` (the same instructions, then the rule's results
//! built by [`Rule::instantiate`] on the bindings of that match), with the same parameters (one
//! per value variable of the source, one per `?_`), and random inputs. Running both on the same
//! inputs must give the same values — bit for bit unless the rule is `fast-math`; a rule for
//! which they differ is wrong.
//!
//! ```
//! use ptir_rules::{example, RuleSet, Registry};
//! let mut set = RuleSet::new(Registry::standard());
//! set.add_source("t.rules", "
//!     ; transposing twice by inverse permutations moves no element
//!     (rule transpose-of-transpose
//!       (transpose (transpose ?x ?p) ?q) => ?x
//!       :when ((inverse-perm ?p ?q)))").unwrap();
//! let ex = example::instantiate(&set.rules()[0], set.registry(), 7).unwrap();
//! let source = ex.run(example::SOURCE, &ex.inputs).unwrap();
//! let result = ex.run(example::RESULT, &ex.inputs).unwrap();
//! assert_eq!(source, result);
//! ```
//!
//! **How an instance is found.** A sampler walks the source DAG, operands
//! before users, and at each op chooses what is still open: the types of leaves that have
//! none yet and the attribute variables no literal or earlier occurrence fixes (a random perm
//! of the operand's rank, a random subset of axes, a superset shape for a broadcast, a
//! factorization of the element count for a reshape, dot dims and then operand shapes that
//! fit them, ...), and types the op with [`crate::make_op`]. Constraints steer it where that
//! is easy (`inverse-perm` inverts the perm already chosen, `has-shape` fixes a leaf, ...).
//! If an op does not type or the constraints do not hold, the attempt starts over with new
//! choices, up to [`ATTEMPTS`] times; attempts alternate between small random dims, distinct
//! dims and all-equal dims (which perm identities need). Every value stays within 64 elements.

mod compare;
mod hints;
mod layout;
mod prove;
mod sampler;
mod shapes;
#[cfg(test)]
mod tests;

pub use crate::values::{random_value, sample_number, InputKind};
pub use compare::{compare, fast_math_tolerance, promoted_tolerance, Mode, Outcome, Tolerance};
pub use prove::{check_example, prove, ProofError, Proven};

use crate::apply::{ApplyError, Bindings};
use crate::ast::{Attr, AttrValue, Rule, Term, TermId, Var};
use crate::build::FnBuilder;
use crate::externs;
use crate::registry::Registry;
use indexmap::IndexMap;
use ptir_ir::{DType, ExternDecl, InterpError, Interpreter, Op, Program, Type, Value, ValueId};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sampler::{Sampler, Sizes, Slot};
use std::collections::HashMap;

/// Most attempts [`instantiate`] makes before giving up.
pub const ATTEMPTS: usize = 200;

/// The name of the function that computes the rule's source pattern.
pub const SOURCE: &str = "source";

/// The name of the function that computes the rule's results.
pub const RESULT: &str = "result";

/// A rule made concrete: `@source` and `@result` over the same parameters, and inputs.
#[derive(Clone, Debug)]
pub struct Example {
    /// The rule's name.
    pub rule: String,
    /// The seed it was made from (also the interpreter's seed in [`Example::run`]).
    pub seed: u64,
    /// The attempt that succeeded (0-based).
    pub attempt: usize,
    /// `@source` and `@result`, and the externs they call (declared shape-polymorphic).
    pub program: Program,
    /// Ordinary random inputs, one per parameter.
    pub inputs: Vec<Value>,
    /// What each attribute variable bound.
    pub attrs: IndexMap<Var, AttrValue>,
}

/// Why [`instantiate`] made no example.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InstantiateError {
    /// No attempt typed the source pattern with the constraints holding (the rule may be
    /// unsatisfiable, or need shapes the sampler does not try).
    #[error("no instance of `{rule}` in {attempts} attempts; the last failed because {reason}")]
    NoInstance {
        /// The rule.
        rule: String,
        /// Attempts made.
        attempts: usize,
        /// Why the last attempt failed.
        reason: String,
    },
    /// The source matched but the results could not be built or do not verify: the rule is
    /// wrong.
    #[error("rule `{rule}` is wrong: {message}\n{program}")]
    RuleBug {
        /// The rule.
        rule: String,
        /// What went wrong.
        message: String,
        /// The program so far (the source, and the result if it was built).
        program: String,
    },
}

/// How one attempt ended without an example.
enum Failure {
    Retry(String),
    Bug(String, String),
}

impl From<String> for Failure {
    fn from(s: String) -> Self {
        Failure::Retry(s)
    }
}

/// Makes an example of `rule` from `seed` (deterministically), or says why it cannot.
pub fn instantiate(
    rule: &Rule,
    registry: &Registry,
    seed: u64,
) -> Result<Example, InstantiateError> {
    instantiate_with(rule, registry, seed, None)
}

/// [`instantiate`] with `dtype` as the dtype most leaves get in every attempt (where the
/// rule's ops and constraints allow it), so that a rule can be proven on one dtype in
/// particular: the proofs of the integer rules on every integer width and signedness.
pub fn instantiate_in(
    rule: &Rule,
    registry: &Registry,
    seed: u64,
    dtype: DType,
) -> Result<Example, InstantiateError> {
    instantiate_with(rule, registry, seed, Some(dtype))
}

fn instantiate_with(
    rule: &Rule,
    registry: &Registry,
    seed: u64,
    dtype: Option<DType>,
) -> Result<Example, InstantiateError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut reason = String::from("no attempt was made");
    for attempt in 0..ATTEMPTS {
        let sizes = sizes_for(attempt, &mut rng);
        let base = dtype.unwrap_or_else(|| base_dtype(&mut rng));
        let mut s = Sampler::new(rule, registry, &mut rng, sizes, base);
        let built = s
            .run()
            .map_err(Failure::Retry)
            .and_then(|()| assemble(&s, registry));
        match built {
            Ok((program, attrs)) => {
                let mut ex = Example {
                    rule: rule.name.clone(),
                    seed,
                    attempt,
                    program,
                    inputs: Vec::new(),
                    attrs,
                };
                let types = ex.param_types();
                ex.inputs = types
                    .iter()
                    .map(|t| random_value(t, InputKind::Ordinary, &mut rng))
                    .collect();
                return Ok(ex);
            }
            Err(Failure::Retry(r)) => reason = r,
            Err(Failure::Bug(message, program)) => {
                return Err(InstantiateError::RuleBug {
                    rule: rule.name.clone(),
                    message,
                    program,
                })
            }
        }
    }
    Err(InstantiateError::NoInstance {
        rule: rule.name.clone(),
        attempts: ATTEMPTS,
        reason,
    })
}

/// Dim sizes for an attempt: small random, distinct, or all equal, in turn.
fn sizes_for(attempt: usize, rng: &mut ChaCha8Rng) -> Sizes {
    match attempt % 3 {
        0 => Sizes::Small,
        1 => {
            let mut pool = vec![2, 3, 4, 1, 5];
            pool[..3].shuffle(rng);
            Sizes::Distinct(pool, 0)
        }
        _ => Sizes::Equal(rng.gen_range(1..=3)),
    }
}

/// The dtype most leaves of an attempt get: mostly f32, every dtype now and then (each
/// narrow or unsigned integer dtype as often as `i64`; a rule that takes integers only draws
/// among all of them alike, see [`sampler::DClass`]).
fn base_dtype(rng: &mut ChaCha8Rng) -> DType {
    const WEIGHTED: &[DType] = &[
        DType::F32,
        DType::F32,
        DType::F32,
        DType::F32,
        DType::F32,
        DType::F32,
        DType::F32,
        DType::F64,
        DType::F64,
        DType::F16,
        DType::BF16,
        DType::F16,
        DType::BF16,
        DType::I32,
        DType::I32,
        DType::I64,
        DType::I8,
        DType::I16,
        DType::U8,
        DType::U16,
        DType::U32,
        DType::U32,
        DType::U64,
        DType::Bool,
        DType::Bool,
    ];
    *WEIGHTED.choose(rng).unwrap_or(&DType::F32)
}

/// Builds the program of a typed attempt, checks the constraints, instantiates the result.
fn assemble(
    s: &Sampler<'_>,
    registry: &Registry,
) -> Result<(Program, IndexMap<Var, AttrValue>), Failure> {
    let body = source_body(s)?;
    let b = bindings(s, &body.values);
    let source = body.f.clone().finish(SOURCE, body.roots.clone());
    let uses = |v: &ValueId| use_count(&source, *v);
    let holds = s.rule.constraints_hold(
        &b,
        registry,
        |v| body.f.ty(*v).cloned().unwrap_or(Type::Tuple(vec![])),
        |pred, args| engine_predicate(pred, args, &b, &uses),
    );
    if !holds {
        return Err(Failure::Retry("the constraints do not hold".into()));
    }
    let program = with_result(s.rule, registry, &b, body.f, source)?;
    Ok((program, s.attrs.clone()))
}

/// The program of `source` and of the result `rule` builds on `b`, appended to `f` (the
/// source's instructions); it must verify.
fn with_result(
    rule: &Rule,
    registry: &Registry,
    b: &Bindings<ValueId>,
    mut f: FnBuilder,
    source: ptir_ir::Function,
) -> Result<Program, Failure> {
    let program_of = |functions| Program {
        externs: callees(rule),
        functions,
    };
    let outs = match rule.instantiate(b, &source.result_types, registry, &mut f) {
        Ok(outs) => outs,
        Err(ApplyError::NativeDeclined(n)) => {
            return Err(Failure::Retry(format!("native `{n}` declined")))
        }
        Err(e @ ApplyError::NoSuchValue { .. }) => return Err(Failure::Retry(e.to_string())),
        Err(e) => {
            let program = ptir_ir::print(&program_of(vec![source]));
            return Err(Failure::Bug(e.to_string(), program));
        }
    };
    let program = program_of(vec![source, f.finish(RESULT, outs)]);
    match ptir_ir::verify(&program) {
        Ok(()) => Ok(program),
        Err(e) => Err(Failure::Bug(
            format!("the instantiated program does not verify: {e}"),
            ptir_ir::print(&program),
        )),
    }
}

/// The source function being built, with the value of each slot and the roots.
struct SourceBody {
    f: FnBuilder,
    values: HashMap<Slot, ValueId>,
    roots: Vec<ValueId>,
}

/// The source function's body: a parameter per leaf slot, an instruction per op or splat
/// term (operands first).
fn source_body(s: &Sampler<'_>) -> Result<SourceBody, String> {
    let mut f = FnBuilder::new();
    let mut values: HashMap<Slot, ValueId> = HashMap::new();
    for (i, t) in s.rule.source.terms.iter().enumerate() {
        let slot = s.slot(TermId(i));
        let leaf = matches!(slot, Slot::Var(_)) || slot == Slot::Term(TermId(i));
        if matches!(t, Term::Value(_)) && leaf && !values.contains_key(&slot) {
            let ty = s.slot_type(&slot).cloned().ok_or("a leaf has no type")?;
            values.insert(slot, f.param(ty));
        }
    }
    let value = |values: &HashMap<Slot, ValueId>, t: TermId| {
        values
            .get(&s.slot(t))
            .copied()
            .ok_or("a value is undefined")
    };
    for &id in &s.order {
        let op = s.ops[id.0].clone().ok_or("an op was not chosen")?;
        let operands = match s.term(id) {
            Term::Op { operands, .. } => operands
                .iter()
                .map(|&o| value(&values, o))
                .collect::<Result<Vec<_>, _>>()?,
            _ => Vec::new(),
        };
        let ty = s.ty(id).cloned().ok_or("an op has no type")?;
        values.insert(Slot::Term(id), f.push(op, operands, ty));
    }
    let roots = s.rule.source.roots.iter().map(|&r| value(&values, r));
    let roots = roots.collect::<Result<Vec<_>, _>>()?;
    Ok(SourceBody { f, values, roots })
}

/// What the match bound: value variables and named terms, and attribute variables.
fn bindings(s: &Sampler<'_>, values: &HashMap<Slot, ValueId>) -> Bindings<ValueId> {
    let mut b = Bindings::default();
    for (i, t) in s.rule.source.terms.iter().enumerate() {
        let var = match t {
            Term::Value(v) if v.0 != "_" => Some(v),
            _ => t.name(),
        };
        if let (Some(v), Some(&x)) = (var, values.get(&s.slot(TermId(i)))) {
            b.values.insert(v.clone(), x);
        }
    }
    b.attrs = s.attrs.clone();
    b
}

/// Predicates only an engine can decide, decided on the source function.
fn engine_predicate(
    pred: &str,
    args: &[Attr],
    b: &Bindings<ValueId>,
    uses: &impl Fn(&ValueId) -> usize,
) -> bool {
    match (pred, args) {
        ("single-use", [Attr::Var(v)]) => b.values.get(v).is_some_and(|x| uses(x) == 1),
        _ => false,
    }
}

fn use_count(f: &ptir_ir::Function, v: ValueId) -> usize {
    let in_insts: usize = f
        .body
        .insts
        .iter()
        .map(|i| i.operands.iter().filter(|&&o| o == v).count())
        .sum();
    in_insts + f.body.results.iter().filter(|&&r| r == v).count()
}

/// Every callee of the rule's source and result, declared as a pure polymorphic extern.
fn callees(rule: &Rule) -> Vec<ExternDecl> {
    let mut names: Vec<String> = Vec::new();
    for t in rule.source.terms.iter().chain(&rule.result.terms) {
        if let Term::Op {
            callee: Some(c), ..
        } = t
        {
            if !names.contains(c) {
                names.push(c.clone());
            }
        }
    }
    names
        .into_iter()
        .map(|name| ExternDecl {
            name,
            signature: None,
            pure: true,
        })
        .collect()
}

impl Example {
    /// Fresh random inputs for the parameters, drawn from `seed`.
    pub fn random_inputs(&self, kind: InputKind, seed: u64) -> Vec<Value> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        self.param_types()
            .iter()
            .map(|t| random_value(t, kind, &mut rng))
            .collect()
    }

    /// The parameter types (the same for both functions).
    pub fn param_types(&self) -> Vec<Type> {
        self.program
            .function(SOURCE)
            .map(|f| f.param_types())
            .unwrap_or_default()
    }

    /// An interpreter for the program, seeded with the example's seed, with the reference
    /// implementation of every extern that has one ([`crate::externs`]) and, for externs the
    /// source calls that have none, a deterministic stand-in ([`externs::opaque_extern`]).
    /// An extern only the result calls and that has no reference stays unimplemented: running
    /// the result then fails, since nothing could prove it.
    pub fn interpreter(&self) -> Interpreter<'_> {
        let mut interp = Interpreter::new(&self.program).with_seed(self.seed);
        let source_calls: Vec<&str> = self
            .program
            .function(SOURCE)
            .map(|f| {
                f.body
                    .insts
                    .iter()
                    .filter_map(|i| match &i.op {
                        Op::Call { callee } => Some(callee.as_str()),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        for e in &self.program.externs {
            if let Some(f) = externs::reference_fn(&e.name) {
                interp = interp.with_extern_fn(e.name.clone(), f);
            } else if source_calls.contains(&e.name.as_str()) {
                interp = interp.with_extern_fn(e.name.clone(), externs::opaque_extern(&e.name));
            }
        }
        interp
    }

    /// Runs `function` ([`SOURCE`] or [`RESULT`]) on `inputs`.
    pub fn run(&self, function: &str, inputs: &[Value]) -> Result<Vec<Value>, InterpError> {
        self.interpreter().run(function, inputs)
    }

    /// The attribute bindings, like `?p = (1 0), ?k = true`.
    pub fn describe_attrs(&self) -> String {
        let items: Vec<String> = self
            .attrs
            .iter()
            .map(|(v, a)| format!("{v} = {a}"))
            .collect();
        items.join(", ")
    }
}
