//! Loop patterns: `.pat` idioms whose body has a `scan`, `while` or `cond` (seed 004's
//! region patterns), matched against a program's loops and raised to their replacement.
//!
//! A `.pat` pair whose pattern function contains a region op becomes a [`LoopPattern`]
//! instead of a rule. It matches a program's value when the pattern's result is computed the
//! same way: anchored at the instruction computing the pattern's (one) result, every pattern
//! instruction meets a program instruction with the same op and attributes, a compatible type
//! and matching operands, down to the pattern's parameters, which bind any value (a parameter
//! used twice binds one value). Region bodies must be **the same up to value names**: the same
//! number of block parameters, the same instructions in the same order, each reading the
//! corresponding values, yielding the corresponding values; a body may read values from
//! outside (captures), which match like operands. Named dimensions (`f32[?n]`, and a `scan`'s
//! `length`) bind as in every `.pat` pattern; other attributes must be equal.
//!
//! A match is raised by inserting the replacement's instructions (parameters read the bound
//! values, named dimensions get their sizes) in place of the anchor; the matched instructions
//! nothing else uses then disappear. Matches do not overlap: the program is walked in
//! pre-order, the first pattern (in load order) matching an instruction wins, and the bodies
//! of a raised loop are not searched.
//!
//! Loop patterns run as the `loop-patterns` pass, first in either engine's pipeline (before
//! the built-in loop idioms of `ptir_pass::transform`), so both engines see the raised
//! program and a user's pattern for a reduction loop is not pre-empted by the idiom; rules
//! then apply to the replacement as to any other ops. The operands of a commutative op match
//! in either order.

use crate::ast::Location;
use indexmap::IndexMap;
use ptir_ir::analysis::purity::impure_by_itself;
use ptir_ir::{Function, Instruction, Op, OpKey, Program, Region, Type, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// The first stand-in size of a named dimension (see `pat.rs`).
pub(crate) const DIM_BASE: usize = 7919;

/// A `.pat` idiom over loops; see the module docs.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopPattern {
    /// The rule name (`NAME` of `@NAME_pattern`, underscores as dashes).
    pub name: String,
    /// The `//` comment above the pattern function.
    pub doc: String,
    /// `pat`, `raising` and `loop`.
    pub labels: Vec<String>,
    /// Where the pattern function is written.
    pub location: Location,
    pattern: Function,
    replacement: Function,
    /// How many named dimensions the types mention (stand-ins `DIM_BASE..DIM_BASE + dims`).
    dims: usize,
    /// Each parameter's name (from the source, else `pK`), for bindings.
    params: Vec<String>,
    /// The attribute slots not compared, by op kind (`ignore-attrs` / `match-attrs`).
    ignored: Vec<(OpKey, Vec<usize>)>,
}

impl LoopPattern {
    /// The op kinds its replacement writes, nested ones included: what a program may hold
    /// once the pattern raised a loop of it.
    pub fn replacement_op_kinds(&self) -> impl Iterator<Item = OpKey> + '_ {
        let mut kinds = Vec::new();
        self.replacement
            .body
            .walk(&mut |i, _| kinds.push(i.op.key()));
        kinds.into_iter()
    }

    /// Checks a pattern and its replacement (parsed with stand-in sizes for `dims` named
    /// dimensions) and makes them a loop pattern; `Err` says what is wrong.
    pub(crate) fn new(
        name: &str,
        pattern: &Function,
        replacement: &Function,
        dims: usize,
        doc: String,
    ) -> Result<Self, String> {
        if pattern.param_types() != replacement.param_types()
            || pattern.result_types != replacement.result_types
        {
            return Err(format!(
                "@{} and @{} must have the same signature",
                pattern.name, replacement.name
            ));
        }
        if pattern.body.results.len() != 1 {
            return Err(format!(
                "the loop pattern @{} must return one value (a tuple for several)",
                pattern.name
            ));
        }
        let root = pattern.body.results[0];
        if !pattern.body.insts.iter().any(|i| i.result == root) {
            return Err(format!(
                "the loop pattern @{} returns a parameter: it must compute its result",
                pattern.name
            ));
        }
        let mut bad = None;
        pattern.body.walk(&mut |i, _| {
            if i.op.key() == OpKey::Call || impure_by_itself(i.op.key()) {
                bad.get_or_insert(i.op.name());
            }
        });
        replacement.body.walk(&mut |i, _| {
            if impure_by_itself(i.op.key()) {
                bad.get_or_insert(i.op.name());
            }
        });
        if let Some(op) = bad {
            return Err(format!(
                "`{op}` cannot appear in the loop pattern {name}: it would move or drop an effect"
            ));
        }
        // Every parameter and instruction of the pattern is part of what the result computes.
        let mut used: FxHashSet<ValueId> = FxHashSet::default();
        used.insert(root);
        pattern
            .body
            .walk(&mut |i, _| used.extend(i.operands.iter().copied()));
        for r in nested_results(&pattern.body) {
            used.insert(r);
        }
        let unused = pattern
            .body
            .params
            .iter()
            .map(|p| p.id)
            .chain(pattern.body.insts.iter().map(|i| i.result))
            .find(|v| !used.contains(v));
        if let Some(v) = unused {
            return Err(format!(
                "{v} of the loop pattern @{} is unused: every value must lead to the result",
                pattern.name
            ));
        }
        Ok(LoopPattern {
            name: name.to_string(),
            doc,
            labels: vec!["pat".into(), "raising".into(), "loop".into()],
            location: Location::default(),
            pattern: pattern.clone(),
            replacement: replacement.clone(),
            dims,
            params: (0..pattern.body.params.len())
                .map(|i| format!("p{i}"))
                .collect(),
            ignored: Vec::new(),
        })
    }

    /// Rebuilds a loop pattern from its parts (a compiled library).
    pub(crate) fn from_parts(
        name: String,
        doc: String,
        location: Location,
        pattern: Function,
        replacement: Function,
        dims: usize,
    ) -> Result<Self, String> {
        let mut p = LoopPattern::new(&name, &pattern, &replacement, dims, doc)?;
        p.location = location;
        Ok(p)
    }

    /// The pattern with these names for its parameters in bindings (one per parameter;
    /// otherwise the names stay `p0`, `p1`, ...).
    pub(crate) fn with_param_names(mut self, names: Vec<String>) -> Self {
        if names.len() == self.params.len() {
            self.params = names;
        }
        self
    }

    /// The pattern with these attribute slots not compared, by op kind.
    pub(crate) fn with_ignored(mut self, ignored: Vec<(OpKey, Vec<usize>)>) -> Self {
        self.ignored = ignored.into_iter().filter(|(_, s)| !s.is_empty()).collect();
        self
    }

    /// The attribute slots not compared, by op kind.
    pub fn ignored_attrs(&self) -> &[(OpKey, Vec<usize>)] {
        &self.ignored
    }

    /// The names of the parameters in bindings.
    pub fn param_names(&self) -> &[String] {
        &self.params
    }

    /// The idiom (named dimensions as their stand-in sizes).
    pub fn pattern(&self) -> &Function {
        &self.pattern
    }

    /// The replacement.
    pub fn replacement(&self) -> &Function {
        &self.replacement
    }

    /// How many named dimensions its types mention.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Does it name a dimension (so that it has no single signature)?
    pub fn is_generic(&self) -> bool {
        self.dims > 0
    }

    /// Renames the callees of the replacement's calls that `rename` maps (rule externs
    /// renamed for a program that owns their names).
    pub(crate) fn rename_callees(&mut self, rename: impl Fn(&str) -> Option<String>) {
        fn in_region(r: &mut Region, rename: &dyn Fn(&str) -> Option<String>) {
            for i in &mut r.insts {
                if let Op::Call { callee } = &mut i.op {
                    if let Some(to) = rename(callee) {
                        *callee = to;
                    }
                }
                for inner in i.op.regions_mut() {
                    in_region(inner, rename);
                }
            }
        }
        in_region(&mut self.replacement.body, &rename);
    }

    fn root(&self) -> &Instruction {
        let root = self.pattern.body.results[0];
        match self.pattern.body.insts.iter().find(|i| i.result == root) {
            Some(i) => i,
            None => unreachable!("checked when the pattern was made"),
        }
    }
}

/// The values every nested block yields.
fn nested_results(r: &Region) -> Vec<ValueId> {
    let mut out = Vec::new();
    r.walk(&mut |i, _| {
        for region in i.op.regions() {
            out.extend_from_slice(&region.results);
        }
    });
    out
}

/// One match of a loop pattern: see [`find_loop_matches`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopMatch {
    /// The function it is in.
    pub function: String,
    /// The loop pattern's name.
    pub pattern: String,
    /// The value the pattern's result matched.
    pub root: ValueId,
    /// Each pattern parameter (by its source name, else `p0`, `p1`, ... by position) and the
    /// value it bound.
    pub bindings: Vec<(String, ValueId)>,
    /// The program instructions matched outside region bodies, by value, root first.
    pub matched: Vec<ValueId>,
}

/// Every match of `patterns` in `program`, rewriting nothing (functions in order, anchors in
/// pre-order; the first pattern matching an instruction wins; a matched loop's bodies are not
/// searched).
pub fn find_loop_matches(program: &Program, patterns: &[LoopPattern]) -> Vec<LoopMatch> {
    let index = Index::new(patterns);
    program
        .functions
        .iter()
        .flat_map(|f| {
            matches_in(f, &index).into_iter().map(|(k, m)| LoopMatch {
                function: f.name.clone(),
                pattern: patterns[k].name.clone(),
                root: m.root,
                bindings: (patterns[k].params.iter().cloned())
                    .zip(m.bindings.iter().copied())
                    .collect(),
                matched: m.matched,
            })
        })
        .collect()
}

/// Raises every match of `patterns` in `program` (see the module docs); returns how many
/// times each pattern was raised, by name, in load order (patterns that never matched left
/// out). The program still verifies.
pub fn apply_loop_patterns(
    program: &mut Program,
    patterns: &[LoopPattern],
) -> IndexMap<String, usize> {
    let mut counts: IndexMap<String, usize> = IndexMap::new();
    if patterns.is_empty() {
        return counts;
    }
    let index = Index::new(patterns);
    for f in &mut program.functions {
        let found = matches_in(f, &index);
        if found.is_empty() {
            continue;
        }
        for (k, _) in &found {
            *counts.entry(patterns[*k].name.clone()).or_default() += 1;
        }
        raise(f, patterns, found);
    }
    let order: Vec<&str> = patterns.iter().map(|p| p.name.as_str()).collect();
    counts.sort_by_cached_key(|name, _| order.iter().position(|p| p == name));
    counts
}

/// Defines, for `--outline`, the callees that loop patterns raised to and nothing defines:
/// each call of `@C`, where a loop pattern's replacement is just `call @C` of its parameters,
/// is redirected to a new function `@C_K` whose body is the pattern's own, at the sizes of
/// the call (one function per distinct signature), and the declaration of `@C` goes once
/// nothing calls it. Returns `(C, C_K)` per function defined. The output then runs with no
/// registered extern.
pub fn outline_loop_calls(
    program: &mut Program,
    patterns: &[LoopPattern],
) -> Vec<(String, String)> {
    let forwarding: Vec<(&str, &LoopPattern)> = patterns
        .iter()
        .filter_map(|p| p.forwarded_callee().map(|c| (c, p)))
        .collect();
    let mut defined: Vec<(String, Vec<Type>, String)> = Vec::new();
    let mut new_functions: Vec<Function> = Vec::new();
    for fi in 0..program.functions.len() {
        let f = &program.functions[fi];
        let defs = Defs::of(f);
        let mut redirects: Vec<(ValueId, String)> = Vec::new();
        f.body.walk(&mut |i, _| {
            let Op::Call { callee } = &i.op else { return };
            let Some(&(_, p)) = forwarding.iter().find(|(c, _)| c == callee) else {
                return;
            };
            if program.function(callee).is_some() {
                return;
            }
            let Some(args) = i
                .operands
                .iter()
                .map(|v| defs.type_of(*v).cloned())
                .collect::<Option<Vec<Type>>>()
            else {
                return;
            };
            if let Some((_, _, name)) = defined.iter().find(|(c, t, _)| c == callee && *t == args) {
                redirects.push((i.result, name.clone()));
                return;
            }
            let Some(body) = p.specialized(&args, &i.ty) else {
                return;
            };
            let taken = |n: &str| {
                program.function(n).is_some()
                    || program.extern_decl(n).is_some()
                    || new_functions.iter().any(|g| g.name == n)
            };
            let Some(name) = (0..).map(|k| format!("{callee}_{k}")).find(|n| !taken(n)) else {
                return;
            };
            defined.push((callee.clone(), args, name.clone()));
            new_functions.push(Function {
                name: name.clone(),
                ..body
            });
            redirects.push((i.result, name));
        });
        let f = &mut program.functions[fi];
        for (v, name) in redirects {
            retarget(&mut f.body, v, &name);
        }
    }
    let out = defined
        .into_iter()
        .map(|(c, _, n)| (c, n))
        .collect::<Vec<_>>();
    program.functions.extend(new_functions);
    let called = program.called_names();
    program
        .externs
        .retain(|e| called.contains(&e.name) || !out.iter().any(|(c, _)| *c == e.name));
    out
}

fn retarget(r: &mut Region, v: ValueId, name: &str) {
    for i in &mut r.insts {
        if i.result == v {
            i.op = Op::Call {
                callee: name.to_string(),
            };
            return;
        }
        for inner in i.op.regions_mut() {
            retarget(inner, v, name);
        }
    }
}

impl LoopPattern {
    /// `C` when the replacement is exactly `call @C` of the parameters in order.
    fn forwarded_callee(&self) -> Option<&str> {
        let body = &self.replacement.body;
        let [call] = body.insts.as_slice() else {
            return None;
        };
        let params: Vec<ValueId> = body.params.iter().map(|p| p.id).collect();
        match &call.op {
            Op::Call { callee } if call.operands == params && body.results == [call.result] => {
                Some(callee)
            }
            _ => None,
        }
    }

    /// The pattern function at the sizes that make its parameters `args` and its result
    /// `result`, if they fit.
    fn specialized(&self, args: &[Type], result: &Type) -> Option<Function> {
        let mut sizes = Sizes(vec![None; self.dims]);
        let params = self.pattern.param_types();
        let fits = params.len() == args.len()
            && params.iter().zip(args).all(|(p, a)| sizes.ty(p, a))
            && self.pattern.result_types.len() == 1
            && sizes.ty(&self.pattern.result_types[0], result);
        let dims = sizes.all().filter(|_| fits)?;
        let mut f = self.pattern.clone();
        for p in &mut f.body.params {
            p.ty = with_dims(&p.ty, &dims);
        }
        for t in &mut f.result_types {
            *t = with_dims(t, &dims);
        }
        specialize_region(&mut f.body, &dims);
        Some(f)
    }
}

/// The types and scan lengths of a region's instructions at the bound sizes.
fn specialize_region(r: &mut Region, dims: &[usize]) {
    for i in &mut r.insts {
        i.ty = with_dims(&i.ty, dims);
        if let Op::Scan { length, .. } = &mut i.op {
            *length = with_size(*length, dims);
        }
        for inner in i.op.regions_mut() {
            for p in &mut inner.params {
                p.ty = with_dims(&p.ty, dims);
            }
            specialize_region(inner, dims);
        }
    }
}

/// A size, or the size its named dimension is bound to.
fn with_size(s: usize, dims: &[usize]) -> usize {
    s.checked_sub(DIM_BASE)
        .and_then(|k| dims.get(k))
        .copied()
        .unwrap_or(s)
}

/// A match before it is applied.
#[derive(Clone, Debug)]
struct Found {
    root: ValueId,
    /// The value bound by each pattern parameter, in order.
    bindings: Vec<ValueId>,
    /// The size bound by each named dimension.
    dims: Vec<usize>,
    matched: Vec<ValueId>,
}

/// The non-overlapping matches of one function, with the pattern of each.
fn matches_in(f: &Function, index: &Index<'_>) -> Vec<(usize, Found)> {
    let mut candidate = false;
    f.body
        .walk(&mut |i, _| candidate |= index.by_root.contains(&i.op.key()));
    if !candidate {
        return Vec::new();
    }
    let program = Defs::of(f);
    let mut consumed: FxHashSet<ValueId> = FxHashSet::default();
    let mut out = Vec::new();
    let mut stack: Vec<&Region> = vec![&f.body];
    while let Some(block) = stack.pop() {
        for inst in &block.insts {
            let hit = index.candidates(inst).iter().find_map(|&k| {
                if consumed.contains(&inst.result) {
                    return None;
                }
                let found = Matcher::new(&index.prepared[k], &program).run(inst.result)?;
                (!found.matched.iter().any(|v| consumed.contains(v))).then_some((k, found))
            });
            match hit {
                Some((k, found)) => {
                    consumed.extend(found.matched.iter().copied());
                    out.push((k, found));
                }
                None => stack.extend(inst.op.regions()),
            }
        }
    }
    // Applied in program order, whatever order the stack visited blocks in.
    let order: FxHashMap<ValueId, usize> = {
        let mut order = FxHashMap::default();
        f.body.walk(&mut |i, _| {
            let n = order.len();
            order.insert(i.result, n);
        });
        order
    };
    out.sort_by_key(|(_, m)| order.get(&m.root).copied());
    out
}

/// What the matcher reads of the program: each value's definition or type.
struct Defs<'a> {
    insts: FxHashMap<ValueId, &'a Instruction>,
    params: FxHashMap<ValueId, &'a Type>,
}

impl<'a> Defs<'a> {
    fn of(f: &'a Function) -> Self {
        let mut defs = Defs {
            insts: FxHashMap::default(),
            params: f.body.params.iter().map(|p| (p.id, &p.ty)).collect(),
        };
        f.body.walk(&mut |i, _| {
            defs.insts.insert(i.result, i);
            for r in i.op.regions() {
                defs.params.extend(r.params.iter().map(|p| (p.id, &p.ty)));
            }
        });
        defs
    }

    fn type_of(&self, v: ValueId) -> Option<&'a Type> {
        self.insts
            .get(&v)
            .map(|i| &i.ty)
            .or(self.params.get(&v).copied())
    }
}

/// The patterns of one run: each pattern's definitions, and the patterns by the kind of their
/// root (so an instruction meets only the patterns that may match it, in load order).
struct Index<'p> {
    prepared: Vec<Prepared<'p>>,
    /// The root kinds some pattern has.
    by_root: FxHashSet<OpKey>,
    /// The patterns by the [`fingerprint`] of their root.
    by_fingerprint: FxHashMap<u64, Vec<usize>>,
    /// The op kinds some pattern compares without all their attributes: hashed by kind alone.
    loose: FxHashSet<OpKey>,
}

impl<'p> Index<'p> {
    fn new(patterns: &'p [LoopPattern]) -> Self {
        let loose: FxHashSet<OpKey> = (patterns.iter())
            .flat_map(|p| p.ignored.iter().map(|(k, _)| *k))
            .collect();
        let mut by_fingerprint: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
        for (k, p) in patterns.iter().enumerate() {
            by_fingerprint
                .entry(fingerprint(p.root(), &loose))
                .or_default()
                .push(k);
        }
        Index {
            prepared: patterns.iter().map(Prepared::new).collect(),
            by_root: patterns.iter().map(|p| p.root().op.key()).collect(),
            by_fingerprint,
            loose,
        }
    }

    /// The patterns that may match at `inst`, in load order.
    fn candidates(&self, inst: &Instruction) -> &[usize] {
        if !self.by_root.contains(&inst.op.key()) {
            return &[];
        }
        self.by_fingerprint
            .get(&fingerprint(inst, &self.loose))
            .map_or(&[][..], Vec::as_slice)
    }
}

/// What a match of an instruction must keep, hashed (the pattern index): its op with its
/// attributes, and for a region op its regions' shapes and the ops of their instructions in
/// pre-order, attributes included. Types, value names and a `scan`'s length are left out:
/// named dimensions bind them. Two instructions a pattern matches alike hash alike, since the
/// matcher compares exactly what is hashed (`Op` equality for ops without regions). Ops of the
/// `loose` kinds, which some pattern compares without all their attributes, hash by kind.
fn fingerprint(inst: &Instruction, loose: &FxHashSet<OpKey>) -> u64 {
    use std::hash::{Hash, Hasher};
    let head = |o: &Op, h: &mut rustc_hash::FxHasher| match o {
        Op::Scan { num_carry, .. } => (0u8, num_carry).hash(h),
        Op::Cond { .. } => 1u8.hash(h),
        Op::While { .. } => 2u8.hash(h),
        other if loose.contains(&other.key()) => (4u8, other.key()).hash(h),
        other => (3u8, other).hash(h),
    };
    let mut h = rustc_hash::FxHasher::default();
    head(&inst.op, &mut h);
    for r in inst.op.regions() {
        (r.params.len(), r.insts.len(), r.results.len()).hash(&mut h);
        r.walk(&mut |i, _| {
            head(&i.op, &mut h);
            i.operands.len().hash(&mut h);
        });
    }
    inst.operands.len().hash(&mut h);
    h.finish()
}

/// What the matcher reads of a pattern, built once per run.
struct Prepared<'p> {
    pattern: &'p LoopPattern,
    defs: FxHashMap<ValueId, &'p Instruction>,
    params: FxHashMap<ValueId, &'p Type>,
}

impl<'p> Prepared<'p> {
    fn new(pattern: &'p LoopPattern) -> Self {
        let mut defs = FxHashMap::default();
        pattern.pattern.body.walk(&mut |i, _| {
            defs.insert(i.result, i);
        });
        let params = pattern
            .pattern
            .body
            .params
            .iter()
            .map(|p| (p.id, &p.ty))
            .collect();
        Prepared {
            pattern,
            defs,
            params,
        }
    }
}

/// One match attempt of one pattern: pattern values mapped to program values.
struct Matcher<'p, 'a> {
    pattern: &'p LoopPattern,
    pattern_defs: &'p FxHashMap<ValueId, &'p Instruction>,
    pattern_params: &'p FxHashMap<ValueId, &'p Type>,
    program: &'p Defs<'a>,
    map: FxHashMap<ValueId, ValueId>,
    dims: Sizes,
    /// The program values defined inside the region bodies being compared: an outer pattern
    /// value never matches one.
    inside: FxHashSet<ValueId>,
    depth: usize,
    matched: Vec<ValueId>,
    /// Operand orders of commutative ops this match may still retry ([`SWAP_BUDGET`]).
    swaps_left: usize,
}

/// How many times one match may retry a commutative op's operands swapped.
const SWAP_BUDGET: usize = 64;

impl<'p, 'a> Matcher<'p, 'a> {
    fn new(prepared: &'p Prepared<'p>, program: &'p Defs<'a>) -> Self {
        let pattern = prepared.pattern;
        Matcher {
            pattern,
            pattern_defs: &prepared.defs,
            pattern_params: &prepared.params,
            program,
            map: FxHashMap::default(),
            dims: Sizes(vec![None; pattern.dims]),
            inside: FxHashSet::default(),
            depth: 0,
            matched: Vec::new(),
            swaps_left: SWAP_BUDGET,
        }
    }

    fn run(mut self, root: ValueId) -> Option<Found> {
        if !self.value(self.pattern.pattern.body.results[0], root) {
            return None;
        }
        let bindings = self
            .pattern
            .pattern
            .body
            .params
            .iter()
            .map(|p| self.map.get(&p.id).copied())
            .collect::<Option<Vec<_>>>()?;
        let dims = self.dims.all()?;
        Some(Found {
            root,
            bindings,
            dims,
            matched: self.matched,
        })
    }

    /// Does pattern value `p` match program value `v`?
    fn value(&mut self, p: ValueId, v: ValueId) -> bool {
        if let Some(&m) = self.map.get(&p) {
            return m == v;
        }
        // Unmapped: an outer pattern value (inner ones are mapped before they are read).
        if self.inside.contains(&v) {
            return false;
        }
        if let Some(&ty) = self.pattern_params.get(&p) {
            let ok = match self.program.type_of(v) {
                Some(b) => self.ty(ty, b),
                None => false,
            };
            if ok {
                self.map.insert(p, v);
            }
            return ok;
        }
        let (Some(&pi), Some(&vi)) = (self.pattern_defs.get(&p), self.program.insts.get(&v)) else {
            return false;
        };
        if !self.shallow(pi, vi) {
            return false;
        }
        self.map.insert(p, v);
        if !self.operands(pi, vi) {
            return false;
        }
        self.matched.push(v);
        true
    }

    /// The operands and regions of two instructions already found alike. The operands of a
    /// commutative op (`add`, `mul`, `max`, `min`, `and`, `or`, `xor`) match in either order:
    /// a loop body that writes `min(b, a)` for the pattern's `min(a, b)` computes the same.
    fn operands(&mut self, p: &Instruction, v: &Instruction) -> bool {
        let commutes = matches!(p.op, Op::Binary(b) if b.is_commutative())
            && p.operands.len() == 2
            && v.operands.len() == 2;
        if commutes && self.swaps_left > 0 {
            let saved = (
                self.map.clone(),
                self.dims.0.clone(),
                self.inside.clone(),
                self.matched.len(),
            );
            if self.value(p.operands[0], v.operands[0]) && self.value(p.operands[1], v.operands[1])
            {
                return true;
            }
            // Each retry is paid for: a pattern of nested commutative ops cannot make the
            // search exponential in its size.
            self.swaps_left -= 1;
            (self.map, self.dims.0, self.inside) = (saved.0, saved.1, saved.2);
            self.matched.truncate(saved.3);
            return self.value(p.operands[0], v.operands[1])
                && self.value(p.operands[1], v.operands[0]);
        }
        if !p
            .operands
            .iter()
            .zip(&v.operands)
            .all(|(&a, &b)| self.value(a, b))
        {
            return false;
        }
        let (pr, vr) = (p.op.regions(), v.op.regions());
        pr.iter().zip(vr.iter()).all(|(a, b)| self.region(a, b))
    }

    /// Are two region bodies the same up to value names (see the module docs)?
    fn region(&mut self, p: &Region, v: &Region) -> bool {
        if p.params.len() != v.params.len()
            || p.insts.len() != v.insts.len()
            || p.results.len() != v.results.len()
        {
            return false;
        }
        if self.depth == 0 {
            self.inside.extend(v.params.iter().map(|x| x.id));
            v.walk(&mut |i, _| {
                self.inside.insert(i.result);
                for r in i.op.regions() {
                    self.inside.extend(r.params.iter().map(|x| x.id));
                }
            });
        }
        self.depth += 1;
        let same = self.body(p, v);
        self.depth -= 1;
        if self.depth == 0 {
            self.inside.clear();
        }
        same
    }

    fn body(&mut self, p: &Region, v: &Region) -> bool {
        for (a, b) in p.params.iter().zip(&v.params) {
            if !self.ty(&a.ty, &b.ty) {
                return false;
            }
            self.map.insert(a.id, b.id);
        }
        for (a, b) in p.insts.iter().zip(&v.insts) {
            if !self.shallow(a, b) {
                return false;
            }
            self.map.insert(a.result, b.result);
            if !self.operands(a, b) {
                return false;
            }
        }
        p.results
            .iter()
            .zip(&v.results)
            .all(|(&a, &b)| self.value(a, b))
    }

    /// Same op and attributes (a `scan`'s length may be a named dimension), compatible
    /// types, as many operands and regions.
    fn shallow(&mut self, p: &Instruction, v: &Instruction) -> bool {
        let same_op = match (&p.op, &v.op) {
            (
                Op::Scan {
                    num_carry: a,
                    length: la,
                    ..
                },
                Op::Scan {
                    num_carry: b,
                    length: lb,
                    ..
                },
            ) => a == b && self.size(*la, *lb),
            (Op::Cond { .. }, Op::Cond { .. }) | (Op::While { .. }, Op::While { .. }) => true,
            (a, b) => a.regions().is_empty() && self.same_attrs(p, v) && a.key() == b.key(),
        };
        same_op && p.operands.len() == v.operands.len() && self.ty(&p.ty, &v.ty)
    }

    fn ty(&mut self, p: &Type, v: &Type) -> bool {
        self.dims.ty(p, v)
    }

    /// Equal ops, but for the attribute slots the pattern does not compare.
    fn same_attrs(&self, p: &Instruction, v: &Instruction) -> bool {
        let key = p.op.key();
        let ignored = self.pattern.ignored.iter().find(|(k, _)| *k == key);
        match ignored {
            None => p.op == v.op,
            Some((_, slots)) => {
                let (a, b) = (
                    crate::ops::op_attrs(&p.op, &p.ty),
                    crate::ops::op_attrs(&v.op, &v.ty),
                );
                a.len() == b.len()
                    && (a.iter().zip(&b).enumerate())
                        .all(|(k, (x, y))| slots.contains(&k) || x.same(y))
            }
        }
    }

    fn size(&mut self, p: usize, v: usize) -> bool {
        self.dims.size(p, v)
    }
}

/// The sizes named dimensions are bound to while a pattern's types meet a program's.
struct Sizes(Vec<Option<usize>>);

impl Sizes {
    /// Does the pattern type `p` (named dimensions as stand-ins) fit the program type `v`?
    fn ty(&mut self, p: &Type, v: &Type) -> bool {
        match (p, v) {
            (Type::Tensor(a), Type::Tensor(b)) => {
                a.dtype == b.dtype
                    && a.shape.len() == b.shape.len()
                    && a.shape.iter().zip(&b.shape).all(|(&x, &y)| self.size(x, y))
            }
            (Type::Tuple(a), Type::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| self.ty(x, y))
            }
            _ => false,
        }
    }

    /// A pattern size against a program size: equal, or a named dimension bound to it.
    fn size(&mut self, p: usize, v: usize) -> bool {
        match p.checked_sub(DIM_BASE).filter(|&k| k < self.0.len()) {
            Some(k) => *self.0[k].get_or_insert(v) == v,
            None => p == v,
        }
    }

    /// Every named dimension's size, once all are bound.
    fn all(&self) -> Option<Vec<usize>> {
        self.0.iter().copied().collect()
    }
}

/// Applies the matches of one function.
fn raise(f: &mut Function, patterns: &[LoopPattern], found: Vec<(usize, Found)>) {
    let mut next = f.fresh_value_id().0;
    let mut aliases: FxHashMap<ValueId, ValueId> = FxHashMap::default();
    let mut by_root: FxHashMap<ValueId, Vec<Instruction>> = FxHashMap::default();
    let mut candidates: Vec<ValueId> = Vec::new();
    for (k, m) in found {
        let replacement = &patterns[k].replacement;
        let mut names: FxHashMap<ValueId, ValueId> = replacement
            .body
            .params
            .iter()
            .zip(&m.bindings)
            .map(|(p, &v)| (p.id, v))
            .collect();
        let result = replacement.body.results[0];
        if replacement.body.insts.iter().any(|i| i.result == result) {
            names.insert(result, m.root);
        }
        let insts = replacement
            .body
            .insts
            .iter()
            .map(|i| instantiate(i, &mut names, &mut next, &m.dims))
            .collect();
        if let Some(&v) = names.get(&result).filter(|&&v| v != m.root) {
            aliases.insert(m.root, v);
        }
        candidates.extend(m.matched.iter().copied().filter(|&v| v != m.root));
        by_root.insert(m.root, insts);
    }
    splice(&mut f.body, &mut by_root, &aliases);
    remove_dead(f, candidates);
}

/// A copy of replacement instruction `i` with its values renamed: operands through `names`,
/// defined values fresh (or as `names` already says, for the result taking the root's name),
/// named dimensions as their bound sizes.
fn instantiate(
    i: &Instruction,
    names: &mut FxHashMap<ValueId, ValueId>,
    next: &mut u32,
    dims: &[usize],
) -> Instruction {
    let mut fresh = |names: &mut FxHashMap<ValueId, ValueId>, v: ValueId| {
        *names.entry(v).or_insert_with(|| {
            *next += 1;
            ValueId(*next - 1)
        })
    };
    let operands = i
        .operands
        .iter()
        .map(|v| names.get(v).copied().unwrap_or(*v))
        .collect();
    let mut op = i.op.clone();
    if let Op::Scan { length, .. } = &mut op {
        *length = with_size(*length, dims);
    }
    for r in op.regions_mut() {
        rename_region(r, names, &mut fresh, dims);
    }
    Instruction {
        result: fresh(names, i.result),
        ty: with_dims(&i.ty, dims),
        op,
        operands,
    }
}

fn rename_region(
    r: &mut Region,
    names: &mut FxHashMap<ValueId, ValueId>,
    fresh: &mut impl FnMut(&mut FxHashMap<ValueId, ValueId>, ValueId) -> ValueId,
    dims: &[usize],
) {
    for p in &mut r.params {
        p.id = fresh(names, p.id);
        p.ty = with_dims(&p.ty, dims);
    }
    for i in &mut r.insts {
        for v in &mut i.operands {
            *v = names.get(v).copied().unwrap_or(*v);
        }
        if let Op::Scan { length, .. } = &mut i.op {
            *length = with_size(*length, dims);
        }
        for inner in i.op.regions_mut() {
            rename_region(inner, names, fresh, dims);
        }
        i.result = fresh(names, i.result);
        i.ty = with_dims(&i.ty, dims);
    }
    for v in &mut r.results {
        *v = names.get(v).copied().unwrap_or(*v);
    }
}

/// `ty` with each named dimension's stand-in replaced by its size.
fn with_dims(ty: &Type, dims: &[usize]) -> Type {
    match ty {
        Type::Tensor(t) => {
            let mut t = t.clone();
            for s in t.shape.iter_mut() {
                *s = with_size(*s, dims);
            }
            Type::Tensor(t)
        }
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| with_dims(t, dims)).collect()),
    }
}

/// Puts each root's replacement in its place and renames uses of roots replaced by a bound
/// value.
fn splice(
    r: &mut Region,
    by_root: &mut FxHashMap<ValueId, Vec<Instruction>>,
    aliases: &FxHashMap<ValueId, ValueId>,
) {
    let resolve = |v: ValueId| {
        let mut v = v;
        while let Some(&w) = aliases.get(&v) {
            v = w;
        }
        v
    };
    let insts = std::mem::take(&mut r.insts);
    for mut i in insts {
        if let Some(new) = by_root.remove(&i.result) {
            r.insts.extend(new);
            continue;
        }
        for v in &mut i.operands {
            *v = resolve(*v);
        }
        for inner in i.op.regions_mut() {
            splice(inner, by_root, aliases);
        }
        r.insts.push(i);
    }
    for v in &mut r.results {
        *v = resolve(*v);
    }
    if !aliases.is_empty() {
        // Operands of the replacements themselves, read before a later alias was known.
        for i in &mut r.insts {
            for v in &mut i.operands {
                *v = resolve(*v);
            }
        }
    }
}

/// Removes the matched instructions nothing uses any more (pure ones, and loops whose
/// bodies are pure), and what only they used among the candidates.
fn remove_dead(f: &mut Function, candidates: Vec<ValueId>) {
    let mut uses: FxHashMap<ValueId, usize> = FxHashMap::default();
    let count = |r: &Region, uses: &mut FxHashMap<ValueId, usize>| {
        r.walk(&mut |i, _| {
            for v in &i.operands {
                *uses.entry(*v).or_default() += 1;
            }
        });
        for v in r.results.iter().chain(&nested_results(r)) {
            *uses.entry(*v).or_default() += 1;
        }
    };
    count(&f.body, &mut uses);
    let defs: FxHashMap<ValueId, Instruction> = {
        let wanted: FxHashSet<ValueId> = candidates.iter().copied().collect();
        let mut defs = FxHashMap::default();
        f.body.walk(&mut |i, _| {
            if wanted.contains(&i.result) {
                defs.insert(i.result, i.clone());
            }
        });
        defs
    };
    let mut dead: FxHashSet<ValueId> = FxHashSet::default();
    let mut changed = true;
    while changed {
        changed = false;
        for v in &candidates {
            let Some(i) = defs.get(v) else { continue };
            if dead.contains(v) || uses.get(v).copied().unwrap_or(0) > 0 || !removable(i) {
                continue;
            }
            dead.insert(*v);
            changed = true;
            let mut gone: FxHashMap<ValueId, usize> = FxHashMap::default();
            for o in &i.operands {
                *gone.entry(*o).or_default() += 1;
            }
            for r in i.op.regions() {
                count(r, &mut gone);
            }
            for (o, n) in gone {
                if let Some(u) = uses.get_mut(&o) {
                    *u = u.saturating_sub(n);
                }
            }
        }
    }
    if !dead.is_empty() {
        retain(&mut f.body, &dead);
    }
}

/// Is `i` free of effects, its regions included?
fn removable(i: &Instruction) -> bool {
    let mut pure = i.op.key().is_pure_kind() || !i.op.regions().is_empty();
    for r in i.op.regions() {
        r.walk(&mut |j, _| pure &= j.op.key().is_pure_kind() || !j.op.regions().is_empty());
    }
    pure
}

fn retain(r: &mut Region, dead: &FxHashSet<ValueId>) {
    r.insts.retain(|i| !dead.contains(&i.result));
    for i in &mut r.insts {
        for inner in i.op.regions_mut() {
            retain(inner, dead);
        }
    }
}
