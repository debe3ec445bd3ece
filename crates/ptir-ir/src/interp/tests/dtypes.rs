//! The narrow and unsigned integer dtypes (`i8`, `i16`, `u8`, `u16`, `u32`, `u64`) at their
//! edges: wraparound at the width, unsigned order and division, shifts by the width or more,
//! conversions from out-of-range floats and NaN, `u64` values above `i64::MAX`, `popcnt`,
//! `clz`, `bitcast`, reductions' starts and iotas that wrap.

use super::*;
use crate::{
    int_from_i128, int_value, unary_scalar, BinaryOp, CmpOp, InterpError, ReduceKind, Scalar,
    UnaryOp,
};
use DType::*;

/// A tensor of integer dtype `d` holding the numbers `xs` (wrapped to `d`).
fn ints(d: DType, xs: &[i128]) -> Value {
    let data = crate::Data::Int(xs.iter().map(|&x| int_from_i128(d, x)).collect());
    Value::Tensor(Tensor {
        ty: tt(d, &[xs.len()]),
        data,
    })
}

/// The numbers an integer tensor stands for.
fn numbers(v: &Value) -> Vec<i128> {
    let t = v.as_tensor().expect("tensor");
    t.data
        .iter()
        .map(|s| match s {
            Scalar::Int(i) => int_value(t.ty.dtype, i),
            other => panic!("not an integer: {other}"),
        })
        .collect()
}

fn bin(op: BinaryOp, a: Value, b: Value) -> Vec<i128> {
    let t = crate::value_type(&a);
    numbers(&apply_ok(Op::Binary(op), &[a, b], t))
}

fn un(op: UnaryOp, x: Value) -> Vec<i128> {
    let t = crate::value_type(&x);
    numbers(&apply_ok(Op::Unary(op), &[x], t))
}

fn to(op: Op, x: Value, d: DType) -> Value {
    let t = crate::value_type(&x)
        .as_tensor()
        .expect("tensor")
        .with_dtype(d);
    apply_ok(op, &[x], t.into())
}

fn bools(v: &Value) -> Vec<bool> {
    v.as_tensor()
        .expect("tensor")
        .data
        .iter()
        .map(|s| s == Scalar::Bool(true))
        .collect()
}

const U64_MAX: i128 = u64::MAX as i128;
const TOP64: i128 = 1 << 63;

#[test]
fn arithmetic_wraps_at_the_width() {
    assert_eq!(
        bin(BinaryOp::Add, ints(U8, &[250, 1]), ints(U8, &[10, 255])),
        [4, 0]
    );
    assert_eq!(
        bin(BinaryOp::Sub, ints(U32, &[0]), ints(U32, &[1])),
        [4294967295]
    );
    assert_eq!(bin(BinaryOp::Add, ints(I8, &[127]), ints(I8, &[1])), [-128]);
    assert_eq!(
        bin(BinaryOp::Mul, ints(I16, &[300]), ints(I16, &[300])),
        [24464]
    );
    // The hash constant of JAX's uint32 code: 2654435761 * 3 mod 2^32.
    assert_eq!(
        bin(BinaryOp::Mul, ints(U32, &[2654435761]), ints(U32, &[3])),
        [(2654435761 * 3) % (1 << 32)]
    );
    assert_eq!(
        bin(BinaryOp::Mul, ints(U64, &[U64_MAX]), ints(U64, &[U64_MAX])),
        [1]
    );
    assert_eq!(un(UnaryOp::Neg, ints(U16, &[1, 0])), [65535, 0]);
    assert_eq!(un(UnaryOp::Neg, ints(I8, &[-128])), [-128]);
    assert_eq!(un(UnaryOp::Not, ints(U8, &[0, 0xF0])), [255, 0x0F]);
    assert_eq!(un(UnaryOp::Square, ints(U8, &[16])), [0]);
}

#[test]
fn unsigned_order_division_and_extremes_read_the_top_bit_as_a_value() {
    let big = ints(U32, &[0x8000_0000, 1, 0xFFFF_FFFF]);
    let one = ints(U32, &[1, 0x8000_0000, 2]);
    assert_eq!(
        bin(BinaryOp::Max, big.clone(), one.clone()),
        [0x8000_0000, 0x8000_0000, 0xFFFF_FFFF]
    );
    assert_eq!(bin(BinaryOp::Min, big.clone(), one.clone()), [1, 1, 2]);
    assert_eq!(
        bin(BinaryOp::Div, big.clone(), one.clone()),
        [0x8000_0000, 0, 0x7FFF_FFFF]
    );
    assert_eq!(bin(BinaryOp::Rem, big.clone(), one.clone()), [0, 1, 1]);
    let gt = apply_ok(Op::Compare(CmpOp::Gt), &[big, one], ty(Bool, &[3]));
    assert_eq!(bools(&gt), [true, false, true]);
    // u64 above i64::MAX: compared, divided, and printed as themselves.
    let a = ints(U64, &[U64_MAX, TOP64]);
    let b = ints(U64, &[2, 1]);
    assert_eq!(
        bin(BinaryOp::Div, a.clone(), b.clone()),
        [U64_MAX / 2, TOP64]
    );
    assert_eq!(bin(BinaryOp::Rem, a.clone(), b.clone()), [1, 0]);
    assert_eq!(bin(BinaryOp::Max, a.clone(), b.clone()), [U64_MAX, TOP64]);
    let lt = apply_ok(Op::Compare(CmpOp::Lt), &[b, a.clone()], ty(Bool, &[2]));
    assert_eq!(bools(&lt), [true, true]);
    assert_eq!(
        a.to_string(),
        "u64[2] [18446744073709551615, 9223372036854775808]"
    );
    // Signed narrow types stay signed.
    assert_eq!(
        bin(BinaryOp::Div, ints(I8, &[-128]), ints(I8, &[-1])),
        [-128]
    );
    assert_eq!(bin(BinaryOp::Rem, ints(I8, &[-128]), ints(I8, &[-1])), [0]);
    assert_eq!(bin(BinaryOp::Max, ints(I16, &[-1]), ints(I16, &[1])), [1]);
}

#[test]
fn division_by_zero_is_an_error_in_every_integer_dtype() {
    for d in DType::INTS {
        for op in [BinaryOp::Div, BinaryOp::Rem] {
            let r = apply(Op::Binary(op), &[ints(d, &[7]), ints(d, &[0])], ty(d, &[1]));
            assert_eq!(
                r.map_err(|e| e.root().clone()),
                Err(InterpError::DivisionByZero),
                "{d}"
            );
        }
    }
}

#[test]
fn shifts_by_the_width_or_more_give_zero_or_the_sign_fill() {
    let x = ints(U8, &[0x81, 0x81, 0x81, 0x81]);
    let by = ints(U8, &[1, 7, 8, 255]);
    assert_eq!(
        bin(BinaryOp::Shl, x.clone(), by.clone()),
        [0x02, 0x80, 0, 0]
    );
    assert_eq!(
        bin(BinaryOp::ShrLogical, x.clone(), by.clone()),
        [0x40, 1, 0, 0]
    );
    // Arithmetic shifts fill with the top bit of the width, for unsigned dtypes too.
    assert_eq!(bin(BinaryOp::ShrArith, x, by), [0xC0, 0xFF, 0xFF, 0xFF]);
    let x = ints(I16, &[-32768, -2, 5, 5]);
    let by = ints(I16, &[15, 16, -1, 2]);
    assert_eq!(
        bin(BinaryOp::ShrArith, x.clone(), by.clone()),
        [-1, -1, 0, 1]
    );
    assert_eq!(
        bin(BinaryOp::ShrLogical, x.clone(), by.clone()),
        [1, 0, 0, 1]
    );
    assert_eq!(bin(BinaryOp::Shl, x, by), [0, 0, 0, 20]);
    let x = ints(U64, &[U64_MAX, 1]);
    let by = ints(U64, &[63, 64]);
    assert_eq!(bin(BinaryOp::ShrLogical, x.clone(), by.clone()), [1, 0]);
    assert_eq!(bin(BinaryOp::Shl, x.clone(), by.clone()), [TOP64, 0]);
    assert_eq!(bin(BinaryOp::ShrArith, x, by), [U64_MAX, 0]);
}

#[test]
fn popcnt_and_clz_count_at_the_width() {
    assert_eq!(un(UnaryOp::Popcnt, ints(I8, &[-1, 0, 5])), [8, 0, 2]);
    assert_eq!(un(UnaryOp::Popcnt, ints(U64, &[U64_MAX])), [64]);
    assert_eq!(un(UnaryOp::Clz, ints(U16, &[0, 1, 0x8000])), [16, 15, 0]);
    assert_eq!(un(UnaryOp::Clz, ints(I32, &[-1, 1])), [0, 31]);
    // abs and sign are not defined on unsigned dtypes: the verifier says so.
    for op in [UnaryOp::Abs, UnaryOp::Sign] {
        let cx = crate::InferContext::default();
        let err = crate::infer_type(&Op::Unary(op), &[&ty(U8, &[1])], &cx).unwrap_err();
        assert!(err.contains("not defined on u8"), "{err}");
    }
    assert_eq!(un(UnaryOp::Abs, ints(I8, &[-128, -3])), [-128, 3]);
}

#[test]
fn floats_convert_to_every_integer_width_truncating_and_saturating() {
    let x = val(
        F32,
        &[7],
        &[
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -1.5,
            300.7,
            -0.9,
            1e30,
        ],
    );
    let cases: [(DType, [i128; 7]); 6] = [
        (I8, [0, 127, -128, -1, 127, 0, 127]),
        (U8, [0, 255, 0, 0, 255, 0, 255]),
        (I16, [0, 32767, -32768, -1, 300, 0, 32767]),
        (U16, [0, 65535, 0, 0, 300, 0, 65535]),
        (U32, [0, 4294967295, 0, 0, 300, 0, 4294967295]),
        (U64, [0, U64_MAX, 0, 0, 300, 0, U64_MAX]),
    ];
    for (d, expected) in cases {
        assert_eq!(numbers(&to(Op::Cast, x.clone(), d)), expected, "{d}");
    }
}

#[test]
fn integers_convert_between_widths_and_to_floats_by_their_value() {
    // Integer to integer keeps the low bits of the two's complement form.
    assert_eq!(
        numbers(&to(Op::Cast, ints(I8, &[-1, 5]), U64)),
        [U64_MAX, 5]
    );
    assert_eq!(
        numbers(&to(Op::Cast, ints(U64, &[U64_MAX, 300]), I8)),
        [-1, 44]
    );
    assert_eq!(
        numbers(&to(Op::Cast, ints(U32, &[0xFFFF_FFFF]), I64)),
        [0xFFFF_FFFF]
    );
    assert_eq!(numbers(&to(Op::Cast, ints(I16, &[-2]), U32)), [0xFFFF_FFFE]);
    // Unsigned to float reads the value, not the bits: u64::MAX is 2^64 in f32 and f64.
    let f = to(Op::Cast, ints(U64, &[U64_MAX, TOP64 + 1]), F32);
    assert_eq!(
        f.as_tensor().expect("tensor").to_f64_vec(),
        [18446744073709551616.0, TOP64 as f64]
    );
    let h = to(Op::Cast, ints(U32, &[65520, 65519]), F16);
    assert_eq!(
        h.as_tensor().expect("tensor").to_f64_vec(),
        [f64::INFINITY, 65504.0]
    );
    let b = to(Op::Cast, ints(U8, &[0, 200]), Bool);
    assert_eq!(bools(&b), [false, true]);
}

#[test]
fn erf_inv_inverts_erf_to_the_last_digits() {
    // (Past about 3, erf(x) rounded to f64 no longer tells x to these digits.)
    for x in [0.001, 0.3, 1.0, 2.5, 2.9, -0.7, -2.2] {
        let y = libm::erf(x);
        let back = unary_scalar(UnaryOp::ErfInv, F64, Scalar::Float(y)).unwrap();
        let Scalar::Float(back) = back else {
            panic!("{back:?}")
        };
        assert!((back - x).abs() <= 1e-9 * x.abs().max(1.0), "{x}: {back}");
    }
    let at = |y: f64| match unary_scalar(UnaryOp::ErfInv, F32, Scalar::Float(y)).unwrap() {
        Scalar::Float(x) => x,
        s => panic!("{s:?}"),
    };
    assert_eq!((at(1.0), at(-1.0)), (f64::INFINITY, f64::NEG_INFINITY));
    assert!(at(1.5).is_nan() && at(f64::NAN).is_nan());
    assert!(at(-0.0) == 0.0 && at(-0.0).is_sign_negative());
}

#[test]
fn bitcast_resize_is_little_endian_both_ways() {
    // u16[2, 2] -> u32[2]: the first element of each pair is the low half.
    let pairs = ints(U16, &[0x1234, 0xABCD, 0xFFFF, 0x0001]);
    let pairs = apply_ok(Op::Reshape, &[pairs], ty(U16, &[2, 2]));
    let wide = apply_ok(Op::BitcastResize, &[pairs.clone()], ty(U32, &[2]));
    assert_eq!(numbers(&wide), [0xABCD_1234, 0x0001_FFFF]);
    assert_eq!(
        apply_ok(Op::BitcastResize, &[wide], ty(U16, &[2, 2])),
        pairs
    );
    // f32 1.0 as four bytes, least significant first; signed bytes read as such.
    let one = val(F32, &[1], &[1.0]);
    let bytes = apply_ok(Op::BitcastResize, &[one], ty(I8, &[1, 4]));
    assert_eq!(numbers(&bytes), [0, 0, -128, 63]);
    // A scalar from its parts, and the shapes that do not fit.
    let word = apply_ok(
        Op::BitcastResize,
        &[ints(U8, &[1, 0, 0, 0, 0, 0, 0, 128])],
        ty(I64, &[]),
    );
    assert_eq!(numbers(&word), [i128::from(i64::MIN + 1)]);
    for (from, to) in [
        (ty(U8, &[3]), ty(U16, &[])),
        (ty(U32, &[2]), ty(U16, &[2, 3])),
    ] {
        let cx = crate::InferContext {
            annotated: Some(&to),
            ..crate::InferContext::default()
        };
        let e = crate::infer_type(&Op::BitcastResize, &[&from], &cx).unwrap_err();
        assert!(e.contains("one more dim"), "{e}");
    }
}

#[test]
fn bitcast_reads_the_bits_as_the_other_dtype() {
    let f = to(
        Op::Bitcast,
        ints(U32, &[0x3F80_0000, 0x8000_0000, 0x7F80_0000]),
        F32,
    );
    assert_eq!(
        f.as_tensor().expect("tensor").to_f64_vec(),
        [1.0, -0.0, f64::INFINITY]
    );
    let back = to(Op::Bitcast, f, U32);
    assert_eq!(numbers(&back), [0x3F80_0000, 0x8000_0000, 0x7F80_0000]);
    let h = to(Op::Bitcast, val(BF16, &[2], &[1.0, -2.0]), I16);
    assert_eq!(numbers(&h), [0x3F80, 0xC000 - 0x10000]);
    let d = to(Op::Bitcast, val(F64, &[1], &[-0.0]), U64);
    assert_eq!(numbers(&d), [TOP64]);
    assert_eq!(numbers(&to(Op::Bitcast, ints(I8, &[-1]), U8)), [255]);
    // Widths must agree, and bool has no bits to read.
    let bad = crate::infer_type(
        &Op::Bitcast,
        &[&ty(U32, &[2])],
        &crate::InferContext {
            annotated: Some(&ty(F64, &[2])),
            ..crate::InferContext::default()
        },
    );
    assert!(bad.unwrap_err().contains("cannot change the width"));
}

/// `max`, `min` and `reduce_max` return a NaN operand as it is, sign and payload: a
/// maximum over one element is that element bit for bit, as the rules that forward it
/// (`reduce-max-no-axes`, `max-self`, a reduction over a unit axis) say; read back through
/// `bitcast`, a canonical NaN in its place was a different integer (campaign seeds 6,013,397
/// at size 30, 6,004,938 and 6,010,100 at size 120).
#[test]
fn max_and_min_return_a_nan_operand_with_its_sign_and_payload() {
    let bits = [0xFFFF_FFFF_i128, 0x7FC0_0001, 0xFFC0_0000];
    let nans = to(Op::Bitcast, ints(U32, &bits), F32);
    let low = to(Op::Bitcast, ints(U32, &[0xFF80_0000; 3]), F32); // -inf
    for op in [BinaryOp::Max, BinaryOp::Min] {
        for (a, b) in [(nans.clone(), low.clone()), (low.clone(), nans.clone())] {
            let t = crate::value_type(&a);
            let r = apply_ok(Op::Binary(op), &[a, b], t);
            assert_eq!(numbers(&to(Op::Bitcast, r, U32)), bits, "{op:?}");
        }
    }
    let op = Op::Reduce {
        kind: ReduceKind::Max,
        axes: vec![],
        keep_dims: false,
    };
    let t = crate::value_type(&nans);
    let r = apply_ok(op, std::slice::from_ref(&nans), t);
    assert_eq!(numbers(&to(Op::Bitcast, r, U32)), bits);
}

#[test]
fn reductions_start_from_the_dtype_minimum_and_iotas_wrap() {
    let r = |d: DType, xs: &[i128]| {
        let op = Op::Reduce {
            kind: ReduceKind::Max,
            axes: vec![0],
            keep_dims: false,
        };
        numbers(&apply_ok(op, &[ints(d, xs)], ty(d, &[])).to_owned_vec())
    };
    assert_eq!(r(U32, &[0x8000_0000, 1]), [0x8000_0000]);
    assert_eq!(r(U64, &[U64_MAX, 0]), [U64_MAX]);
    assert_eq!(r(I8, &[-128, -100]), [-100]);
    let sum = Op::Reduce {
        kind: ReduceKind::Sum,
        axes: vec![0],
        keep_dims: false,
    };
    let s = apply_ok(sum, &[ints(U8, &[200, 100])], ty(U8, &[]));
    assert_eq!(numbers(&s.to_owned_vec()), [44]);
    let iota = apply_ok(Op::Iota { dim: 0 }, &[], ty(U8, &[300]));
    assert_eq!(numbers(&iota)[255..258], [255, 0, 1]);
}

/// A rank-0 result as a one-element vector, so that [`numbers`] reads it.
trait OwnedVec {
    fn to_owned_vec(&self) -> Value;
}

impl OwnedVec for Value {
    fn to_owned_vec(&self) -> Value {
        let t = self.as_tensor().expect("tensor");
        Value::Tensor(Tensor {
            ty: tt(t.ty.dtype, &[t.data.len()]),
            data: t.data.clone(),
        })
    }
}

#[test]
fn values_read_back_from_the_text_format_and_refuse_what_the_dtype_lacks() {
    let text = "func @f() -> (u64[2], i8[1], u8[1]) {\n  %0 = constant dense([18446744073709551615, 9223372036854775808]) : u64[2]\n  %1 = constant splat(-128) : i8[1]\n  %2 = constant splat(255) : u8[1]\n  return %0, %1, %2\n}\n";
    let p = crate::parse(text).expect("parses");
    assert_eq!(crate::print(&p), text);
    let out = Interpreter::new(&p).run("f", &[]).expect("runs");
    assert_eq!(numbers(&out[0]), [U64_MAX, TOP64]);
    for bad in [
        "constant splat(-1) : u32[]",
        "constant splat(256) : u8[]",
        "constant splat(128) : i8[]",
        "constant splat(18446744073709551616) : u64[]",
    ] {
        let ty = bad.rsplit(": ").next().expect("type");
        let text = format!("func @f() -> ({ty}) {{\n  %0 = {bad}\n  return %0\n}}\n");
        let err = crate::parse(&text).expect_err(bad).to_string();
        assert!(err.contains("is not a valid"), "{bad}: {err}");
    }
}
