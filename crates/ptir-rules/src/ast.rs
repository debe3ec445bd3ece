//! The rule data model: what a parsed and checked rule is, shared by both engines.
//!
//! A [`Rule`] has a source [`Pattern`] (a DAG of [`Term`]s with one or more roots), one result
//! pattern per root, [`Constraint`]s, a benefit and labels. Terms live in an arena and refer to
//! each other by [`TermId`], so a shared subterm (`?t:(...)` used twice) is one node.

use indexmap::IndexMap;
use ptir_ir::{ConvDims, DType, DotDims, GatherDims, IndexDims, OpKey, PadDims, ReduceWindowDims};
use std::fmt;

/// A pattern variable, written `?name` (stored without the `?`).
#[derive(
    Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Var(pub String);

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "?{}", self.0)
    }
}

/// The kind of an attribute slot or value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum AttrKind {
    /// A list of indices or sizes: `perm`, `dims`, `axes`, `shape`, `start`, `limit`, `stride`.
    Ints,
    /// One index: `axis`, `index`.
    Int,
    /// A flag: `keep_dims`.
    Bool,
    /// An element type: the target of `cast`.
    DType,
    /// `dot_general` dimension numbers.
    Dims,
    /// A number: the value of a splat constant.
    Number,
    /// `convolution` attributes (bound by a variable; rules cannot write them).
    Conv,
    /// `reduce_window` and `select_and_scatter` attributes (bound by a variable; rules cannot
    /// write them).
    Window,
    /// `pad` attributes (bound by a variable; rules cannot write them).
    Pad,
    /// `gather` attributes (bound by a variable; rules cannot write them).
    Gather,
    /// `scatter_*` dimension numbers (bound by a variable; rules cannot write them).
    Index,
}

impl fmt::Display for AttrKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AttrKind::Ints => "an index list like (1 0)",
            AttrKind::Int => "an index",
            AttrKind::Bool => "true or false",
            AttrKind::DType => "a dtype",
            AttrKind::Dims => "dot_general dims like (dims () () (1) (0))",
            AttrKind::Number => "a number",
            AttrKind::Conv => "convolution attributes (bound by a variable)",
            AttrKind::Window => "window attributes (bound by a variable)",
            AttrKind::Pad => "padding attributes (bound by a variable)",
            AttrKind::Gather => "gather attributes (bound by a variable)",
            AttrKind::Index => "scatter dimension numbers (bound by a variable)",
        })
    }
}

/// A concrete attribute value.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum AttrValue {
    /// A list of indices or sizes.
    Ints(Vec<usize>),
    /// One index.
    Int(usize),
    /// A flag.
    Bool(bool),
    /// An element type.
    DType(DType),
    /// `dot_general` dimension numbers.
    Dims(DotDims),
    /// A number (splat constant value), compared after conversion to the constant's dtype.
    Number(f64),
    /// `convolution` attributes (boxed: the largest attribute).
    Conv(Box<ConvDims>),
    /// `reduce_window` and `select_and_scatter` attributes.
    Window(Box<ReduceWindowDims>),
    /// `pad` attributes.
    Pad(Box<PadDims>),
    /// `gather` attributes.
    Gather(Box<GatherDims>),
    /// `scatter_*` dimension numbers.
    Index(Box<IndexDims>),
}

impl AttrValue {
    /// Its kind.
    pub fn kind(&self) -> AttrKind {
        match self {
            AttrValue::Ints(_) => AttrKind::Ints,
            AttrValue::Int(_) => AttrKind::Int,
            AttrValue::Bool(_) => AttrKind::Bool,
            AttrValue::DType(_) => AttrKind::DType,
            AttrValue::Dims(_) => AttrKind::Dims,
            AttrValue::Number(_) => AttrKind::Number,
            AttrValue::Conv(_) => AttrKind::Conv,
            AttrValue::Window(_) => AttrKind::Window,
            AttrValue::Pad(_) => AttrKind::Pad,
            AttrValue::Gather(_) => AttrKind::Gather,
            AttrValue::Index(_) => AttrKind::Index,
        }
    }

    /// Equality as patterns need it: numbers by bit pattern (so `-0.0 != 0.0`), NaN equal to NaN.
    pub fn same(&self, other: &AttrValue) -> bool {
        match (self, other) {
            (AttrValue::Number(a), AttrValue::Number(b)) => {
                (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
            }
            _ => self == other,
        }
    }
}

impl fmt::Display for AttrValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, xs: &[usize]| {
            let items: Vec<String> = xs.iter().map(usize::to_string).collect();
            write!(f, "({})", items.join(" "))
        };
        match self {
            AttrValue::Ints(xs) => list(f, xs),
            AttrValue::Int(i) => write!(f, "{i}"),
            AttrValue::Bool(b) => write!(f, "{b}"),
            AttrValue::DType(d) => write!(f, "{d}"),
            AttrValue::Dims(d) => {
                f.write_str("(dims ")?;
                list(f, &d.lhs_batch)?;
                f.write_str(" ")?;
                list(f, &d.rhs_batch)?;
                f.write_str(" ")?;
                list(f, &d.lhs_contract)?;
                f.write_str(" ")?;
                list(f, &d.rhs_contract)?;
                f.write_str(")")
            }
            AttrValue::Number(x) => write!(f, "{x:?}"),
            AttrValue::Conv(c) => write!(f, "{c:?}"),
            AttrValue::Window(w) => write!(f, "{w:?}"),
            AttrValue::Pad(p) => write!(f, "{p:?}"),
            AttrValue::Gather(g) => write!(f, "{g:?}"),
            AttrValue::Index(d) => write!(f, "{d:?}"),
        }
    }
}

/// An attribute position of a term, a constraint argument or a native call argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    /// `?p`: binds (source) or refers to (result, constraint) an attribute — or, as an argument
    /// of a predicate or native call, a value variable, which then stands for the value's type.
    Var(Var),
    /// A literal.
    Lit(AttrValue),
    /// `?_`: matches anything (source only).
    Ignore,
    /// `(native-fn args...)`: computed by a registered native function (results, constraints).
    Call {
        /// The function's name in the registry.
        func: String,
        /// Its arguments.
        args: Vec<Attr>,
    },
}

/// Index of a term in its pattern's arena.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct TermId(pub usize);

/// A node of a pattern DAG.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Term {
    /// `?x`: in a source pattern, binds an SSA value (a repeated variable must bind the same
    /// value; `?_` binds nothing); in a result, the value bound to `?x` or the result node
    /// named `?x`.
    Value(Var),
    /// An op with operand terms and attributes (in the op's slot order, see
    /// [`crate::attr_slots`]). `name` is set for `?t:(op ...)`.
    Op {
        /// The op kind.
        key: OpKey,
        /// For `call`: the callee (a source pattern `@foo` also matches `@foo_0`, `@foo_1`...).
        callee: Option<String>,
        /// Operand terms.
        operands: Vec<TermId>,
        /// Attributes.
        attrs: Vec<Attr>,
        /// `?t` of `?t:(op ...)`.
        name: Option<Var>,
        /// The result type, where the pattern states it (source-written patterns do, so calls
        /// to externs can appear anywhere in their results).
        ty: Option<ptir_ir::Type>,
    },
    /// `(builder VALUES... ATTRS...)`, in results only: the value a registered native builder
    /// makes from its value arguments (result terms) and attribute arguments
    /// ([`crate::builders`]).
    Native {
        /// The builder's name in the registry.
        func: String,
        /// Its value arguments.
        operands: Vec<TermId>,
        /// Its attribute arguments.
        attrs: Vec<Attr>,
        /// `?t` of `?t:(builder ...)`.
        name: Option<Var>,
    },
    /// `(splat V)`: a constant whose elements all equal `V` (converted to its dtype). In a
    /// result, its type is the root's (at a root) or that of `like` or of a sibling operand of an
    /// elementwise op.
    Splat {
        /// The element value (a number, or a variable bound to one).
        value: Attr,
        /// `(splat V ?like)`: the type of this value.
        like: Option<Var>,
        /// `?c` of `?c:(splat ...)`.
        name: Option<Var>,
    },
}

impl Term {
    /// The name of a named term.
    pub fn name(&self) -> Option<&Var> {
        match self {
            Term::Op { name, .. } | Term::Splat { name, .. } | Term::Native { name, .. } => {
                name.as_ref()
            }
            Term::Value(_) => None,
        }
    }
}

/// A DAG of terms with roots.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Pattern {
    /// The arena; operands always come before their users.
    pub terms: Vec<Term>,
    /// The roots: one for ordinary rules, several for multi-root rules.
    pub roots: Vec<TermId>,
}

impl Pattern {
    /// The term at `id`.
    pub fn term(&self, id: TermId) -> &Term {
        &self.terms[id.0]
    }

    /// Number of op terms (splat constants count as ops): the base of a rule's benefit.
    pub fn num_ops(&self) -> usize {
        self.terms
            .iter()
            .filter(|t| !matches!(t, Term::Value(_)))
            .count()
    }

    /// The terms `t` is computed from: an op's operands, a native builder's value arguments.
    pub fn operands(&self, t: TermId) -> &[TermId] {
        match self.term(t) {
            Term::Op { operands, .. } | Term::Native { operands, .. } => operands,
            Term::Value(_) | Term::Splat { .. } => &[],
        }
    }

    /// Adds a term and returns its id.
    pub fn push(&mut self, t: Term) -> TermId {
        self.terms.push(t);
        TermId(self.terms.len() - 1)
    }
}

/// A constraint: a named native predicate applied to variables and literals.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Constraint {
    /// The predicate's name in the registry.
    pub pred: String,
    /// Its arguments.
    pub args: Vec<Attr>,
}

/// Where a rule was written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct Location {
    /// File path as given to the loader.
    pub file: String,
    /// 1-based line of the rule's first character.
    pub line: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A checked rewrite rule.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rule {
    /// Unique name (kebab-case).
    pub name: String,
    /// Labels for filtering (`canonicalize`, `fast-math`, ...).
    pub labels: Vec<String>,
    /// Where it was written.
    pub location: Location,
    /// What it matches.
    pub source: Pattern,
    /// What replaces each source root, in root order (its `roots`).
    pub result: Pattern,
    /// DRR's auxiliary result patterns: result terms (named ops, `?m:(...)`) written before
    /// the replacements, built first, in order, and used by the replacements by name. (They
    /// replace nothing themselves; every one is used, since the ops a rule builds are pure.)
    pub aux: Vec<TermId>,
    /// Conditions on the match.
    pub constraints: Vec<Constraint>,
    /// Added to the source op count to make the benefit.
    pub add_benefit: i32,
    /// The rule may apply to its own result (MLIR `hasBoundedRewriteRecursion`).
    pub bounded_recursion: bool,
    /// Why the rule is true (its doc comment).
    pub doc: String,
    /// The kind of each attribute variable (value variables are absent).
    #[serde(with = "pairs")]
    pub attr_vars: IndexMap<Var, AttrKind>,
}

/// The predicate that asks for a value with exactly one user.
pub const SINGLE_USE: &str = "single-use";

/// The label that marks rules which are not IEEE-exact.
pub const FAST_MATH: &str = "fast-math";

impl Rule {
    /// Benefit as DRR defines it: source ops plus `:add-benefit`, at least 0.
    pub fn benefit(&self) -> u16 {
        let b = self.source.num_ops() as i64 + self.add_benefit as i64;
        b.clamp(0, u16::MAX as i64) as u16
    }

    /// Is the rule labelled `fast-math` (true for reals, not bit-exact in IEEE)?
    pub fn is_fast_math(&self) -> bool {
        self.has_label(FAST_MATH)
    }

    /// Does the rule carry this label?
    pub fn has_label(&self, label: &str) -> bool {
        self.labels.iter().any(|l| l == label)
    }

    /// The values its `single-use` constraints name (`?t` of `(single-use ?t)`): the
    /// intermediates a fusion removes. Each engine decides them itself, from use counts: the
    /// greedy driver when it matches, saturation at extraction (`docs/rules.md`).
    pub fn single_use_values(&self) -> impl Iterator<Item = &Var> {
        self.constraints
            .iter()
            .filter_map(|c| match (c.pred.as_str(), &c.args[..]) {
                (SINGLE_USE, [crate::Attr::Var(v)]) => Some(v),
                _ => None,
            })
    }

    /// The op kind of the first root (what a greedy pattern is anchored at), if it is an op.
    pub fn root_key(&self) -> Option<OpKey> {
        let root = *self.source.roots.first()?;
        match self.source.term(root) {
            Term::Op { key, .. } => Some(*key),
            Term::Splat { .. } => Some(OpKey::Constant),
            Term::Value(_) | Term::Native { .. } => None,
        }
    }
}

/// An `IndexMap` encoded as a sequence of pairs, in its order (`#[serde(with)]`).
pub(crate) mod pairs {
    use indexmap::IndexMap;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::hash::Hash;

    pub(crate) fn serialize<K: Serialize, V: Serialize, S: Serializer>(
        map: &IndexMap<K, V>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(map.iter())
    }

    pub(crate) fn deserialize<'de, K, V, D>(d: D) -> Result<IndexMap<K, V>, D::Error>
    where
        K: Deserialize<'de> + Hash + Eq,
        V: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        Ok(Vec::<(K, V)>::deserialize(d)?.into_iter().collect())
    }
}

/// Checks what `single-use` asks of a rule, so that both engines can decide it the same way:
/// each replacement is an op the rule builds (the fused op; saturation decides the
/// constraint at extraction by choosing that e-node or not, and a replacement that is a
/// matched value or a constant builds no node of its own to choose), and no result uses a
/// single-use value (it is the intermediate the fusion removes; a result that kept it would
/// gain nothing from its having one user).
pub(crate) fn check_single_use(rule: &Rule) -> Result<(), String> {
    let Some(v) = rule.single_use_values().next() else {
        return Ok(());
    };
    if let Some(&r) = (rule.result.roots.iter())
        .find(|&&r| !matches!(rule.result.term(r), Term::Op { .. } | Term::Native { .. }))
    {
        let what = match rule.result.term(r) {
            Term::Value(x) => format!("the matched value ?{}", x.0),
            _ => "a constant".into(),
        };
        return Err(format!(
            "`(single-use ?{})` needs each replacement to be an op the rule builds, not {what}: \
             saturation decides single-use by choosing the fused op or not",
            v.0
        ));
    }
    for v in rule.single_use_values() {
        let used = (rule.result.terms.iter()).any(|t| matches!(t, Term::Value(x) if x == v));
        if used {
            return Err(format!(
                "?{} is single-use, so the result cannot use it (it is the value the fusion \
                 removes)",
                v.0
            ));
        }
    }
    Ok(())
}
