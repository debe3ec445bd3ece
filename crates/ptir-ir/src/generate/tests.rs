use super::*;
use crate::ops::Op;
use crate::tensor::Literal;
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
    for cfg in configs() {
        seen.extend(op_histogram(&generate(&cfg)).into_keys());
    }
    // `take` (StableHLO's embedding gather) is not generated: a new step kind would change
    // the program of every seed the differential tests and benchmarks refer to. Its kernel
    // and typing rule have their own tests (`interp::tests::shapes`).
    let missing: Vec<OpKey> = OpKey::all()
        .into_iter()
        .filter(|k| !seen.contains(k) && *k != OpKey::Take)
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
    for cfg in configs().take(200) {
        seen.extend(features(&generate(&cfg)));
    }
    let wanted = [
        "splat",
        "dense",
        "keep_dims=true",
        "keep_dims=false",
        "dot batch+contract",
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
            n >= size && n <= size + 40,
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
