//! Axis lists as ops take them: [`check_axes`], shared by type inference and the gather and
//! scatter dimension checks (a leaf: it imports nothing of the crate).

/// Checks that `axes` are distinct and below `rank`.
pub fn check_axes(axes: &[usize], rank: usize, what: &str) -> Result<(), String> {
    // On the stack for every rank a real program has: this runs for each op typed.
    let mut seen: smallvec::SmallVec<[bool; 16]> = smallvec::smallvec![false; rank];
    for &a in axes {
        if a >= rank {
            return Err(format!("{what} {a} is out of range for rank {rank}"));
        }
        if std::mem::replace(&mut seen[a], true) {
            return Err(format!("{what} {a} is repeated"));
        }
    }
    Ok(())
}
