use super::*;
use crate::ops::Op;
use crate::program::Function;
use crate::tensor::{Literal, Value};
use crate::types::TensorType;
use crate::verify::verify;
use std::collections::BTreeSet;

/// 500 configs over seeds and sizes, some without regions or impure ops, some with few dtypes.
fn configs() -> impl Iterator<Item = GenConfig> {
    (0..500u64).map(|seed| {
        let mut c = GenConfig::new(seed, [5, 10, 20, 40, 80][seed as usize % 5]);
        match seed % 7 {
            0 => c.allow_regions = false,
            1 => c.allow_impure = false,
            2 => c.dtypes = vec![DType::F32],
            3 => c.dtypes = vec![DType::I32, DType::Bool],
            4 => c.max_depth = 3,
            _ => {}
        }
        c
    })
}

#[test]
fn generated_programs_verify() {
    for cfg in configs() {
        let (p, stats) = generate_with_stats(&cfg);
        if let Err(e) = verify(&p) {
            panic!("seed {} does not verify:\n{e}\n{p}", cfg.seed);
        }
        assert_eq!(
            stats.rejected, 0,
            "seed {}: {:?}",
            cfg.seed, stats.first_rejection
        );
        assert_eq!(p.functions.last().map(|f| f.name.as_str()), Some(ENTRY));
    }
}

#[test]
fn every_op_kind_is_generated() {
    let mut seen = BTreeSet::new();
    // `iota` comes from the extended generator's index arithmetic; 250 extended seeds see each
    // indexing variant. Windowed and order steps are one kind of step among many (three
    // pooling kinds, four selections, pad, reverse, convolutions, the order ops): programs
    // rich in them see each kind.
    let extended = (0..250).map(|seed| GenConfig::extended(seed, 40, vec![]));
    let windowed = (0..60).map(|seed| GenConfig {
        window_weight: 20,
        ..GenConfig::extended(seed, 40, vec![])
    });
    for cfg in configs().chain(extended).chain(windowed) {
        seen.extend(op_histogram(&generate(&cfg)).into_keys());
    }
    let missing: Vec<OpKey> = OpKey::all()
        .into_iter()
        .filter(|k| !seen.contains(k))
        .collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}

/// The variants of ops that the op kinds alone do not show.
fn features(p: &Program) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for f in &p.functions {
        f.body.walk(&mut |inst, depth| {
            let feature = match &inst.op {
                Op::Constant(Literal::Splat(_)) => "splat".to_string(),
                Op::Constant(Literal::Dense(_)) => "dense".to_string(),
                Op::Reduce { keep_dims, .. } => format!("keep_dims={keep_dims}"),
                Op::DotGeneral(d) if !d.lhs_batch.is_empty() && !d.lhs_contract.is_empty() => {
                    "dot batch+contract".to_string()
                }
                Op::Call { callee } => format!("call @{callee}"),
                Op::Broadcast { dims } if !dims.windows(2).all(|w| w[0] < w[1]) => {
                    "permuting broadcast".to_string()
                }
                _ => String::new(),
            };
            out.insert(feature);
            if let Op::DotGeneral(d) = &inst.op {
                if d.result_dtype.is_some() {
                    out.insert("mixed-precision dot".to_string());
                }
                if d.precision.is_some() {
                    out.insert("dot precision".to_string());
                }
                let rows = inst.ty.as_tensor().and_then(|t| t.shape.first().copied());
                if rows.is_some_and(|n| n >= 32 && n % 8 != 0) {
                    out.insert("ragged dot".to_string());
                }
            }
            if depth >= 2 {
                out.insert(format!("{} at depth 2", inst.op.name()));
            }
        });
    }
    out
}

#[test]
fn every_op_variant_is_generated() {
    let mut seen = BTreeSet::new();
    for cfg in configs() {
        seen.extend(features(&generate(&cfg)));
    }
    let wanted = [
        "splat",
        "dense",
        "keep_dims=true",
        "keep_dims=false",
        "dot batch+contract",
        "mixed-precision dot",
        "dot precision",
        "ragged dot",
        "call @helper",
        "call @gen_pure",
        "call @gen_impure",
        "permuting broadcast",
        "while at depth 2",
        "add at depth 2",
    ];
    let missing: Vec<&str> = wanted.into_iter().filter(|w| !seen.contains(*w)).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}

#[test]
fn generation_is_deterministic_and_sized() {
    for size in [1, 10, 50, 200] {
        let cfg = GenConfig::new(42, size);
        let p = generate(&cfg);
        assert_eq!(p, generate(&cfg));
        let n = p.num_insts();
        assert!(
            n >= size && n <= size + 40.max(size / 4),
            "size {size} gave {n} instructions"
        );
    }
    assert_ne!(
        generate(&GenConfig::new(1, 30)),
        generate(&GenConfig::new(2, 30))
    );
}

#[test]
fn configs_are_respected() {
    for seed in 0..60 {
        let cfg = GenConfig {
            seed,
            size: 40,
            max_rank: 2,
            max_elements: 16,
            allow_regions: false,
            allow_impure: false,
            ..GenConfig::default()
        };
        let p = generate(&cfg);
        assert!(p.externs.iter().all(|e| e.pure));
        for f in &p.functions {
            f.body.walk(&mut |inst, _| {
                assert!(!matches!(
                    inst.op.key(),
                    OpKey::Rng | OpKey::Cond | OpKey::While | OpKey::Scan
                ));
                if let Some(t) = inst.ty.as_tensor() {
                    assert!(t.rank() <= 2 && t.num_elements() <= 16, "{t}");
                }
            });
        }
    }
}

#[test]
fn shared_subterms_and_captures_arise() {
    let (mut shared, mut captured) = (0, 0);
    for seed in 0..50 {
        let p = generate(&GenConfig::new(seed, 60));
        for f in &p.functions {
            let mut uses = std::collections::HashMap::new();
            f.body.walk(&mut |inst, depth| {
                for &v in &inst.operands {
                    *uses.entry(v).or_insert(0) += 1;
                    // Ids below the body's first nested value are outer ones.
                    if depth > 0 && f.body.params.iter().any(|p| p.id == v) {
                        captured += 1;
                    }
                }
            });
            shared += uses.values().filter(|&&n| n > 1).count();
        }
    }
    assert!(shared > 100, "{shared} values used more than once");
    assert!(
        captured > 5,
        "{captured} uses of function params inside regions"
    );
}

#[test]
fn degenerate_configs_still_work() {
    let cfg = GenConfig {
        max_rank: 0,
        max_dim: 0,
        max_elements: 0,
        dtypes: vec![],
        ..GenConfig::new(5, 30)
    };
    let (p, stats) = generate_with_stats(&cfg);
    assert!(verify(&p).is_ok());
    assert_eq!(stats.rejected, 0, "{:?}", stats.first_rejection);
    let only_bool = GenConfig {
        dtypes: vec![DType::Bool],
        ..GenConfig::new(6, 40)
    };
    assert!(verify(&generate(&only_bool)).is_ok());
}

#[test]
fn chain_is_long_and_fast() {
    let start = std::time::Instant::now();
    let p = generate_chain(100_000);
    assert!(start.elapsed().as_secs_f64() < 2.0);
    assert_eq!(p.num_insts(), 100_000);
    assert!(verify(&generate_chain(1000)).is_ok());
    assert!(verify(&generate_chain(0)).is_ok());
}

#[test]
fn inputs_match_the_entry_params() {
    for seed in 0..20 {
        let p = generate(&GenConfig::new(seed, 20));
        let main = p.function(ENTRY).unwrap();
        let inputs = random_inputs(main, seed);
        assert_eq!(inputs.len(), main.body.params.len());
        for (v, param) in inputs.iter().zip(&main.body.params) {
            let t: &TensorType = param.ty.as_tensor().unwrap();
            assert_eq!(&v.as_tensor().unwrap().ty, t);
        }
    }
}

/// The extended config of [`GenConfig::extended`], clashing with two rule extern names.
fn extended(seed: u64, size: usize) -> GenConfig {
    GenConfig::extended(
        seed,
        size,
        vec![
            "linear".to_string(),
            "softmax_fused".to_string(),
            "attention".to_string(),
        ],
    )
}

/// Facts about a program that the extended knobs should produce.
fn extended_features(p: &Program) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for f in &p.functions {
        let params: BTreeSet<_> = f.body.params.iter().map(|p| p.id).collect();
        if f.name.starts_with(TRAP_PREFIX)
            && f.body.insts.iter().any(|i| {
                matches!(
                    i.op,
                    Op::Binary(crate::ops::BinaryOp::Div | crate::ops::BinaryOp::Rem)
                ) && params.contains(&i.operands[1])
            })
        {
            out.insert("trapping helper".to_string());
        }
        if f.name.starts_with(SPIN_PREFIX) {
            let calls_itself = f
                .body
                .insts
                .iter()
                .any(|i| matches!(&i.op, Op::Call { callee } if *callee == f.name));
            let loops = f.body.insts.iter().any(|i| i.op.key() == OpKey::While);
            if calls_itself {
                out.insert("self-recursive helper".to_string());
            }
            if loops {
                out.insert("endless while helper".to_string());
            }
        }
        if IDIOMS.contains(&f.name.as_str()) {
            out.insert(format!("user function @{}", f.name));
        }
        f.body.walk(&mut |inst, _| {
            for r in inst.op.regions() {
                let mut divides = false;
                r.walk(&mut |i, _| {
                    divides |= matches!(i.op, Op::Binary(crate::ops::BinaryOp::Div))
                        && i.ty.as_tensor().is_some_and(|t| t.dtype.is_int());
                });
                if divides && inst.op.key() == OpKey::Cond {
                    out.insert("guarded integer division".to_string());
                }
            }
            if let Op::Call { callee } = &inst.op {
                if callee.starts_with(TRAP_PREFIX) || callee.starts_with(SPIN_PREFIX) {
                    out.insert(format!("call @{callee} in a region"));
                }
            }
            if inst
                .ty
                .as_tensor()
                .is_some_and(|t| t.num_elements() > crate::TENSOR_ELEMENT_LIMIT)
            {
                out.insert("huge broadcast".to_string());
            }
            if let Op::Call { callee } = &inst.op {
                if f.name == ENTRY && IDIOMS.contains(&callee.as_str()) {
                    out.insert("main calls the clash".to_string());
                }
            }
        });
    }
    out
}

#[test]
fn extended_programs_verify_without_rejections() {
    for seed in 0..200 {
        let cfg = extended(seed, [5, 20, 40, 80][seed as usize % 4]);
        let (p, stats) = generate_with_stats(&cfg);
        if let Err(e) = verify(&p) {
            panic!("seed {seed} does not verify:\n{e}\n{p}");
        }
        assert_eq!(
            stats.rejected, 0,
            "seed {seed}: {:?}",
            stats.first_rejection
        );
        assert_eq!(p, generate(&cfg), "seed {seed} is not deterministic");
    }
}

#[test]
fn extended_knobs_produce_each_shape() {
    let mut seen = BTreeSet::new();
    for seed in 0..100 {
        seen.extend(extended_features(&generate(&extended(seed, 40))));
    }
    let wanted = [
        "trapping helper",
        "self-recursive helper",
        "endless while helper",
        "guarded integer division",
        "call @trap0 in a region",
        "call @spin0 in a region",
        "huge broadcast",
        "user function @linear",
        "user function @softmax_fused",
    ];
    let missing: Vec<&str> = wanted.into_iter().filter(|w| !seen.contains(*w)).collect();
    assert!(
        missing.is_empty(),
        "never generated: {missing:?}; saw {seen:?}"
    );
}

#[test]
fn knobs_off_give_the_default_distribution() {
    for seed in 0..40 {
        let base = GenConfig::new(seed, 30);
        let off = GenConfig {
            clash_names: vec!["linear".to_string()],
            ..base.clone()
        };
        assert_eq!(generate(&base), generate(&off));
        let features = extended_features(&generate(&base));
        assert!(
            !features
                .iter()
                .any(|f| f.contains("trap") || f.contains("spin")),
            "{features:?}"
        );
    }
}

#[test]
fn extended_programs_mostly_run() {
    use crate::interp::Interpreter;
    let (mut ran, mut failed) = (0, 0);
    for seed in 0..60 {
        let p = generate(&extended(seed, 30));
        let main = p.function(ENTRY).unwrap();
        for input_seed in 0..4 {
            let mut interp = Interpreter::new(&p)
                .with_seed(input_seed)
                .with_while_fuel(10_000);
            for name in [GEN_PURE_EXTERN, GEN_IMPURE_EXTERN] {
                interp = interp.with_extern(name, move |args: &[Value], _| {
                    extern_reference(name, args)
                        .map(Value::pack)
                        .ok_or_else(|| "bad arguments".to_string())
                });
            }
            match interp.run(ENTRY, &random_inputs(main, input_seed)) {
                Ok(_) => ran += 1,
                Err(_) => failed += 1,
            }
        }
    }
    assert!(ran > 2 * failed, "{ran} runs succeeded, {failed} failed");
}

#[test]
fn long_chain_mode() {
    let cfg = GenConfig {
        chain_len: 12_000,
        ..GenConfig::new(3, 30)
    };
    let (p, stats) = generate_with_stats(&cfg);
    assert_eq!(stats.rejected, 0, "{:?}", stats.first_rejection);
    assert!(verify(&p).is_ok());
    assert!(p.num_insts() >= 12_000);
}

#[test]
fn integer_inputs_are_often_zero() {
    let main = Function {
        name: "f".into(),
        result_types: vec![],
        body: crate::program::Region {
            params: vec![crate::program::Param {
                id: crate::program::ValueId(0),
                ty: TensorType::new(DType::I32, vec![300]).into(),
            }],
            insts: vec![],
            results: vec![],
        },
    };
    let v = random_inputs(&main, 1);
    let zeros = v[0]
        .as_tensor()
        .unwrap()
        .to_f64_vec()
        .iter()
        .filter(|x| **x == 0.0)
        .count();
    assert!((60..=140).contains(&zeros), "{zeros} zeros in 300");
}
