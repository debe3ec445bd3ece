//! The type converter: which dtypes are computed as which, and the casts at the boundaries.
//!
//! The details are on [`TypeConverter`].

use ptir_ir::{DType, Instruction, Op, Type, ValueId};

/// Dtype conversions.
///
/// As MLIR's `TypeConverter`: [`TypeConverter::convert`] maps a type to its legal form (every
/// tensor of a converted dtype gets the target dtype, shapes unchanged);
/// [`TypeConverter::materialize`] builds the cast that moves a value between the two forms. A
/// *target materialization* casts an operand into the converted type before the converted op;
/// a *source materialization* casts the converted result back to the original type, so the
/// rest of the program (and the function's signature) is unchanged.
///
/// ```
/// use ptir_convert::TypeConverter;
/// use ptir_ir::{DType, TensorType, Type};
/// let mut tc = TypeConverter::default();
/// tc.add(DType::BF16, DType::F32);
/// let bf = Type::Tensor(TensorType::new(DType::BF16, vec![2, 3]));
/// assert_eq!(tc.convert(&bf), Some(Type::Tensor(TensorType::new(DType::F32, vec![2, 3]))));
/// assert_eq!(tc.convert(&Type::Tensor(TensorType::new(DType::F32, vec![]))), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeConverter {
    conversions: Vec<(DType, DType)>,
}

impl TypeConverter {
    /// Computes values of dtype `from` as `to` (a later conversion of the same dtype wins).
    pub fn add(&mut self, from: DType, to: DType) {
        self.conversions.retain(|(f, _)| *f != from);
        self.conversions.push((from, to));
    }

    /// Does it convert anything?
    pub fn is_empty(&self) -> bool {
        self.conversions.is_empty()
    }

    /// The dtype `d` is computed as.
    pub fn convert_dtype(&self, d: DType) -> Option<DType> {
        self.conversions
            .iter()
            .find(|(f, _)| *f == d)
            .map(|(_, t)| *t)
    }

    /// The converted form of `t`, or `None` if it has no tensor to convert.
    pub fn convert(&self, t: &Type) -> Option<Type> {
        match t {
            Type::Tensor(tt) => self
                .convert_dtype(tt.dtype)
                .map(|d| Type::Tensor(tt.with_dtype(d))),
            Type::Tuple(_) => None,
        }
    }

    /// The cast that defines `result: to` from `value` (a source or target materialization).
    pub fn materialize(&self, result: ValueId, value: ValueId, to: Type) -> Instruction {
        Instruction {
            result,
            ty: to,
            op: Op::Cast,
            operands: vec![value],
        }
    }
}
