//! The corpus programs against independent reference values.
//!
//! `tests/reference/corpus_expected.txt` (at the workspace root) holds the outputs of the
//! corpus programs recomputed op by op in pure Python with f32 rounding after every operation
//! (`tests/reference/corpus_reference.py`). The interpreter must reproduce them bit for bit.

use super::*;
use crate::{parse, Data, InterpError};
use std::path::{Path, PathBuf};

fn workspace_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

fn read(rel: &str) -> String {
    let path = workspace_file(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn corpus(stem: &str) -> Program {
    let program = parse(&read(&format!("corpus/{stem}.ptir"))).expect("corpus parses");
    assert!(verify(&program).is_ok(), "{stem} verifies");
    program
}

/// The reference inputs: parameter `j`, flat element `k` is `((7k + 3j) % 17) / 4 - 2`.
fn reference_inputs(f: &Function) -> Vec<Value> {
    let params = f.body.params.iter().enumerate();
    params
        .map(|(j, p)| {
            let t = p.ty.as_tensor().expect("tensor parameter");
            let xs: Vec<f64> = (0..t.num_elements())
                .map(|k| ((k * 7 + j * 3) % 17) as f64 / 4.0 - 2.0)
                .collect();
            Value::Tensor(Tensor::from_f64(t.clone(), &xs))
        })
        .collect()
}

#[test]
fn corpus_outputs_match_the_python_reference() {
    let expected = read("tests/reference/corpus_expected.txt");
    let mut checked = 0;
    for line in expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (stem, index) = (fields[0], fields[1].parse::<usize>().expect("index"));
        let values: Vec<f64> = fields[3..]
            .iter()
            .map(|v| v.parse().expect("float"))
            .collect();
        assert_eq!(values.len(), fields[2].parse::<usize>().expect("count"));
        let program = corpus(stem);
        let f = &program.functions[0];
        let outputs = run_ok(&program, &f.name, &reference_inputs(f));
        let found = nums(&outputs[index]);
        let same = found
            .iter()
            .zip(&values)
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(
            same && found.len() == values.len(),
            "{stem}[{index}]: {found:?}"
        );
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} reference outputs");
}

#[test]
fn the_impure_corpus_program_needs_its_extern_and_is_reproducible() {
    let program = corpus("rng_impure");
    let f = &program.functions[0];
    let inputs = reference_inputs(f);
    let err = Interpreter::new(&program)
        .run(&f.name, &inputs)
        .unwrap_err();
    assert_eq!(err.root(), &InterpError::MissingExtern("log_event".into()));
    let log = |args: &[Value], _: &Type| args.first().cloned().ok_or_else(String::new);
    let run = |seed| {
        let interp = Interpreter::new(&program)
            .with_seed(seed)
            .with_extern("log_event", log);
        interp.run(&f.name, &inputs).expect("runs")
    };
    assert_eq!(run(3), run(3));
    assert_ne!(run(3), run(4));
    // Kept elements are x * 1.3333334, dropped ones are 0.
    let out = run(3);
    let (x, y) = (nums(&inputs[0]), nums(&out[0]));
    let scale = 1.333_333_4f32;
    for (a, b) in x.iter().zip(&y) {
        assert!(
            *b == 0.0 || *b == ((*a as f32) * scale) as f64,
            "{a} -> {b}"
        );
    }
    assert!(matches!(&out[1], Value::Tensor(Tensor { data: Data::Float(v), .. }) if v.len() == 1));
}
