//! The PTIR e-node language and its side tables.
//!
//! One e-node kind per op ([`PtirNode::Op`]), whose children are the operands, then the
//! attributes in the rule language's slot order (see `ptir_rules::attr_slots`), then the
//! regions of region ops. Attributes are leaf e-nodes ([`PtirNode::Attr`]) so rules bind and
//! test them like values (as in TENSAT); constants ([`PtirNode::Const`]) and region parameters
//! ([`PtirNode::Param`]) are leaves too, and a region body is a [`PtirNode::Region`] node whose
//! children are its results followed by its side effects.
//!
//! Heavy payloads (attribute values, types, literals) are interned in [`Tables`], which lives
//! in the e-graph's analysis, so that e-nodes are small and `Copy`-cheap to compare — egg
//! compares and sorts them constantly.
//!
//! Purity is in the node: a pure op has `token == 0` and is hash-consed (structurally equal
//! pure ops are one e-class: CSE for free); every impure op gets a unique token, so it is
//! never merged with anything and rules (whose patterns have token 0) never match it.

use egg::{Id, Language, Symbol};
use indexmap::IndexSet;
use ptir_ir::{
    ConvDims, DType, DotDims, FloatBits, GatherDims, IndexDims, Literal, OpKey, PadDims,
    ReduceWindowDims, TensorType, Type,
};
use ptir_rules::AttrValue;
use smallvec::SmallVec;
use std::fmt;

/// Index of an interned attribute value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AttrId(pub u32);

/// Index of an interned type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// Index of an interned constant (type and literal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstId(pub u32);

/// What an op e-node is, apart from its children.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpKind {
    /// The op kind.
    pub key: OpKey,
    /// The callee of a `call`.
    pub callee: Option<Symbol>,
    /// 0 for pure ops; a unique number for each impure op (never merged, never matched).
    pub token: u32,
    /// The result type, for ops whose type is not implied by their children (`call`, `rng`).
    pub ty: Option<TypeId>,
    /// When the e-node was made (not part of what it is: see [`Stamp`]).
    pub stamp: Stamp,
}

/// The saturation step in which an op e-node was added to the e-graph, for the semi-naive
/// search by match (`crate::matcher`). It rides along in the e-node but is no part of its
/// identity: every two stamps are equal, hash alike and sort alike, so egg's hash-consing and
/// node order ignore it. [`Stamp::UNSET`] until the analysis stamps the node's new class.
#[derive(Clone, Copy, Debug)]
pub struct Stamp(pub u32);

impl Stamp {
    /// Not stamped yet: newer than any step.
    pub const UNSET: Stamp = Stamp(u32::MAX);
}

impl PartialEq for Stamp {
    fn eq(&self, _: &Stamp) -> bool {
        true
    }
}

impl Eq for Stamp {}

impl PartialOrd for Stamp {
    fn partial_cmp(&self, other: &Stamp) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Stamp {
    fn cmp(&self, _: &Stamp) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

impl std::hash::Hash for Stamp {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl OpKind {
    /// A pure op of kind `key` whose type follows from its children: what rule patterns match.
    pub fn pure(key: OpKey) -> Self {
        OpKind {
            key,
            callee: None,
            token: 0,
            ty: None,
            stamp: Stamp::UNSET,
        }
    }
}

/// The children of an op e-node: inline up to three (a binary op with an attribute, a
/// `dot_general`), so that egg's hash-cons table compares an op without a pointer to follow.
pub type Children = SmallVec<[Id; 3]>;

/// An e-node.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PtirNode {
    /// Parameter `index` (numbered across the whole lowering) of a function or region.
    Param(u32, TypeId),
    /// An attribute value.
    Attr(AttrId),
    /// A constant.
    Const(ConstId),
    /// An op: children are operands, then attributes, then regions.
    Op(OpKind, Children),
    /// The body of block `scope`: children are its `n` results, then its side effects in
    /// order. The scope number keeps two blocks from ever being merged.
    Region(u32, u32, Children),
}

/// The part of an e-node that is not its children: what egg indexes and sorts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeHead {
    /// See [`PtirNode::Param`].
    Param(u32, TypeId),
    /// See [`PtirNode::Attr`].
    Attr(AttrId),
    /// See [`PtirNode::Const`].
    Const(ConstId),
    /// See [`PtirNode::Op`].
    Op(OpKind),
    /// See [`PtirNode::Region`].
    Region(u32, u32),
}

/// Cloned with the children copied at once (egg clones an e-node on every add; the derived
/// clone extends a `SmallVec` one id at a time).
impl Clone for PtirNode {
    fn clone(&self) -> Self {
        match self {
            PtirNode::Param(i, t) => PtirNode::Param(*i, *t),
            PtirNode::Attr(a) => PtirNode::Attr(*a),
            PtirNode::Const(c) => PtirNode::Const(*c),
            PtirNode::Op(kind, c) => PtirNode::Op(*kind, Children::from_slice(c)),
            PtirNode::Region(scope, n, c) => PtirNode::Region(*scope, *n, Children::from_slice(c)),
        }
    }
}

impl Language for PtirNode {
    type Discriminant = NodeHead;

    fn discriminant(&self) -> NodeHead {
        match self {
            PtirNode::Param(i, t) => NodeHead::Param(*i, *t),
            PtirNode::Attr(a) => NodeHead::Attr(*a),
            PtirNode::Const(c) => NodeHead::Const(*c),
            PtirNode::Op(k, _) => NodeHead::Op(*k),
            PtirNode::Region(s, n, _) => NodeHead::Region(*s, *n),
        }
    }

    fn matches(&self, other: &Self) -> bool {
        self.discriminant() == other.discriminant()
            && self.children().len() == other.children().len()
    }

    fn children(&self) -> &[Id] {
        match self {
            PtirNode::Op(_, c) | PtirNode::Region(_, _, c) => c,
            _ => &[],
        }
    }

    fn children_mut(&mut self) -> &mut [Id] {
        match self {
            PtirNode::Op(_, c) | PtirNode::Region(_, _, c) => c,
            _ => &mut [],
        }
    }
}

impl fmt::Display for PtirNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PtirNode::Param(i, _) => write!(f, "param{i}"),
            PtirNode::Attr(a) => write!(f, "attr{}", a.0),
            PtirNode::Const(c) => write!(f, "const{}", c.0),
            PtirNode::Op(k, _) => match (k.callee, k.token) {
                (Some(c), 0) => write!(f, "call@{c}"),
                (Some(c), t) => write!(f, "call@{c}!{t}"),
                (None, 0) => write!(f, "{}", k.key),
                (None, t) => write!(f, "{}!{t}", k.key),
            },
            PtirNode::Region(s, _, _) => write!(f, "block{s}"),
        }
    }
}

/// An attribute value with equality and hashing (numbers by bit pattern).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttrKey {
    /// See [`AttrValue::Ints`].
    Ints(Vec<usize>),
    /// See [`AttrValue::Int`].
    Int(usize),
    /// See [`AttrValue::Bool`].
    Bool(bool),
    /// See [`AttrValue::DType`].
    DType(DType),
    /// See [`AttrValue::Dims`].
    Dims(DotDims),
    /// See [`AttrValue::Number`].
    Number(FloatBits),
    /// See [`AttrValue::Conv`].
    Conv(Box<ConvDims>),
    /// See [`AttrValue::Window`].
    Window(Box<ReduceWindowDims>),
    /// See [`AttrValue::Pad`].
    Pad(Box<PadDims>),
    /// See [`AttrValue::Gather`].
    Gather(Box<GatherDims>),
    /// See [`AttrValue::Index`].
    Index(Box<IndexDims>),
}

impl From<&AttrValue> for AttrKey {
    fn from(a: &AttrValue) -> Self {
        match a {
            AttrValue::Ints(x) => AttrKey::Ints(x.clone()),
            AttrValue::Int(x) => AttrKey::Int(*x),
            AttrValue::Bool(x) => AttrKey::Bool(*x),
            AttrValue::DType(x) => AttrKey::DType(*x),
            AttrValue::Dims(x) => AttrKey::Dims(x.clone()),
            AttrValue::Number(x) => AttrKey::Number(FloatBits(*x)),
            AttrValue::Conv(x) => AttrKey::Conv(x.clone()),
            AttrValue::Window(x) => AttrKey::Window(x.clone()),
            AttrValue::Pad(x) => AttrKey::Pad(x.clone()),
            AttrValue::Gather(x) => AttrKey::Gather(x.clone()),
            AttrValue::Index(x) => AttrKey::Index(x.clone()),
        }
    }
}

impl From<&AttrKey> for AttrValue {
    fn from(a: &AttrKey) -> Self {
        match a {
            AttrKey::Ints(x) => AttrValue::Ints(x.clone()),
            AttrKey::Int(x) => AttrValue::Int(*x),
            AttrKey::Bool(x) => AttrValue::Bool(*x),
            AttrKey::DType(x) => AttrValue::DType(*x),
            AttrKey::Dims(x) => AttrValue::Dims(x.clone()),
            AttrKey::Number(x) => AttrValue::Number(x.0),
            AttrKey::Conv(x) => AttrValue::Conv(x.clone()),
            AttrKey::Window(x) => AttrValue::Window(x.clone()),
            AttrKey::Pad(x) => AttrValue::Pad(x.clone()),
            AttrKey::Gather(x) => AttrValue::Gather(x.clone()),
            AttrKey::Index(x) => AttrValue::Index(x.clone()),
        }
    }
}

/// Interned payloads of e-nodes.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    attrs: FxIndexSet<AttrKey>,
    types: FxIndexSet<Type>,
    consts: FxIndexSet<(TensorType, Literal)>,
}

/// An insertion-ordered set with a fast hash: ids are positions, so the order is the one of
/// interning whatever the hash.
type FxIndexSet<T> = IndexSet<T, rustc_hash::FxBuildHasher>;

impl Tables {
    /// Interns an attribute value.
    pub fn attr(&mut self, a: &AttrValue) -> AttrId {
        AttrId(self.attrs.insert_full(AttrKey::from(a)).0 as u32)
    }

    /// The id of an attribute value, if it was interned.
    pub fn lookup_attr(&self, a: &AttrValue) -> Option<AttrId> {
        self.attrs
            .get_index_of(&AttrKey::from(a))
            .map(|i| AttrId(i as u32))
    }

    /// Interns a type.
    pub fn ty(&mut self, t: &Type) -> TypeId {
        match self.types.get_index_of(t) {
            Some(i) => TypeId(i as u32),
            None => TypeId(self.types.insert_full(t.clone()).0 as u32),
        }
    }

    /// Interns a constant. A dense literal whose elements are all equal is interned as the
    /// splat of that element, so that one value has one constant e-node however the program
    /// spelled it (`dense([-0.75])` and `splat(-0.75)` of type `f64[]` are one e-class, and
    /// `select(p, c, c)` or `x - x` see it).
    pub fn constant(&mut self, ty: &TensorType, lit: &Literal) -> ConstId {
        let lit = match lit.splat_value() {
            Some(s) => Literal::Splat(s),
            None => lit.clone(),
        };
        ConstId(self.consts.insert_full((ty.clone(), lit)).0 as u32)
    }

    /// The attribute value of an id from this table.
    pub fn attr_value(&self, a: AttrId) -> Option<AttrValue> {
        self.attrs.get_index(a.0 as usize).map(AttrValue::from)
    }

    /// The type of an id from this table.
    pub fn type_of(&self, t: TypeId) -> Option<&Type> {
        self.types.get_index(t.0 as usize)
    }

    /// The constant of an id from this table.
    pub fn const_of(&self, c: ConstId) -> Option<&(TensorType, Literal)> {
        self.consts.get_index(c.0 as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_order_like_nodes() {
        // egg finds matching nodes by binary search on the node order, so nodes with one head
        // must be contiguous: the head must be a prefix of the order.
        let k = OpKind::pure;
        let mut nodes = [
            PtirNode::Op(k(OpKey::Select), smallvec::smallvec![Id::from(3usize)]),
            PtirNode::Op(k(OpKey::Tuple), smallvec::smallvec![Id::from(1usize)]),
            PtirNode::Op(k(OpKey::Select), smallvec::smallvec![Id::from(0usize)]),
            PtirNode::Attr(AttrId(2)),
        ];
        nodes.sort();
        let heads: Vec<NodeHead> = nodes.iter().map(|n| n.discriminant()).collect();
        let mut sorted = heads.clone();
        sorted.sort();
        assert_eq!(heads, sorted);
    }

    #[test]
    fn interning_is_stable() {
        let mut t = Tables::default();
        let a = t.attr(&AttrValue::Number(-0.0));
        let b = t.attr(&AttrValue::Number(0.0));
        assert_ne!(a, b);
        assert_eq!(t.attr(&AttrValue::Number(-0.0)), a);
        assert_eq!(t.attr_value(a), Some(AttrValue::Number(-0.0)));
    }
}
