use super::*;
use crate::ops::{OpKey, RngDist};

fn f32t(shape: &[usize]) -> TensorType {
    TensorType::new(DType::F32, shape.to_vec())
}

fn op_name(e: &BuildError) -> &'static str {
    match e {
        BuildError::Op { op, .. } => op,
        _ => "",
    }
}

#[test]
fn softmax_prints_as_expected() {
    let mut pb = ProgramBuilder::new();
    let mut f = pb.function("softmax", &[f32t(&[2, 3])]).unwrap();
    let x = f.param(0).unwrap();
    let m = f.reduce_max(x, &[1], true).unwrap();
    let mb = f.broadcast_like(m, x).unwrap();
    let s = f.sub(x, mb).unwrap();
    let e = f.exp(s).unwrap();
    let z = f.reduce_sum(e, &[1], true).unwrap();
    let zb = f.broadcast_like(z, x).unwrap();
    let y = f.div(e, zb).unwrap();
    f.ret(&[y]).unwrap();
    let p = pb.finish().unwrap();
    let expected = "\
func @softmax(%0: f32[2,3]) -> (f32[2,3]) {
  %1 = reduce_max %0 axes=[1] keep_dims=true : f32[2,1]
  %2 = broadcast %1 dims=[0,1] : f32[2,3]
  %3 = sub %0, %2 : f32[2,3]
  %4 = exp %3 : f32[2,3]
  %5 = reduce_sum %4 axes=[1] keep_dims=true : f32[2,1]
  %6 = broadcast %5 dims=[0,1] : f32[2,3]
  %7 = div %4, %6 : f32[2,3]
  return %7
}
";
    assert_eq!(crate::print(&p), expected);
}

#[test]
fn type_errors_name_the_op() {
    let mut pb = ProgramBuilder::new();
    let mut f = pb.function("f", &[f32t(&[2]), f32t(&[3])]).unwrap();
    let (a, b) = (f.param(0).unwrap(), f.param(1).unwrap());
    let e = f.add(a, b).unwrap_err();
    assert_eq!(op_name(&e), "add");
    assert!(e.to_string().contains("same type"), "{e}");
    assert_eq!(op_name(&f.transpose(a, &[1]).unwrap_err()), "transpose");
    assert_eq!(op_name(&f.reshape(a, &[3]).unwrap_err()), "reshape");
    assert_eq!(op_name(&f.broadcast_to(b, &[2]).unwrap_err()), "broadcast");
    assert_eq!(op_name(&f.concat(&[], 0).unwrap_err()), "concat");
    assert_eq!(op_name(&f.slice(a, &[1], &[5], &[1]).unwrap_err()), "slice");
    assert_eq!(op_name(&f.matmul(a, b).unwrap_err()), "dot_general");
    assert_eq!(op_name(&f.not(a).unwrap_err()), "not");
    assert_eq!(op_name(&f.tuple_get(a, 0).unwrap_err()), "tuple_get");
    assert_eq!(op_name(&f.param(7).unwrap_err()), "param");
    // A failed op adds nothing.
    assert_eq!(f.num_insts(), 0);
}

#[test]
fn values_of_other_functions_and_closed_regions_are_refused() {
    let mut pb = ProgramBuilder::new();
    let g = pb.function("g", &[f32t(&[2])]).unwrap();
    let foreign = g.param(0).unwrap();
    g.ret(&[foreign]).unwrap();
    let mut f = pb
        .function("f", &[f32t(&[2]), TensorType::scalar(DType::Bool)])
        .unwrap();
    let (x, p) = (f.param(0).unwrap(), f.param(1).unwrap());
    let e = f.exp(foreign);
    // `foreign` has the same id as `x` but belongs to @g.
    assert!(e.unwrap_err().to_string().contains("another function"));
    let mut inner = None;
    let r = f
        .cond(
            p,
            |b| {
                let v = b.exp(x)?;
                inner = Some(v);
                Ok(vec![v])
            },
            |_| Ok(vec![x]),
        )
        .unwrap();
    let leaked = inner.unwrap();
    let e = f.add(r, leaked).unwrap_err();
    assert!(e.to_string().contains("not visible here"), "{e}");
    assert!(f.ret(&[leaked]).is_err());
}

#[test]
fn calls_check_declarations_and_signatures() {
    let t = f32t(&[2]);
    let mut pb = ProgramBuilder::new();
    pb.declare_extern(
        "ext",
        std::slice::from_ref(&t),
        &[t.clone(), t.clone()],
        true,
    )
    .unwrap();
    pb.declare_polymorphic_extern("poly", false).unwrap();
    assert!(pb.declare_polymorphic_extern("ext", true).is_err());
    let mut f = pb.function("f", std::slice::from_ref(&t)).unwrap();
    let x = f.param(0).unwrap();
    assert!(f
        .call("nope", &[x])
        .unwrap_err()
        .to_string()
        .contains("not declared"));
    let pair = f.call("ext", &[x]).unwrap();
    assert_eq!(f.ty(pair).unwrap().to_string(), "(f32[2], f32[2])");
    let parts = f.unpack(pair).unwrap();
    assert_eq!(parts.len(), 2);
    assert!(f.call("ext", &[x, x]).is_err());
    assert!(f.call("poly", &[x]).is_err());
    let y = f.call_typed("poly", &[x], t.clone().into()).unwrap();
    f.ret(&[parts[1], y]).unwrap();
    assert!(matches!(pb.function("f", &[t]), Err(BuildError::Name(_))));
    assert_eq!(pb.finish().unwrap().functions[0].result_types.len(), 2);
}

#[test]
fn region_ops_allocate_ids_in_creation_order() {
    let t = f32t(&[3]);
    let mut pb = ProgramBuilder::new();
    let mut f = pb.function("loop", std::slice::from_ref(&t)).unwrap();
    let x = f.param(0).unwrap();
    let i0 = f.scalar(0.0, DType::I32).unwrap();
    let out = f
        .while_loop(
            &[i0, x],
            |c, p| {
                let n = c.scalar(2.0, DType::I32)?;
                c.lt(p[0], n)
            },
            |b, p| {
                let one = b.scalar(1.0, DType::I32)?;
                Ok(vec![b.add(p[0], one)?, b.tanh(p[1])?])
            },
        )
        .unwrap();
    let y = f.tuple_get(out, 1).unwrap();
    f.ret(&[y]).unwrap();
    let p = pb.finish().unwrap();
    let body = &p.functions[0].body;
    assert_eq!(out.id(), ValueId(2));
    let mut ids = Vec::new();
    body.walk(&mut |inst, _| ids.push(inst.result.0));
    // while=2; cond: params 3,4, inst 5,6; body: params 7,8, insts 9,10,11; tuple_get=12.
    assert_eq!(ids, vec![1, 2, 5, 6, 9, 10, 11, 12]);
    assert_eq!(p.functions[0].fresh_value_id(), ValueId(13));
}

#[test]
fn scan_and_cond_type_their_results() {
    let mut pb = ProgramBuilder::new();
    let mut f = pb.function("f", &[f32t(&[3, 2])]).unwrap();
    let xs = f.param(0).unwrap();
    let s = f
        .scan(3, &[], &[xs], |b, c, x| {
            assert!(c.is_empty());
            Ok(vec![b.reduce_sum(x[0], &[0], false)?])
        })
        .unwrap();
    assert_eq!(f.ty(s).unwrap().to_string(), "f32[3]");
    let bad = f.scan(4, &[], &[xs], |_, _, x| Ok(vec![x[0]]));
    assert_eq!(op_name(&bad.unwrap_err()), "scan");
    let zero = f.scalar(0.0, DType::F32).unwrap();
    let total = f.reduce_sum(s, &[0], false).unwrap();
    let p = f.gt(total, zero).unwrap();
    let mismatched = f.cond(p, |_| Ok(vec![total]), |_| Ok(vec![s]));
    assert!(mismatched
        .unwrap_err()
        .to_string()
        .contains("branches yield different types"));
    let ok = f.cond(p, |b| Ok(vec![b.neg(s)?]), |_| Ok(vec![s])).unwrap();
    f.ret(&[ok]).unwrap();
    pb.finish().unwrap();
}

#[test]
fn closure_errors_propagate_and_close_the_region() {
    let mut pb = ProgramBuilder::new();
    let mut f = pb
        .function("f", &[TensorType::scalar(DType::Bool)])
        .unwrap();
    let p = f.param(0).unwrap();
    let e = f
        .cond(p, |b| Ok(vec![b.exp(p)?]), |_| Ok(vec![p]))
        .unwrap_err();
    assert_eq!(op_name(&e), "exp");
    // The builder is back in the function body and still usable.
    let q = f.not(p).unwrap();
    f.ret(&[q]).unwrap();
    let prog = pb.finish().unwrap();
    assert_eq!(prog.functions[0].body.insts.len(), 1);
}

#[test]
fn every_non_region_method_emits_its_op() {
    let mut pb = ProgramBuilder::new();
    let mut f = pb.function("f", &[f32t(&[2, 3]), f32t(&[3, 2])]).unwrap();
    let (a, b) = (f.param(0).unwrap(), f.param(1).unwrap());
    let bt = f.transpose(b, &[1, 0]).unwrap();
    let c = f.matmul(a, b).unwrap();
    let sl = f.slice(a, &[0, 0], &[2, 3], &[1, 2]).unwrap();
    let cat = f.concat(&[a, bt], 0).unwrap();
    let r = f.reshape(cat, &[12]).unwrap();
    let i = f.cast(r, DType::I32).unwrap();
    let two = f
        .constant_dense(&[2.0; 12], TensorType::new(DType::I32, vec![12]))
        .unwrap();
    let q = f.rem(i, two).unwrap();
    let g = f.rng(RngDist::Normal, f32t(&[2, 2])).unwrap();
    let m = f.ge(c, g).unwrap();
    let sel = f.select(m, c, g).unwrap();
    let t = f.tuple(&[sel, sl, q]).unwrap();
    let back = f.tuple_get(t, 0).unwrap();
    f.ret(&[back]).unwrap();
    let prog = pb.finish().unwrap();
    let keys: Vec<OpKey> = prog.functions[0]
        .body
        .insts
        .iter()
        .map(|i| i.op.key())
        .collect();
    assert!(keys.contains(&OpKey::DotGeneral) && keys.contains(&OpKey::Rng));
    assert_eq!(keys.len(), 13);
}

#[test]
fn emit_refuses_region_ops() {
    let mut pb = ProgramBuilder::new();
    let mut f = pb.function("f", &[] as &[Type]).unwrap();
    let op = Op::While {
        cond: Box::new(Region::default()),
        body: Box::new(Region::default()),
    };
    assert_eq!(op_name(&f.emit(op, &[], None).unwrap_err()), "while");
}
