//! Compiled rule libraries: a checked rule set saved in a compact binary form that loads
//! without parsing (SMR's `.pfa` files: patterns compiled once, loaded by every run).
//!
//! `ptir-opt compile-rules RULES... -o lib.ptrl` writes one; `--rules lib.ptrl` (and
//! [`RuleSet::add_compiled`]) reads it back wherever rule files are accepted. The file is:
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | [`MAGIC`], `PTIRRULE` |
//! | 4 | [`FORMAT_VERSION`], little-endian |
//! | 8 | [`schema_fingerprint`]: the op kinds (with their attribute slots) and dtypes the encoding numbers |
//! | 8 | payload length |
//! | 8 | payload checksum (FNV-1a, 64 bits) |
//! | n | payload: the rules and externs, [postcard](https://docs.rs/postcard)-encoded |
//!
//! Loading checks each in turn, so a file of another format version, of a build with another
//! op set (postcard numbers enum variants by position), truncated or corrupted is refused with
//! a [`LibraryError`] saying which, before anything is decoded. What the checksum cannot rule
//! out (a file written by hand) is still checked enough that no engine can panic on it: term
//! references in range and in arena order, operand and attribute counts per op kind, the
//! registry's predicates and native functions with their arities, recursive values bounded
//! ([`ptir_ir::preorder`]), and every rule through [`RuleSet::add_rule`] (bounded DAG, unique
//! name). What parsing checks beyond that (variables bound before use, attribute kinds, result
//! types) was checked when the library was compiled.
//!
//! Architecture Invariant: any change to the encoded types (`Rule` and everything in it,
//! [`ExternSpec`]) changes the bytes of the golden test below and must bump
//! [`FORMAT_VERSION`], so that an old library is refused rather than misread.

use crate::ast::{Attr, AttrKind, AttrValue, Rule, Term, TermId, Var};
use crate::error::RuleError;
use crate::ops::attr_slots;
use crate::parse::{ExternSpec, VariadicRule};
use crate::registry::Registry;
use crate::ruleset::{map_in_order, Reach, RuleSet, PARALLEL_RULES_MIN};
use crate::{Location, LoopPattern};
use ptir_ir::preorder::{from_preorder, PreOrder};
use ptir_ir::{DType, OpKey};

/// The first bytes of a compiled rule library.
pub const MAGIC: [u8; 8] = *b"PTIRRULE";

/// The version of the encoding; bumped whenever an encoded type changes.
pub const FORMAT_VERSION: u32 = 19;

/// Bytes before the payload.
const HEADER_LEN: usize = 8 + 4 + 8 + 8 + 8;

/// Why a compiled rule library cannot be loaded (or written).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LibraryError {
    /// The bytes do not start with [`MAGIC`].
    #[error("not a compiled rule library (it does not start with `PTIRRULE`)")]
    NotALibrary,
    /// The file ends before its header or payload does.
    #[error("truncated compiled rule library: {expected} bytes expected, {found} found")]
    Truncated {
        /// Bytes the header promises (or the header's own length).
        expected: u64,
        /// Bytes there are.
        found: u64,
    },
    /// Written in another format version.
    #[error(
        "compiled rule library of format version {found}, this build reads version {expected}: \
         compile the rules again (`ptir-opt compile-rules`)"
    )]
    Version {
        /// The file's version.
        found: u32,
        /// [`FORMAT_VERSION`].
        expected: u32,
    },
    /// Written by a build with another op set or dtype set.
    #[error(
        "stale compiled rule library: written by a build with other op kinds or dtypes (schema \
         {found:016x}, this build {expected:016x}): compile the rules again (`ptir-opt \
         compile-rules`)"
    )]
    Stale {
        /// The file's fingerprint.
        found: u64,
        /// [`schema_fingerprint`].
        expected: u64,
    },
    /// The payload is not what was written.
    #[error(
        "corrupt compiled rule library: checksum {found:016x}, the header says {expected:016x}"
    )]
    Checksum {
        /// The payload's checksum.
        found: u64,
        /// The header's.
        expected: u64,
    },
    /// The payload does not decode.
    #[error("corrupt compiled rule library: {0}")]
    Decode(String),
    /// The rule set cannot be encoded.
    #[error("cannot compile the rule library: {0}")]
    Encode(String),
    /// A rule decoded but is not well formed, or cannot join the set (a duplicate name).
    #[error(transparent)]
    Rule(#[from] RuleError),
}

/// Does `bytes` start like a compiled rule library?
pub fn is_compiled(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// A fingerprint of what the encoding numbers by position outside this crate: every op kind
/// ([`OpKey::all`]) with the names of its attribute slots, and every dtype ([`DType::ALL`]),
/// in order. A build that adds, removes or reorders one reads old libraries as
/// [`LibraryError::Stale`].
pub fn schema_fingerprint() -> u64 {
    let mut text = String::new();
    for k in OpKey::all() {
        text.push_str(k.name());
        // The attribute slots too: a kind given another slot (`sort`'s `keys`) is another
        // encoding of its terms.
        for a in crate::ops::attr_names(k) {
            text.push(':');
            text.push_str(a);
        }
        text.push(',');
    }
    text.push(';');
    for d in DType::ALL {
        text.push_str(d.name());
        text.push(',');
    }
    fnv1a(text.as_bytes())
}

/// FNV-1a, 64 bits: the payload checksum.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// An extern declaration as encoded: its definition as PTIR text (printing is exact, and a
/// definition is self-contained), so the IR needs no serialized form.
#[derive(serde::Serialize, serde::Deserialize)]
struct ExternRecord {
    name: String,
    pure: bool,
    cost: f64,
    location: Location,
    definition: Option<String>,
}

/// A loop pattern as encoded: its two functions as PTIR text, like an extern's definition.
#[derive(serde::Serialize, serde::Deserialize)]
struct LoopRecord {
    name: String,
    doc: String,
    location: Location,
    dims: usize,
    /// The parameters' names in bindings.
    params: Vec<String>,
    /// The attribute slots not compared, by op kind name.
    ignored: Vec<(String, Vec<usize>)>,
    /// `@NAME_pattern` then `@NAME_replacement`.
    functions: String,
}

/// A rule as encoded: what a load reads to decide whether a program can use it (its name and
/// labels, for the names a user gives, and its [`Reach`]), then the rule, encoded on its own,
/// which the load decodes only if so.
#[derive(serde::Serialize, serde::Deserialize)]
struct RuleRecord<'a> {
    name: &'a str,
    #[serde(borrow)]
    labels: Vec<&'a str>,
    reach: Reach,
    rule: &'a [u8],
}

/// The payload (read borrowing the rules' bytes, written borrowing the rules).
#[derive(serde::Serialize, serde::Deserialize)]
struct Library<'a> {
    #[serde(borrow)]
    rules: Vec<RuleRecord<'a>>,
    externs: Vec<ExternRecord>,
    loop_patterns: Vec<LoopRecord>,
    variadic: Vec<VariadicRule>,
}

impl LoopRecord {
    fn new(p: &LoopPattern) -> Self {
        LoopRecord {
            name: p.name.clone(),
            doc: p.doc.clone(),
            location: p.location.clone(),
            dims: p.dims(),
            params: p.param_names().to_vec(),
            ignored: (p.ignored_attrs().iter())
                .map(|(k, slots)| (k.name().to_string(), slots.clone()))
                .collect(),
            functions: ptir_ir::print(&ptir_ir::Program {
                externs: Vec::new(),
                functions: vec![p.pattern().clone(), p.replacement().clone()],
            }),
        }
    }

    fn into_pattern(self) -> Result<LoopPattern, LibraryError> {
        let bad = |m: String| {
            RuleError::new(
                &self.location.file,
                self.location.line,
                Some(self.name.clone()),
                format!("in a compiled library: {m}"),
            )
        };
        let mut program = ptir_ir::parse(&self.functions).map_err(|e| bad(e.to_string()))?;
        // The replacement's callees are the rule set's externs: declared here to verify.
        for name in program.called_names() {
            if program.extern_decl(&name).is_none() {
                program.externs.push(ptir_ir::ExternDecl {
                    name,
                    signature: None,
                    pure: true,
                });
            }
        }
        ptir_ir::verify(&program).map_err(|e| bad(e.to_string()))?;
        let [pattern, replacement] = <[_; 2]>::try_from(program.functions)
            .map_err(|f| bad(format!("{} functions, not two", f.len())))?;
        let pattern = LoopPattern::from_parts(
            self.name.clone(),
            self.doc.clone(),
            self.location.clone(),
            pattern,
            replacement,
            self.dims,
        )
        .map_err(|m| LibraryError::from(bad(m)))?;
        let mut ignored = Vec::new();
        for (name, slots) in &self.ignored {
            let key = OpKey::from_name(name).ok_or_else(|| bad(format!("unknown op `{name}`")))?;
            ignored.push((key, slots.clone()));
        }
        Ok(pattern
            .with_param_names(self.params.clone())
            .with_ignored(ignored))
    }
}

impl ExternRecord {
    fn new(e: &ExternSpec) -> Self {
        ExternRecord {
            name: e.name.clone(),
            pure: e.pure,
            cost: e.cost,
            location: e.location.clone(),
            definition: e.definition.as_ref().map(|f| {
                ptir_ir::print(&ptir_ir::Program {
                    externs: Vec::new(),
                    functions: vec![f.clone()],
                })
            }),
        }
    }

    fn into_spec(self) -> Result<ExternSpec, LibraryError> {
        let definition = match &self.definition {
            None => None,
            Some(text) => {
                let bad = |m: String| {
                    RuleError::new(
                        &self.location.file,
                        self.location.line,
                        None,
                        format!("the definition of @{}: {m}", self.name),
                    )
                };
                let program = ptir_ir::parse(text).map_err(|e| bad(e.to_string()))?;
                ptir_ir::verify(&program).map_err(|e| bad(e.to_string()))?;
                let mut functions = program.functions;
                if functions.len() != 1 {
                    return Err(bad(format!("{} functions, not one", functions.len())).into());
                }
                functions.pop()
            }
        };
        Ok(ExternSpec {
            name: self.name,
            pure: self.pure,
            cost: self.cost,
            location: self.location,
            definition,
        })
    }
}

impl RuleSet {
    /// This set's rules and externs as a compiled library (see the [module docs](self)); the
    /// registry is not saved: [`RuleSet::add_compiled`] checks the rules against its own.
    ///
    /// ```
    /// use ptir_rules::{Registry, RuleSet};
    /// let mut set = RuleSet::new(Registry::standard());
    /// set.add_source("r.rules", "; why\n(rule neg-neg (neg (neg ?x)) => ?x)").unwrap();
    /// let bytes = set.to_compiled().unwrap();
    /// let back = RuleSet::from_compiled(&bytes, Registry::standard()).unwrap();
    /// assert_eq!(back.rules(), set.rules());
    /// ```
    pub fn to_compiled(&self) -> Result<Vec<u8>, LibraryError> {
        encode(
            self.rules(),
            self.externs().values().map(ExternRecord::new).collect(),
            self.loop_patterns().iter().map(LoopRecord::new).collect(),
            self.variadic_rules().to_vec(),
        )
    }

    /// A set of the rules and externs of a compiled library, checked against `registry`.
    pub fn from_compiled(bytes: &[u8], registry: Registry) -> Result<RuleSet, LibraryError> {
        let mut set = RuleSet::new(registry);
        set.add_compiled(bytes)?;
        Ok(set)
    }

    /// Adds the rules and externs of a compiled library (written by
    /// [`RuleSet::to_compiled`]), in their order, without parsing them: the header is checked,
    /// the payload decoded, and each rule checked for what an engine relies on (see the
    /// [module docs](self)). Externs are added as the files they were declared in would add
    /// them ([`RuleSet::add_source`], or [`RuleSet::add_pat_source`] for a file named `.pat`);
    /// a rule whose name is already in the set is an error, as for rule files.
    pub fn add_compiled(&mut self, bytes: &[u8]) -> Result<(), LibraryError> {
        self.add_compiled_applicable(bytes, None)
    }

    /// [`RuleSet::add_compiled`], decoding only, when `only` is given as `(present, filter)`,
    /// the rules `filter` keeps that can match a program whose ops are of the kinds
    /// `present`: the others are left out as [`RuleSet::retain`] and then
    /// [`RuleSet::retain_applicable`] would drop them (their names still count as known
    /// names for [`RuleSet::check_names`]). Only for a set the library is all of: a rule
    /// added afterwards could make what a left-out rule needs.
    pub fn add_compiled_applicable(
        &mut self,
        bytes: &[u8],
        only: Option<(&[OpKey], &crate::RuleFilter)>,
    ) -> Result<(), LibraryError> {
        let payload = payload(bytes)?;
        let library: Library<'_> =
            postcard::from_bytes(payload).map_err(|e| LibraryError::Decode(e.to_string()))?;
        for e in library.externs {
            let spec = e.into_spec()?;
            // As the source file it came from would: a `.pat` declaration states no cost and
            // does not replace an earlier declaration.
            if spec.location.file.ends_with(".pat") && self.externs().contains_key(&spec.name) {
                continue;
            }
            self.add_extern(spec);
        }
        let keep = match only {
            Some((present, filter)) => {
                let kept: Vec<bool> = (library.rules.iter())
                    .map(|r| filter.keeps_named(r.name, &r.labels))
                    .collect();
                let reaches: Vec<Reach> = (library.rules.iter().zip(&kept))
                    .filter(|(_, &k)| k)
                    .map(|(r, _)| r.reach.clone())
                    .collect();
                // One entry per rule the filter keeps, in order.
                let can = crate::ruleset::applicable(&reaches, present.iter().copied());
                let mut can = can.into_iter();
                kept.iter()
                    .map(|&k| k && can.next().unwrap_or(true))
                    .collect()
            }
            None => vec![true; library.rules.len()],
        };
        // The labels and reach decided what was decoded only for a load for a program.
        let pruning = only.is_some();
        let registry = self.registry();
        let to_decode = keep.iter().filter(|&&k| k).count();
        let records: Vec<(&RuleRecord<'_>, bool)> = library.rules.iter().zip(keep).collect();
        let parallel = to_decode >= PARALLEL_RULES_MIN;
        let decoded = map_in_order(&records, parallel, |&(record, keep)| match keep {
            true => decode_rule(record, pruning, registry).map(Some),
            false => Ok(None),
        });
        // Added in order, so that the first bad record (or duplicate name) is the one reported.
        self.reserve(to_decode);
        for (record, rule) in library.rules.iter().zip(decoded) {
            match rule? {
                Some(rule) => self.add_bounded_rule(rule)?,
                None => {
                    let labels = record.labels.iter().map(|l| l.to_string()).collect();
                    self.add_unloaded(record.name.to_string(), labels);
                }
            }
        }
        for p in library.loop_patterns {
            let p = p.into_pattern()?;
            self.add_loop_pattern(p)?;
        }
        self.add_variadic(library.variadic)?;
        Ok(())
    }
}

/// The rule `record` holds, decoded and checked: it is the rule the record names (and, when
/// `pruning`, has the labels and reach the record gives), well formed and within the bounds.
fn decode_rule(
    record: &RuleRecord<'_>,
    pruning: bool,
    registry: &Registry,
) -> Result<Rule, LibraryError> {
    let rule: Rule =
        postcard::from_bytes(record.rule).map_err(|e| LibraryError::Decode(e.to_string()))?;
    if rule.name != record.name
        || (pruning && (rule.labels != record.labels || Reach::of(&rule) != record.reach))
    {
        return Err(LibraryError::Decode(format!(
            "the header of rule `{}` does not describe it",
            rule.name
        )));
    }
    let error = |message: String| {
        let location = &rule.location;
        RuleError::new(
            &location.file,
            location.line,
            Some(rule.name.clone()),
            message,
        )
    };
    well_formed(&rule, registry).map_err(|m| error(format!("in a compiled library: {m}")))?;
    crate::bounds::check(&rule).map_err(|e| error(e.message))?;
    Ok(rule)
}

/// A library of these parts, header included: each rule encoded on its own behind its record.
fn encode(
    rules: &[Rule],
    externs: Vec<ExternRecord>,
    loop_patterns: Vec<LoopRecord>,
    variadic: Vec<VariadicRule>,
) -> Result<Vec<u8>, LibraryError> {
    let encode =
        |r: &Rule| postcard::to_allocvec(r).map_err(|e| LibraryError::Encode(e.to_string()));
    let encoded: Vec<Vec<u8>> = rules.iter().map(encode).collect::<Result<_, _>>()?;
    let records = (rules.iter().zip(&encoded)).map(|(r, bytes)| RuleRecord {
        name: &r.name,
        labels: r.labels.iter().map(String::as_str).collect(),
        reach: Reach::of(r),
        rule: bytes,
    });
    let library = Library {
        rules: records.collect(),
        externs,
        loop_patterns,
        variadic,
    };
    let payload =
        postcard::to_allocvec(&library).map_err(|e| LibraryError::Encode(e.to_string()))?;
    Ok(with_header(&payload))
}

/// `payload` behind a header that describes it.
fn with_header(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&schema_fingerprint().to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload of `bytes` after checking the header (magic, version, schema, length,
/// checksum, in that order).
fn payload(bytes: &[u8]) -> Result<&[u8], LibraryError> {
    if !bytes.is_empty() && bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) {
        // Cut inside the magic itself.
        return Err(LibraryError::Truncated {
            expected: HEADER_LEN as u64,
            found: bytes.len() as u64,
        });
    }
    if !is_compiled(bytes) {
        return Err(LibraryError::NotALibrary);
    }
    let header = bytes.get(..HEADER_LEN).ok_or(LibraryError::Truncated {
        expected: HEADER_LEN as u64,
        found: bytes.len() as u64,
    })?;
    let u32_at =
        |i: usize| u32::from_le_bytes([header[i], header[i + 1], header[i + 2], header[i + 3]]);
    let u64_at = |i: usize| u64::from(u32_at(i)) | (u64::from(u32_at(i + 4)) << 32);
    let version = u32_at(8);
    if version != FORMAT_VERSION {
        return Err(LibraryError::Version {
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    let schema = u64_at(12);
    if schema != schema_fingerprint() {
        return Err(LibraryError::Stale {
            found: schema,
            expected: schema_fingerprint(),
        });
    }
    let (len, checksum) = (u64_at(20), u64_at(28));
    let body = &bytes[HEADER_LEN..];
    if body.len() as u64 != len {
        return Err(LibraryError::Truncated {
            expected: HEADER_LEN as u64 + len,
            found: bytes.len() as u64,
        });
    }
    let found = fnv1a(body);
    if found != checksum {
        return Err(LibraryError::Checksum {
            found,
            expected: checksum,
        });
    }
    Ok(body)
}

/// Checks what the engines index or look up without checking (see the module docs).
fn well_formed(rule: &Rule, registry: &Registry) -> Result<(), String> {
    crate::ast::check_single_use(rule)?;
    for (side, p) in [("source", &rule.source), ("result", &rule.result)] {
        let in_range = |t: &TermId, below: usize| t.0 < below;
        if let Some(r) = p.roots.iter().find(|r| !in_range(r, p.terms.len())) {
            return Err(format!("{side} root {} is not a term", r.0));
        }
        for (i, term) in p.terms.iter().enumerate() {
            let attrs: &[Attr] = match term {
                Term::Op {
                    key,
                    operands,
                    attrs,
                    ..
                } => {
                    if let Some(o) = operands.iter().find(|o| !in_range(o, i)) {
                        return Err(format!("{side} term {i} uses term {}, not before it", o.0));
                    }
                    let Some((arity, slots)) = attr_slots(*key) else {
                        return Err(format!("{side} term {i}: `{key}` is not a rule op"));
                    };
                    if arity.is_some_and(|n| n != operands.len()) || attrs.len() != slots.len() {
                        return Err(format!(
                            "{side} term {i}: `{key}` with {} operands and {} attributes",
                            operands.len(),
                            attrs.len()
                        ));
                    }
                    check_returns(attrs, slots, registry)?;
                    attrs
                }
                Term::Splat { value, .. } => std::slice::from_ref(value),
                Term::Native {
                    func,
                    operands,
                    attrs,
                    ..
                } => {
                    if let Some(o) = operands.iter().find(|o| !in_range(o, i)) {
                        return Err(format!("{side} term {i} uses term {}, not before it", o.0));
                    }
                    match registry.builder(func) {
                        Some(b) if b.values == operands.len() && b.attrs.len() == attrs.len() => {
                            check_returns(attrs, b.attrs, registry)?
                        }
                        Some(_) => {
                            return Err(format!("{side} term {i}: `{func}` with other arguments"))
                        }
                        None => return Err(format!("no native builder `{func}` in the registry")),
                    }
                    attrs
                }
                Term::Value(_) => &[],
            };
            check_calls(attrs, registry)?;
        }
    }
    if let Some(a) = rule.aux.iter().find(|a| a.0 >= rule.result.terms.len()) {
        return Err(format!("auxiliary result {} is not a term", a.0));
    }
    if rule.source.roots.is_empty() || rule.source.roots.len() != rule.result.roots.len() {
        return Err(format!(
            "{} source roots and {} result roots",
            rule.source.roots.len(),
            rule.result.roots.len()
        ));
    }
    for c in &rule.constraints {
        match registry.predicate(&c.pred) {
            None => return Err(format!("no predicate `{}` in the registry", c.pred)),
            Some(p) if p.arity != c.args.len() => {
                return Err(format!(
                    "`{}` takes {} arguments, not {}",
                    c.pred,
                    p.arity,
                    c.args.len()
                ))
            }
            Some(_) => check_calls(&c.args, registry)?,
        }
    }
    Ok(())
}

/// Each native function called at the top of an attribute slot returns the slot's kind, as
/// the parser checks it: a caller's registry may have registered a native again with
/// another.
fn check_returns(attrs: &[Attr], kinds: &[AttrKind], registry: &Registry) -> Result<(), String> {
    for (a, &kind) in attrs.iter().zip(kinds) {
        if let Attr::Call { func, .. } = a {
            match registry.native(func) {
                Some(n) if n.returns != kind => {
                    return Err(format!(
                        "`{func}` returns {} but its slot needs {kind}",
                        n.returns
                    ))
                }
                // A missing native is `check_calls`' to report.
                _ => {}
            }
        }
    }
    Ok(())
}

/// Checks that every native call in `attrs` (at any depth) names a registered function with
/// its arity.
fn check_calls(attrs: &[Attr], registry: &Registry) -> Result<(), String> {
    let mut stack: Vec<&Attr> = attrs.iter().collect();
    while let Some(a) = stack.pop() {
        if let Attr::Call { func, args } = a {
            match registry.native(func) {
                None => return Err(format!("no native function `{func}` in the registry")),
                Some(n) if n.arity != args.len() => {
                    return Err(format!(
                        "`{func}` takes {} arguments, not {}",
                        n.arity,
                        args.len()
                    ))
                }
                Some(_) => stack.extend(args),
            }
        }
    }
    Ok(())
}

/// An [`Attr`] node in pre-order ([`ptir_ir::preorder`]): how attribute expressions are
/// encoded, so that a native call nested past [`crate::RULE_DEPTH_LIMIT`] in a corrupt file is
/// an error, not a stack overflow.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename = "AttrNode")]
enum AttrNode<V, A, S> {
    Var(V),
    Lit(A),
    Ignore,
    Call(S, usize),
}

impl serde::Serialize for Attr {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut nodes: Vec<AttrNode<&Var, &AttrValue, &str>> = Vec::new();
        let mut stack = vec![self];
        while let Some(a) = stack.pop() {
            nodes.push(match a {
                Attr::Var(v) => AttrNode::Var(v),
                Attr::Lit(x) => AttrNode::Lit(x),
                Attr::Ignore => AttrNode::Ignore,
                Attr::Call { func, args } => {
                    stack.extend(args.iter().rev());
                    AttrNode::Call(func, args.len())
                }
            });
        }
        serde::Serialize::serialize(&nodes, s)
    }
}

impl<'de> serde::Deserialize<'de> for Attr {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let nodes = Vec::<AttrNode<Var, AttrValue, String>>::deserialize(d)?;
        let nodes = nodes.into_iter().map(|n| match n {
            AttrNode::Var(v) => PreOrder::Leaf(Attr::Var(v)),
            AttrNode::Lit(x) => PreOrder::Leaf(Attr::Lit(x)),
            AttrNode::Ignore => PreOrder::Leaf(Attr::Ignore),
            AttrNode::Call(func, n) => PreOrder::Inner(func, n),
        });
        from_preorder(
            nodes,
            |a| a,
            |func, args| Attr::Call { func, args },
            crate::RULE_DEPTH_LIMIT,
        )
        .map_err(|e| <D::Error as serde::de::Error>::custom(format!("an attribute: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    const RULES: &str = "\
(extern fused :pure :cost 2)
; double negation
(rule neg-neg :labels (canonicalize) (neg (neg ?x)) => ?x)
; a transpose pair is one transpose
(rule tt (transpose (transpose ?x ?p) ?q) => (transpose ?x (compose-perm ?p ?q))
  :when ((has-rank ?x 2)))
; only once used
(rule fuse (exp ?y:(neg ?x)) => (call @fused ?x) :when ((single-use ?y)))
; a splat, an auxiliary result and a native builder, so that the pinned bytes cover them
(rule one (mul (neg ?x) (splat 1)) => ?n:(neg ?x) (add ?n (splat -0.0)))
(rule lower (call @fused ?x) => (mean ?x (1)))
";

    fn set() -> RuleSet {
        let mut set = RuleSet::new(Registry::standard());
        set.add_source("t.rules", RULES).unwrap();
        set
    }

    fn load(bytes: &[u8]) -> Result<RuleSet, LibraryError> {
        RuleSet::from_compiled(bytes, Registry::standard())
    }

    /// A load for a program decodes exactly the rules pruning would keep of a full load, in
    /// the same order, and still knows the names of the others.
    #[test]
    fn a_load_for_a_program_decodes_the_rules_pruning_keeps() {
        use ptir_ir::{BinaryOp, UnaryOp};
        let bundled = RuleSet::bundled().unwrap();
        let bytes = bundled.to_compiled().unwrap();
        let programs: [&[OpKey]; 4] = [
            &[],
            &[OpKey::DotGeneral],
            &[
                OpKey::Binary(BinaryOp::Add),
                OpKey::Unary(UnaryOp::Exp),
                OpKey::Transpose,
            ],
            &[
                OpKey::Reduce(ptir_ir::ReduceKind::Sum),
                OpKey::Binary(BinaryOp::Div),
            ],
        ];
        for present in programs {
            let mut pruned = RuleSet::new(Registry::standard());
            let all = crate::RuleFilter::default();
            pruned
                .add_compiled_applicable(&bytes, Some((present, &all)))
                .unwrap();
            let mut full = load(&bytes).unwrap();
            let dropped = full.retain_applicable(present.iter().copied());
            assert_eq!(pruned.rules(), full.rules(), "{present:?}");
            // (With the fast-math rules, which this set has, a product reaches a rule whose
            // result calls a native builder, and every rule is kept.)
            assert!(dropped > 0 || !present.is_empty(), "{present:?}");
            let names: Vec<String> = bundled.rules().iter().map(|r| r.name.clone()).collect();
            assert_eq!(pruned.check_names(&names), Ok(()));
            let typo = ["dot-asoc-int".to_string()];
            assert!(pruned.check_names(&typo).is_err());
        }
    }

    /// A library of `rules` whose record `i` names its rule `name(i, rule)`.
    fn library_named<'r>(rules: &'r [Rule], name: impl Fn(usize, &'r Rule) -> &'r str) -> Vec<u8> {
        let encoded: Vec<Vec<u8>> = (rules.iter())
            .map(|r| postcard::to_allocvec(r).unwrap())
            .collect();
        let records = (rules.iter().zip(&encoded).enumerate()).map(|(i, (r, bytes))| RuleRecord {
            name: name(i, r),
            labels: r.labels.iter().map(String::as_str).collect(),
            reach: Reach::of(r),
            rule: bytes,
        });
        let library = Library {
            rules: records.collect(),
            externs: Vec::new(),
            loop_patterns: Vec::new(),
            variadic: Vec::new(),
        };
        with_header(&postcard::to_allocvec(&library).unwrap())
    }

    /// A header that does not describe its rule (a file written by hand) is refused: a load
    /// for a program would otherwise leave out a rule it needs, or keep one under another
    /// name.
    #[test]
    fn a_header_that_misdescribes_its_rule_is_refused() {
        let set = set();
        let bytes = library_named(set.rules(), |_, _| "another-name");
        let err = load(&bytes).unwrap_err();
        assert!(err.to_string().contains("does not describe it"), "{err}");
    }

    /// A library large enough to be decoded in parallel loads the rules a sequential load
    /// does, in order; of two bad records, the first is the one reported, whichever thread
    /// decoded it.
    #[test]
    fn a_large_library_loads_in_order_and_reports_its_first_bad_record() {
        let n = 2 * PARALLEL_RULES_MIN + 3;
        let text: String = (0..n)
            .map(|i| format!("(rule r{i} (add (neg ?x) (splat {i})) => (sub (splat {i}) ?x))\n"))
            .collect();
        let mut set = RuleSet::new(Registry::standard());
        set.add_source("many.rules", &text).unwrap();
        let back = load(&set.to_compiled().unwrap()).unwrap();
        assert_eq!(back.rules(), set.rules());
        assert_eq!(
            back.rule("r1500").map(|r| &r.name),
            Some(&"r1500".to_string())
        );
        // Record 1,100 repeats the name of rule 5; record 1,900 misdescribes its rule.
        let rules = set.rules();
        fn misnamed(i: usize, rule: &Rule) -> &str {
            if i == 1900 {
                "not-r1900"
            } else {
                &rule.name
            }
        }
        let bytes = library_named(rules, misnamed);
        let mut renamed = rules.to_vec();
        renamed[1100].name = "r5".to_string();
        let both = library_named(&renamed, misnamed);
        let err = load(&both).unwrap_err().to_string();
        assert!(err.contains("duplicate rule name"), "{err}");
        let err = load(&bytes).unwrap_err().to_string();
        assert!(err.contains("rule `r1900` does not describe it"), "{err}");
    }

    #[test]
    fn a_library_round_trips() {
        let set = set();
        let bytes = set.to_compiled().unwrap();
        let back = load(&bytes).unwrap();
        assert_eq!(back.rules(), set.rules());
        assert_eq!(back.externs(), set.externs());
        assert_eq!(back.rule("fuse").unwrap().single_use_values().count(), 1);
        // The bundled library, `.pat` definitions and generic dimensions included.
        let bundled = RuleSet::bundled().unwrap();
        let back = load(&bundled.to_compiled().unwrap()).unwrap();
        assert_eq!(back.rules(), bundled.rules());
        assert_eq!(back.externs(), bundled.externs());
    }

    /// A variadic rule keeps its text through a library, so a loaded set expands it past
    /// the arities compiled in, as a parsed one does; a library of an already expanded set
    /// expands without adding an arity twice.
    #[test]
    fn variadic_rules_expand_after_loading() {
        let mut set = RuleSet::new(Registry::standard());
        let text = "(rule flat (concat ?a (concat ?a ?xs...) ?y) => (concat ?a ?xs... ?y))";
        set.add_source("v.rules", text).unwrap();
        let mut back = load(&set.to_compiled().unwrap()).unwrap();
        assert_eq!(back.variadic_rules(), set.variadic_rules());
        assert_eq!(back.expand_variadic([20, 30]).unwrap(), 2);
        assert_eq!(set.expand_variadic([20, 30]).unwrap(), 2);
        assert_eq!(back.rules(), set.rules());
        let mut again = load(&set.to_compiled().unwrap()).unwrap();
        assert_eq!(again.expand_variadic([20, 24]).unwrap(), 1);
        assert!(again.rule("flat/24").is_some() && again.rule("flat/30").is_some());
    }

    /// Architecture Invariant (module docs): the encoding of a fixed set is pinned. If this
    /// fails, an encoded type changed: bump FORMAT_VERSION, then update the hash.
    #[test]
    fn the_encoding_is_pinned_to_the_format_version() {
        let bytes = set().to_compiled().unwrap();
        let payload = &bytes[HEADER_LEN..];
        assert_eq!(
            (FORMAT_VERSION, format!("{:016x}", fnv1a(payload))),
            (19, "69a19bd2b47e60ac".to_string()),
            "the encoding changed: bump FORMAT_VERSION and update this test"
        );
    }

    #[test]
    fn truncated_and_corrupted_files_are_refused_without_panics() {
        let bytes = set().to_compiled().unwrap();
        for n in 0..bytes.len() {
            let err = load(&bytes[..n]).unwrap_err();
            let expected = match n {
                0 => LibraryError::NotALibrary,
                _ if n < HEADER_LEN => LibraryError::Truncated {
                    expected: HEADER_LEN as u64,
                    found: n as u64,
                },
                _ => LibraryError::Truncated {
                    expected: bytes.len() as u64,
                    found: n as u64,
                },
            };
            assert_eq!(err, expected, "cut at {n}");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x5a;
            let err = load(&bad).unwrap_err();
            let ok = match i {
                0..8 => err == LibraryError::NotALibrary,
                8..12 => matches!(err, LibraryError::Version { .. }),
                12..20 => matches!(err, LibraryError::Stale { .. }),
                20..28 => matches!(err, LibraryError::Truncated { .. }),
                _ => matches!(err, LibraryError::Checksum { .. }),
            };
            assert!(ok, "byte {i}: {err}");
        }
        assert_eq!(
            load(&bytes[..HEADER_LEN - 1]).unwrap_err().to_string(),
            format!("truncated compiled rule library: {HEADER_LEN} bytes expected, 35 found")
        );
    }

    #[test]
    fn another_version_or_op_set_is_refused() {
        let mut bytes = set().to_compiled().unwrap();
        bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
        assert_eq!(
            load(&bytes).unwrap_err().to_string(),
            format!(
                "compiled rule library of format version {}, this build reads version \
                 {FORMAT_VERSION}: compile the rules again (`ptir-opt compile-rules`)",
                FORMAT_VERSION + 1
            )
        );
        let mut bytes = set().to_compiled().unwrap();
        bytes[12..20].copy_from_slice(&7u64.to_le_bytes());
        let err = load(&bytes).unwrap_err();
        assert!(matches!(err, LibraryError::Stale { found: 7, .. }), "{err}");
    }

    /// Payloads with a correct checksum that were not written by `to_compiled` (by hand, or
    /// by a buggy writer): decoded or refused, never a panic.
    #[test]
    fn payloads_behind_a_valid_checksum_are_checked() {
        let set = set();
        let library = |rules: Vec<Rule>| rules;
        let encode = |rules: &Vec<Rule>| encode(rules, Vec::new(), Vec::new(), Vec::new()).unwrap();
        // A loop pattern whose text is not two functions, or whose functions do not verify.
        for functions in [
            "func @a() -> () {\n  return\n}\n",
            "garbage",
            "func @p(%0: f32[2]) -> (f32[2]) {\n  %1 = neg %9 : f32[2]\n  return %1\n}\n\
             func @r(%0: f32[2]) -> (f32[2]) {\n  return %0\n}\n",
        ] {
            let patterns = vec![LoopRecord {
                name: "l".into(),
                doc: String::new(),
                location: Location::default(),
                dims: 0,
                params: Vec::new(),
                ignored: Vec::new(),
                functions: functions.into(),
            }];
            let bytes = super::encode(&[], Vec::new(), patterns, Vec::new()).unwrap();
            let err = load(&bytes).unwrap_err();
            assert!(err.to_string().contains("in a compiled library"), "{err}");
        }
        let mut rule = set.rule("neg-neg").unwrap().clone();
        rule.source.roots = vec![TermId(9)];
        let err = load(&encode(&library(vec![rule]))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.rules:3: in rule `neg-neg`: in a compiled library: source root 9 is not a term"
        );
        let mut rule = set.rule("one").unwrap().clone();
        rule.aux = vec![TermId(99)];
        let err = load(&encode(&library(vec![rule]))).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("auxiliary result 99 is not a term"),
            "{err}"
        );
        let mut rule = set.rule("lower").unwrap().clone();
        let Term::Native { func, .. } = &mut rule.result.terms[1] else {
            panic!("the result is a builder: {:?}", rule.result.terms)
        };
        *func = "no-such".into();
        let err = load(&encode(&library(vec![rule]))).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("no native builder `no-such` in the registry"),
            "{err}"
        );
        let mut rule = set.rule("tt").unwrap().clone();
        rule.constraints[0].pred = "no-such".into();
        let err = load(&encode(&library(vec![rule]))).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("no predicate `no-such` in the registry"),
            "{err}"
        );
        // A native call nested 100,000 deep.
        let mut rule = set.rule("tt").unwrap().clone();
        let mut deep = Attr::Var(Var("p".into()));
        for _ in 0..100_000 {
            deep = Attr::Call {
                func: "invert-perm".into(),
                args: vec![deep],
            };
        }
        rule.constraints[0].args[0] = deep;
        let deep_library = library(vec![rule]);
        let err = load(&encode(&deep_library)).unwrap_err();
        assert!(matches!(err, LibraryError::Decode(_)), "{err}");
        // (Taken apart by hand: dropping it would recurse 100,000 deep.)
        let mut rules = deep_library;
        let mut next = rules.pop().map(|mut r| r.constraints[0].args.remove(0));
        while let Some(Attr::Call { mut args, .. }) = next {
            next = args.pop();
        }
        // Random damage to a payload whose checksum is then made to match.
        let bytes = RuleSet::bundled().unwrap().to_compiled().unwrap();
        let payload = &bytes[HEADER_LEN..];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        for _ in 0..300 {
            let mut p = payload.to_vec();
            for _ in 0..rng.gen_range(1..4) {
                let i = rng.gen_range(0..p.len());
                p[i] = rng.gen();
            }
            let _ = load(&with_header(&p));
        }
    }
}
