//! The e-class analysis: the type of every class, the attribute value of attribute classes,
//! and constant folding.
//!
//! Types are checked on merge: two classes of different types are never equal, so such a
//! merge is a bug in a rule. Appliers check before they union and report the rule by name
//! ([`crate::rules`]); [`PtirAnalysis::type_errors`] is the backstop for anything else.
//!
//! Constant folding evaluates an op whose operands are all constants with the interpreter's own
//! kernels (`ptir_ir::eval_op`), so a folded value is exactly what the interpreter would
//! compute; the constant joins the class as a [`PtirNode::Const`] leaf. Operands and results
//! larger than [`FOLD_ELEMENT_LIMIT`] elements are not expanded (they would bloat the e-graph),
//! a dense result larger than the dense operands is not kept ([`ptir_ir::dense_fold_fits`]:
//! a broadcast of a table stays computed, as in the greedy driver), `iota` is never folded,
//! and nothing that fails to evaluate (an integer division by zero) is folded.
//!
//! Splats are known whatever their size ([`ClassData::splat`]): a splat constant, and an
//! elementwise or data-movement op of splat operands, whose one element the scalar kernels
//! compute once (the greedy driver's splat folds, `ptir_greedy::fold`). Rules match `(splat N)`
//! by it, so `x * 1` on a tensor of a million elements is matched as on a small one.

use crate::language::{OpKind, PtirNode, Stamp, Tables, TypeId};
use egg::{DidMerge, EGraph, Id, Symbol};
use ptir_ir::{
    binary_scalar, bitcast_scalar, cast_scalar, compare_scalar, dense_fold_fits, eval_op,
    unary_scalar, Literal, Op, OpKey, Scalar, Tensor, Type, Value,
};
use ptir_rules::{attr_slots, make_op, make_untyped_op, AttrValue};
use smallvec::SmallVec;

use ptir_ir::FOLD_ELEMENT_LIMIT;

/// The PTIR e-graph.
pub type PtirEGraph = EGraph<PtirNode, PtirAnalysis>;

/// Analysis state: the interned payloads of e-nodes and merge errors.
#[derive(Clone, Debug, Default)]
pub struct PtirAnalysis {
    /// Interned attribute values, types and constants.
    pub tables: Tables,
    /// Merges of classes with different types (rule bugs); empty in a healthy run.
    pub type_errors: Vec<String>,
    /// Classes that are new, took part in a union or whose data changed, since the
    /// saturation loop last drained the list (egg calls [`egg::Analysis::modify`] for
    /// exactly these): the changes its semi-naive search starts from. May repeat ids and
    /// hold ids no longer canonical.
    pub touched: Vec<Id>,
    /// Per class id: the last saturation step ([`Self::now`]) in which the class changed in a
    /// way that makes new matches pass through it below a pattern's root: its analysis data
    /// changed, or it absorbed a class that had parents (whose e-nodes now see its e-nodes);
    /// 0 if never since the stamps were cleared. New e-nodes are stamped themselves
    /// ([`crate::language::Stamp`]). Read by the semi-naive search by match
    /// (`crate::matcher`, which says why this is enough).
    pub class_stamps: Vec<u32>,
    /// The step that changes are stamped with now.
    pub now: u32,
    /// Constant leaves added to classes whose value became known (the analysis's folds), since
    /// the e-graph was made: e-graph growth that no rule application accounts for.
    pub folds: usize,
    /// Unions performed (of two different classes), since the e-graph was made.
    pub unions: usize,
    /// Merges of two classes known to hold different constants: the e-graph equates different
    /// values (a fast-math rule's reassociation rounds differently, or a rule is wrong). The
    /// class keeps the first value, so what folds from it depends on the order of unions.
    pub contradictions: usize,
    /// The classes of the union egg is performing, between [`egg::Analysis::pre_union`] and
    /// the [`egg::Analysis::modify`] that ends it.
    union: UnionSlot,
    /// Whether the last [`egg::Analysis::merge`] changed the data it merged into.
    merge_changed: bool,
    /// The result type of an op of a kind on operands of given types and given attribute
    /// classes (`None`: ill-typed), for the ops [`type_key`] accepts: a new e-node is typed
    /// by a hash probe rather than by building its PTIR op and inferring.
    types: rustc_hash::FxHashMap<(OpKind, SmallVec<[u32; 4]>), Option<TypeId>>,
    /// What the applications of rules with `single-use` constraints ask of extraction
    /// (`crate::single_use`).
    pub single_use: Vec<Guard>,
    /// With explanations on (`--explain`), which rule application added which e-nodes
    /// (`crate::explain`); `None` otherwise.
    pub created: Option<Vec<Creation>>,
}

/// Two canonical classes about to be merged: each one's id, number of e-nodes and number of
/// parents (egg keeps the one with more parents).
#[derive(Clone, Copy, Debug)]
struct PendingUnion([(Id, usize, usize); 2]);

/// Where [`egg::Analysis::pre_union`], which sees the analysis only through a shared
/// reference, leaves the [`PendingUnion`] for [`egg::Analysis::modify`]. A mutex rather than a
/// cell so that the e-graph is `Sync`: the saturation loop searches it from several threads.
#[derive(Debug, Default)]
struct UnionSlot(std::sync::Mutex<Option<PendingUnion>>);

impl UnionSlot {
    fn set(&self, union: Option<PendingUnion>) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = union;
    }

    fn take(&mut self) -> Option<PendingUnion> {
        (self
            .0
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner))
        .take()
    }
}

impl Clone for UnionSlot {
    fn clone(&self) -> Self {
        let union = *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        UnionSlot(std::sync::Mutex::new(union))
    }
}

/// What the analysis knows of a class.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassData {
    /// The type of the values of the class (`None` for attribute classes).
    pub ty: Option<Type>,
    /// The attribute, for attribute classes.
    pub attr: Option<Box<AttrValue>>,
    /// The value, when every member is a known constant of at most [`FOLD_ELEMENT_LIMIT`]
    /// elements.
    pub constant: Option<Box<Tensor>>,
    /// The one element of every member, when the class is a splat constant (any size).
    pub splat: Option<Scalar>,
    /// [`Self::ty`] interned in the analysis's tables.
    pub ty_id: Option<TypeId>,
}

/// How an op e-node's children divide into operands, attributes and regions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Leading operand children.
    pub operands: usize,
    /// Attribute children after them.
    pub attrs: usize,
    /// Region children last.
    pub regions: usize,
}

/// The layout of an op of kind `key` with `n` children.
pub fn layout(key: OpKey, n: usize) -> Layout {
    let (attrs, regions) = match key {
        OpKey::Cond | OpKey::While => (0, 2),
        OpKey::Scan => (2, 1),
        OpKey::Rng | OpKey::RngBitGenerator | OpKey::Iota => (1, 0),
        _ => (attr_slots(key).map_or(0, |(_, s)| s.len()), 0),
    };
    Layout {
        operands: n.saturating_sub(attrs + regions),
        attrs,
        regions,
    }
}

/// The type read for a class that has none (an attribute, a region): an empty tuple.
pub(crate) static UNTYPED: Type = Type::Tuple(Vec::new());

/// [`node_op`] for an e-node of the e-graph: where the analysis typed its kind over these
/// operand types before (the memo of [`PtirAnalysis::make`]), its type is read, not inferred
/// again (extraction prices every e-node). The type is borrowed where read.
pub(crate) fn typed_node_op<'e>(
    egraph: &'e PtirEGraph,
    kind: &OpKind,
    children: &[Id],
) -> Result<(Op, std::borrow::Cow<'e, Type>), String> {
    let known = type_key(egraph, kind, children)
        .and_then(|k| egraph.analysis.types.get(&k).copied().flatten())
        .and_then(|t| egraph.analysis.tables.type_of(t));
    // What the short way cannot build takes the long way: `make_untyped_op` refuses the
    // kinds `node_op` builds itself (rng, iota, region ops...).
    let built = known.and_then(|ty| {
        let l = layout(kind.key, children.len());
        let attrs = attributes(egraph, &children[l.operands..l.operands + l.attrs]).ok()?;
        let refs = operand_types(egraph, &children[..l.operands]).ok()?;
        let callee = kind.callee.map(|s| s.to_string());
        let (op, _) = make_untyped_op(kind.key, callee.as_deref(), &attrs, &refs, None).ok()?;
        Some((op, std::borrow::Cow::Borrowed(ty)))
    });
    match built {
        Some(built) => Ok(built),
        None => node_op(egraph, kind, children).map(|(op, ty)| (op, std::borrow::Cow::Owned(ty))),
    }
}

/// The types of the operand classes `operands`, borrowed from their classes and pushed into
/// one buffer (this runs for every e-node added and priced); an error if one has no type.
pub(crate) fn operand_types<'e>(
    egraph: &'e PtirEGraph,
    operands: &[Id],
) -> Result<SmallVec<[&'e Type; 4]>, String> {
    let mut types = SmallVec::new();
    for c in operands {
        let ty = egraph[*c].data.ty.as_ref();
        types.push(ty.ok_or_else(|| "an operand has no type".to_string())?);
    }
    Ok(types)
}

/// The attribute values of attribute children, borrowed from their classes.
fn attributes<'e>(
    egraph: &'e PtirEGraph,
    children: &[Id],
) -> Result<SmallVec<[&'e AttrValue; 4]>, String> {
    let mut attrs = SmallVec::new();
    for c in children {
        let attr = egraph[*c].data.attr.as_deref();
        attrs.push(attr.ok_or_else(|| "an attribute child is not an attribute".to_string())?);
    }
    Ok(attrs)
}

/// Rebuilds the PTIR op of an op e-node (attributes from the attribute children) and its
/// result type. Region ops come back with empty regions (lifting fills them in).
pub fn node_op(egraph: &PtirEGraph, kind: &OpKind, children: &[Id]) -> Result<(Op, Type), String> {
    let l = layout(kind.key, children.len());
    // Attributes and operand types are borrowed from the classes: this runs for every node
    // added to the e-graph.
    let attrs = attributes(egraph, &children[l.operands..l.operands + l.attrs])?;
    let annotated = kind
        .ty
        .and_then(|t| egraph.analysis.tables.type_of(t))
        .cloned();
    if matches!(kind.key, OpKey::Cond | OpKey::While | OpKey::Scan) {
        return region_op(kind.key, &attrs, annotated);
    }
    let refs = operand_types(egraph, &children[..l.operands])?;
    let callee = kind.callee.map(|s| s.to_string());
    match (kind.key, &attrs[..]) {
        (OpKey::Rng, _) => {
            let ty = annotated.ok_or("rng needs its type")?;
            let dist = rng_dist(&attrs);
            return Ok((Op::Rng { dist }, ty));
        }
        (OpKey::RngBitGenerator, [AttrValue::Int(i)]) => {
            let ty = annotated.ok_or("rng_bit_generator needs its type")?;
            let algorithm = *ptir_ir::RngAlgorithm::ALL
                .get(*i)
                .ok_or("malformed `rng_bit_generator` node")?;
            return Ok((Op::RngBitGenerator { algorithm }, ty));
        }
        (OpKey::RngBitGenerator, _) => return Err("malformed `rng_bit_generator` node".into()),
        (OpKey::BitcastResize, []) => {
            let ty = annotated.ok_or("bitcast_resize needs its type")?;
            return Ok((Op::BitcastResize, ty));
        }
        (OpKey::Iota, [AttrValue::Int(dim)]) => {
            let ty = annotated.ok_or("iota needs its type")?;
            return Ok((Op::Iota { dim: *dim }, ty));
        }
        (OpKey::Iota, _) => return Err("malformed `iota` node".into()),
        _ => {}
    }
    make_op(
        kind.key,
        callee.as_deref(),
        &attrs,
        &refs,
        annotated.as_ref(),
    )
}

fn rng_dist(attrs: &[&AttrValue]) -> ptir_ir::RngDist {
    match attrs.first() {
        Some(AttrValue::Int(1)) => ptir_ir::RngDist::Normal,
        _ => ptir_ir::RngDist::Uniform,
    }
}

fn region_op(key: OpKey, attrs: &[&AttrValue], ty: Option<Type>) -> Result<(Op, Type), String> {
    let ty = ty.ok_or("region ops carry their type")?;
    let op = match (key, attrs) {
        (OpKey::Cond, _) => Op::Cond {
            then_region: Default::default(),
            else_region: Default::default(),
        },
        (OpKey::While, _) => Op::While {
            cond: Default::default(),
            body: Default::default(),
        },
        (OpKey::Scan, [AttrValue::Int(num_carry), AttrValue::Int(length)]) => Op::Scan {
            num_carry: *num_carry,
            length: *length,
            body: Default::default(),
        },
        _ => return Err(format!("malformed `{key}` node")),
    };
    Ok((op, ty))
}

impl PtirAnalysis {
    fn fold(
        egraph: &PtirEGraph,
        kind: &OpKind,
        children: &[Id],
        op: &Op,
        ty: &Type,
    ) -> Option<Tensor> {
        // An iota is never folded (see `Op::Iota`): what is computed from it stays computed;
        // nor is a barrier, which is there so that nothing is seen through it.
        let foldable = kind.token == 0
            && kind.key.is_pure_kind()
            && !matches!(
                kind.key,
                OpKey::Tuple | OpKey::Iota | OpKey::OptimizationBarrier
            );
        let small = ty
            .as_tensor()
            .is_some_and(|t| t.num_elements() <= FOLD_ELEMENT_LIMIT);
        if !foldable || !small {
            return None;
        }
        let l = layout(kind.key, children.len());
        let values: Vec<Value> = children[..l.operands]
            .iter()
            .map(|c| {
                egraph[*c]
                    .data
                    .constant
                    .as_deref()
                    .cloned()
                    .map(Value::Tensor)
            })
            .collect::<Option<_>>()?;
        let dense_elements = children[..l.operands]
            .iter()
            .filter(|c| egraph[**c].data.splat.is_none())
            .filter_map(|c| Some(egraph[*c].data.constant.as_ref()?.data.len()))
            .sum();
        let refs: Vec<&Value> = values.iter().collect();
        match eval_op(op, &refs, ty) {
            Ok(Value::Tensor(t))
                if splat_of(&t).is_some() || dense_fold_fits(t.data.len(), dense_elements) =>
            {
                Some(t)
            }
            _ => None,
        }
    }

    /// The element of an elementwise or data-movement op of splat operands, computed once by
    /// the scalar kernels (whatever the size; the ops and kernels of the greedy driver's splat
    /// folds). `None` for other ops, a non-splat operand, or an element that fails (integer
    /// division by zero).
    fn fold_splat(egraph: &PtirEGraph, kind: &OpKind, children: &[Id], op: &Op) -> Option<Scalar> {
        if kind.token != 0 || !kind.key.is_pure_kind() {
            return None;
        }
        let l = layout(kind.key, children.len());
        let operands = &children[..l.operands];
        let s: Vec<Scalar> = operands
            .iter()
            .map(|c| egraph[*c].data.splat)
            .collect::<Option<_>>()?;
        let dtype = |c: &Id| egraph[*c].data.ty.as_ref()?.as_tensor().map(|t| t.dtype);
        let d = dtype(operands.first()?)?;
        match (op, &s[..]) {
            (Op::Unary(u), [x]) => unary_scalar(*u, d, *x).ok(),
            (Op::Binary(b), [x, y]) => binary_scalar(*b, d, *x, *y).ok(),
            (Op::Compare(c), [x, y]) => compare_scalar(*c, d, *x, *y).ok().map(Scalar::Bool),
            (Op::Select, [Scalar::Bool(p), t, f]) => Some(if *p { *t } else { *f }),
            (Op::Cast | Op::Bitcast, _) => None, // needs the result dtype: see `make`
            (
                Op::Reshape
                | Op::Transpose { .. }
                | Op::Broadcast { .. }
                | Op::Slice(_)
                | Op::Reverse { .. },
                [x],
            ) => Some(*x),
            (Op::Concat { .. }, [x, rest @ ..]) if rest.iter().all(|y| y == x) => Some(*x),
            _ => None,
        }
    }
}

/// The element of a tensor whose elements are all equal.
fn splat_of(t: &Tensor) -> Option<Scalar> {
    let first = t.data.iter().next()?;
    t.data.iter().all(|s| s == first).then_some(first)
}

/// The key of [`PtirAnalysis::types`] for an op e-node, if its type may be looked up there:
/// a pure op, not a region op, whose first operand is neither a constant nor a splat (then
/// neither folding nor the splat rules apply: each needs that operand known), every operand
/// typed. The key is the kind, the operands' interned types and the attribute classes.
fn type_key(
    egraph: &PtirEGraph,
    kind: &OpKind,
    children: &[Id],
) -> Option<(OpKind, SmallVec<[u32; 4]>)> {
    if kind.token != 0 || matches!(kind.key, OpKey::Cond | OpKey::While | OpKey::Scan) {
        return None;
    }
    let l = layout(kind.key, children.len());
    let first = &egraph[*children.first()?].data;
    if l.operands == 0 || first.constant.is_some() || first.splat.is_some() {
        return None;
    }
    // Pushed, not collected through an `Option`: this runs for every node added and priced.
    let mut key = SmallVec::new();
    for (k, &c) in children.iter().enumerate() {
        key.push(match k < l.operands {
            true => egraph[c].data.ty_id?.0,
            false => u32::try_from(usize::from(c)).ok()?,
        });
    }
    Some((*kind, key))
}

/// Stamps what changed in class `id`, which egg has just made, merged or re-analysed, for
/// the semi-naive search by match (see [`PtirAnalysis::class_stamps`]).
fn stamp(egraph: &mut PtirEGraph, id: Id) {
    let now = egraph.analysis.now;
    let union = egraph.analysis.union.take();
    if union.is_some() {
        egraph.analysis.unions += 1;
    }
    let merged = union.and_then(|PendingUnion(sides)| {
        let root = sides.iter().position(|s| s.0 == id)?;
        Some((sides[root], sides[1 - root]))
    });
    let class_changed = match merged {
        // A union, `id` the class kept.
        Some(((_, root_nodes, root_parents), (_, absorbed_nodes, absorbed_parents))) => {
            if absorbed_parents == 0 && root_parents > 0 {
                // The absorbed nodes were below no pattern root before, and are now below
                // the kept class's parents: new to those matches, as if just added. egg
                // appends the shorter list of nodes to the longer (`concat_vecs`).
                let moved = if root_nodes < absorbed_nodes {
                    0..absorbed_nodes
                } else {
                    root_nodes..root_nodes + absorbed_nodes
                };
                let nodes = &mut egraph[id].nodes;
                for node in nodes.get_mut(moved).unwrap_or_default() {
                    if let PtirNode::Op(kind, _) = node {
                        kind.stamp = Stamp(now);
                    }
                }
            }
            absorbed_parents > 0 || egraph.analysis.merge_changed
        }
        // A new class has one new node; anything else is new analysis data.
        None => match &mut egraph[id].nodes[..] {
            [PtirNode::Op(kind, _)] if kind.stamp.0 == Stamp::UNSET.0 => {
                kind.stamp = Stamp(now);
                false
            }
            _ => true,
        },
    };
    if class_changed {
        let stamps = &mut egraph.analysis.class_stamps;
        let at = usize::from(id);
        if at >= stamps.len() {
            stamps.resize(at + 1, 0);
        }
        stamps[at] = now;
    }
}

impl egg::Analysis<PtirNode> for PtirAnalysis {
    type Data = ClassData;

    fn make(egraph: &mut PtirEGraph, enode: &PtirNode, _id: Id) -> ClassData {
        let tables = &egraph.analysis.tables;
        let mut data = ClassData {
            ty: None,
            attr: None,
            constant: None,
            splat: None,
            ty_id: None,
        };
        match enode {
            PtirNode::Param(_, t) => data.ty = tables.type_of(*t).cloned(),
            PtirNode::Attr(a) => data.attr = tables.attr_value(*a).map(Box::new),
            PtirNode::Const(c) => {
                if let Some((tt, lit)) = tables.const_of(*c) {
                    data.ty = Some(tt.clone().into());
                    data.constant = (tt.num_elements() <= FOLD_ELEMENT_LIMIT)
                        .then(|| Box::new(lit.to_tensor(tt)));
                    data.splat = lit.splat_value();
                }
            }
            PtirNode::Region(_, n, children) => {
                let results = children.iter().take(*n as usize);
                data.ty = results
                    .map(|c| egraph[*c].data.ty.clone())
                    .collect::<Option<Vec<_>>>()
                    .map(Type::Tuple);
            }
            PtirNode::Op(kind, children) => {
                let key = type_key(egraph, kind, children);
                if let Some(known) = key.as_ref().and_then(|k| egraph.analysis.types.get(k)) {
                    // Nothing to fold either: see `type_key`.
                    data.ty_id = *known;
                    data.ty = known.and_then(|t| egraph.analysis.tables.type_of(t).cloned());
                    return data;
                }
                let typed = node_op(egraph, kind, children);
                if let Some(key) = key {
                    let ty = typed
                        .as_ref()
                        .ok()
                        .map(|(_, ty)| egraph.analysis.tables.ty(ty));
                    egraph.analysis.types.insert(key, ty);
                }
                if let Ok((op, ty)) = typed {
                    data.constant = Self::fold(egraph, kind, children, &op, &ty).map(Box::new);
                    data.splat = match (&data.constant, &op) {
                        (Some(t), _) => splat_of(t),
                        (None, Op::Cast | Op::Bitcast) => {
                            let to = ty.as_tensor().map(|t| t.dtype);
                            let child = children.first().map(|c| &egraph[*c].data);
                            let from = child
                                .and_then(|d| d.ty.as_ref())
                                .and_then(|t| t.as_tensor())
                                .map(|t| t.dtype);
                            match (child.and_then(|d| d.splat), from, to) {
                                (Some(x), Some(from), Some(to)) if op == Op::Cast => {
                                    Some(cast_scalar(x, from, to))
                                }
                                (Some(x), Some(from), Some(to)) => bitcast_scalar(x, from, to).ok(),
                                _ => None,
                            }
                        }
                        (None, _) => Self::fold_splat(egraph, kind, children, &op),
                    };
                    data.ty = Some(ty);
                }
            }
        }
        data.ty_id = data.ty.as_ref().map(|t| egraph.analysis.tables.ty(t));
        data
    }

    fn merge(&mut self, a: &mut ClassData, b: ClassData) -> DidMerge {
        if a.ty != b.ty {
            self.type_errors.push(format!(
                "merged a class of type {} with one of type {}",
                a.ty.as_ref().map_or("?".into(), Type::to_string),
                b.ty.as_ref().map_or("?".into(), Type::to_string)
            ));
        }
        let mut changed_a = false;
        let differ =
            |x: &Option<Box<Tensor>>, y: &Option<Box<Tensor>>| x.is_some() && y.is_some() && x != y;
        if differ(&a.constant, &b.constant)
            || (a.splat.is_some() && b.splat.is_some() && a.splat != b.splat)
        {
            self.contradictions += 1;
        }
        if a.constant.is_none() && b.constant.is_some() {
            a.constant = b.constant.clone();
            changed_a = true;
        }
        if a.splat.is_none() && b.splat.is_some() {
            a.splat = b.splat;
            changed_a = true;
        }
        let b_differs = (b.constant.is_none() && a.constant.is_some())
            || (b.splat.is_none() && a.splat.is_some());
        self.merge_changed = changed_a;
        DidMerge(changed_a, b_differs)
    }

    fn pre_union(
        egraph: &PtirEGraph,
        id1: Id,
        id2: Id,
        _justification: &Option<egg::Justification>,
    ) {
        let (a, b) = (egraph.find(id1), egraph.find(id2));
        let side = |id: Id| (id, egraph[id].nodes.len(), egraph[id].parents().len());
        let union = (a != b).then(|| PendingUnion([side(a), side(b)]));
        egraph.analysis.union.set(union);
    }

    fn modify(egraph: &mut PtirEGraph, id: Id) {
        egraph.analysis.touched.push(id);
        stamp(egraph, id);
        if add_constant_leaf(egraph, id) {
            prune_to_leaves(egraph, id);
        }
    }
}

/// Gives class `id` its constant leaf if its value is known (a splat, or a constant of at most
/// [`FOLD_ELEMENT_LIMIT`] elements). Returns whether the value is known.
fn add_constant_leaf(egraph: &mut PtirEGraph, id: Id) -> bool {
    // Look at the data first: scanning the nodes of every class a union touches would
    // be quadratic in the size of large classes.
    let class = &egraph[id];
    let (ty, splat, dense) = match (&class.data.splat, &class.data.constant, &class.data.ty) {
        (Some(s), _, Some(Type::Tensor(ty))) => (ty, Some(*s), None),
        (None, Some(t), _) => (&t.ty, None, Some(&t.data)),
        _ => return false,
    };
    if class.nodes.iter().any(|n| matches!(n, PtirNode::Const(_))) {
        return true;
    }
    let lit = match (splat, dense) {
        (Some(s), _) => Literal::Splat(s),
        (None, Some(data)) => Literal::Dense(data.clone()),
        (None, None) => return false,
    };
    let ty = ty.clone();
    let c = egraph.analysis.tables.constant(&ty, &lit);
    let before = egraph.nodes().len();
    let leaf = egraph.add(PtirNode::Const(c));
    egraph.analysis.folds += 1;
    if egraph.are_explanations_enabled() {
        // The step explanations name (egg's `union` would name this line), and the
        // constant's e-node exists because the class folded.
        let fold = egg::Symbol::from(ptir_pass::explain::FOLD_STEP);
        record_creation(egraph, before, Root::Class(id), fold);
        egraph.union_trusted(id, leaf, fold);
    } else {
        egraph.union(id, leaf);
    }
    true
}

/// Drops the pure op e-nodes of a class whose value is known, keeping its constant leaf (egg's
/// own constant-folding example prunes so). Extraction would pick the leaf anyway, and what
/// the pruned e-nodes would let rules do is enumerate arithmetic on constants: `0 = 0 + 0`
/// seen by distributivity, `mul(2, add(1, 1))` by associativity, each new sum a new constant
/// class that the next iteration combines again, until a limit stops saturation. egg keeps
/// the pruned e-nodes in its hash-cons table, so a rule that builds one again finds the class
/// and adds nothing. Effectful e-nodes (a token) and calls stay: they are the program's.
fn prune_to_leaves(egraph: &mut PtirEGraph, id: Id) {
    let id = egraph.find(id);
    let prunable =
        |n: &PtirNode| matches!(n, PtirNode::Op(k, _) if k.token == 0 && k.key.is_pure_kind());
    if egraph[id].nodes.iter().any(prunable) {
        egraph[id].nodes.retain(|n| !prunable(n));
    }
}

/// For `--explain` (`crate::explain` reads them back): where a rule application was applied: the root's own e-node (children the classes of the
/// match), or, when the rule's root is no op (the analysis's folding), the class.
#[derive(Clone, Debug)]
pub enum Root {
    /// The matched root e-node.
    Node(PtirNode),
    /// A class (its leader e-node stands for it).
    Class(Id),
}

/// E-nodes one application added: uncanonical ids `start..end`, made by `rule` at `root`.
#[derive(Clone, Debug)]
pub struct Creation {
    pub(crate) start: u32,
    pub(crate) end: u32,
    pub(crate) root: Root,
    pub(crate) rule: Symbol,
}

/// Records the e-nodes added since there were `before`, by `rule` applied at `root`, if
/// explanations are on.
pub(crate) fn record_creation(egraph: &mut PtirEGraph, before: usize, root: Root, rule: Symbol) {
    let end = egraph.nodes().len();
    if end > before {
        if let Some(log) = egraph.analysis.created.as_mut() {
            log.push(Creation {
                start: before as u32,
                end: end as u32,
                root,
                rule,
            });
        }
    }
}

/// What one application of a rule with `single-use` constraints asks of extraction
/// (`crate::single_use` reads them back).
#[derive(Clone, Debug)]
pub struct Guard {
    /// Per root: its class and the e-node the rule's replacement built there.
    pub fused: SmallVec<[(Id, PtirNode); 1]>,
    /// Per single-use value: its class and the classes of its users inside the matched
    /// pattern (at most one: two users in the pattern already break the constraint).
    pub values: Watched,
}

/// The single-use values of a [`Guard`]: each one's class and its users inside the match.
pub type Watched = SmallVec<[(Id, SmallVec<[Id; 1]>); 1]>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::saturate::{saturate, SaturationOptions};
    use ptir_ir::generate::{generate, matrix_chain, GenConfig};

    /// egg keeps a class's data in its table of classes, and e-nodes in its hash-cons table
    /// and the classes' lists, all probed and moved constantly: what only attribute and
    /// constant classes hold is boxed (the data was 216 bytes with it inline).
    #[test]
    fn e_nodes_and_class_data_stay_small() {
        assert!(std::mem::size_of::<ClassData>() <= 72);
        assert!(std::mem::size_of::<PtirNode>() <= 48);
    }

    /// Every op e-node of saturated generated programs, typed afresh, has the type its class
    /// got, most of them through the cache of types; extraction's [`typed_node_op`] builds
    /// the op and type [`node_op`] does.
    #[test]
    fn types_from_the_cache_are_those_inferred() {
        let rules = ptir_rules::RuleSet::bundled().unwrap();
        let mut programs: Vec<_> = (0..24)
            .map(|seed| generate(&GenConfig::extended(seed, 30, vec![])))
            .collect();
        programs.push(matrix_chain(8, 2).unwrap().0);
        let (mut checked, mut cached) = (0, 0);
        for program in &programs {
            for f in &program.functions {
                let Ok(mut lowered) = crate::lower(program, &f.name) else {
                    continue;
                };
                saturate(&mut lowered, &rules, &SaturationOptions::default());
                let egraph = &lowered.egraph;
                for class in egraph.classes() {
                    for node in &class.nodes {
                        let PtirNode::Op(kind, children) = node else {
                            continue;
                        };
                        let built = node_op(egraph, kind, children).ok();
                        // Extraction's short way builds what the long way does.
                        let typed = typed_node_op(egraph, kind, children).ok();
                        let typed = typed.map(|(op, ty)| (op, ty.into_owned()));
                        assert_eq!(typed, built, "{node:?} in @{}", f.name);
                        let inferred = built.map(|(_, ty)| ty);
                        if let Some(key) = type_key(egraph, kind, children) {
                            if let Some(known) = egraph.analysis.types.get(&key) {
                                let tables = &egraph.analysis.tables;
                                let known = known.and_then(|t| tables.type_of(t).cloned());
                                assert_eq!(known, inferred, "{node:?} in @{}", f.name);
                                cached += 1;
                            }
                        }
                        if inferred.is_some() {
                            assert_eq!(class.data.ty, inferred, "{node:?} in @{}", f.name);
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(
            checked > 800 && cached > 300,
            "{checked} checked, {cached} cached"
        );
    }
}
