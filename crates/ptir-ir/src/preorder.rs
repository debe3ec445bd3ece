//! Trees written as their nodes in pre-order, and read back without recursion.
//!
//! Serialized data is read with serde, whose derived code recurses once per level of a
//! recursive type: a tuple type nested 100,000 deep in a corrupt file would overflow the
//! stack. So recursive types ([`crate::Type`], the rule language's attribute expressions) are
//! serialized as a flat list of nodes in pre-order, each inner node saying how many children
//! follow, and rebuilt here with an explicit stack and a depth limit.

/// One node of a tree in pre-order: a leaf, or an inner node whose `arity` children (each with
/// its own nodes) come next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreOrder<L, I> {
    /// A leaf.
    Leaf(L),
    /// An inner node: its own data, and how many children follow.
    Inner(I, usize),
}

/// Why pre-order nodes do not form one tree.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PreOrderError {
    /// The nodes end before the last inner node has all its children.
    #[error("the nodes end before the tree does")]
    Truncated,
    /// Nodes follow the end of the tree.
    #[error("nodes after the end of the tree")]
    Trailing,
    /// Inner nodes are nested deeper than allowed.
    #[error("nested deeper than {0} levels")]
    TooDeep(usize),
}

/// Rebuilds the tree of `nodes` (see [`PreOrder`]): `leaf` makes a tree of a leaf, `inner`
/// makes an inner node of its data and children (in order). At most `depth_limit` inner nodes
/// may be open at once.
///
/// ```
/// use ptir_ir::preorder::{from_preorder, PreOrder};
/// #[derive(Debug, PartialEq)]
/// enum T { N(u8), List(Vec<T>) }
/// let nodes = [PreOrder::Inner((), 2), PreOrder::Leaf(1), PreOrder::Inner((), 0)];
/// let t = from_preorder(nodes, T::N, |(), kids| T::List(kids), 10).unwrap();
/// assert_eq!(t, T::List(vec![T::N(1), T::List(vec![])]));
/// ```
pub fn from_preorder<L, I, T>(
    nodes: impl IntoIterator<Item = PreOrder<L, I>>,
    leaf: impl Fn(L) -> T,
    inner: impl Fn(I, Vec<T>) -> T,
    depth_limit: usize,
) -> Result<T, PreOrderError> {
    // Open inner nodes: their data, how many children they take, the children so far.
    let mut open: Vec<(I, usize, Vec<T>)> = Vec::new();
    let mut nodes = nodes.into_iter();
    loop {
        let mut done = match nodes.next().ok_or(PreOrderError::Truncated)? {
            PreOrder::Leaf(l) => leaf(l),
            PreOrder::Inner(data, 0) => inner(data, Vec::new()),
            PreOrder::Inner(data, n) => {
                if open.len() >= depth_limit {
                    return Err(PreOrderError::TooDeep(depth_limit));
                }
                // The arity is only a promise: grow as children arrive.
                open.push((data, n, Vec::new()));
                continue;
            }
        };
        // Close every inner node `done` completes.
        loop {
            let Some((_, want, kids)) = open.last_mut() else {
                return match nodes.next() {
                    None => Ok(done),
                    Some(_) => Err(PreOrderError::Trailing),
                };
            };
            kids.push(done);
            if kids.len() < *want {
                break;
            }
            // (`open` is not empty: its last node was just read.)
            let (data, _, kids) = open.pop().ok_or(PreOrderError::Truncated)?;
            done = inner(data, kids);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(nodes: Vec<PreOrder<(), ()>>, limit: usize) -> Result<usize, PreOrderError> {
        from_preorder(
            nodes,
            |()| 1,
            |(), kids| 1 + kids.iter().sum::<usize>(),
            limit,
        )
    }

    #[test]
    fn malformed_node_lists_are_errors() {
        use PreOrder::{Inner, Leaf};
        assert_eq!(count(vec![], 5), Err(PreOrderError::Truncated));
        assert_eq!(
            count(vec![Inner((), 2), Leaf(())], 5),
            Err(PreOrderError::Truncated)
        );
        assert_eq!(
            count(vec![Leaf(()), Leaf(())], 5),
            Err(PreOrderError::Trailing)
        );
        let deep: Vec<_> = (0..100_000)
            .map(|_| Inner((), 1))
            .chain([Leaf(())])
            .collect();
        assert_eq!(count(deep, 200), Err(PreOrderError::TooDeep(200)));
        // Huge arities promise children that never come: no allocation up front.
        assert_eq!(
            count(vec![Inner((), usize::MAX), Leaf(())], 5),
            Err(PreOrderError::Truncated)
        );
        assert_eq!(count(vec![Inner((), 2), Leaf(()), Inner((), 0)], 5), Ok(3));
    }
}
