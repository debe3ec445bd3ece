//! Every JAX-exported fixture (`corpus/mlir/*.mlir`) imports into a program that verifies,
//! exports, and imports back to the same program; PTIR text round trips stay exact.

fn fixtures() -> Vec<(String, String)> {
    let fixtures = ptir_test_support::mlir_fixtures();
    assert!(
        fixtures.len() >= 8,
        "expected the JAX fixtures in corpus/mlir"
    );
    fixtures
}

#[test]
fn every_fixture_imports_exports_and_imports_back() {
    for (name, text) in fixtures() {
        let p = ptir_mlir::import(&text).unwrap_or_else(|e| panic!("{name}:{e}"));
        ptir_ir::verify(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ptir_text = ptir_ir::print(&p);
        assert_eq!(
            ptir_ir::parse(&ptir_text).as_ref(),
            Ok(&p),
            "{name}: PTIR round trip"
        );
        let out = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = ptir_mlir::import(&out).unwrap_or_else(|e| panic!("{name} exported:{e}\n{out}"));
        assert_eq!(back, p, "{name}: MLIR round trip");
    }
}

#[test]
fn generic_and_pretty_forms_import_to_the_same_program() {
    let all = fixtures();
    let mut pairs = 0;
    for (name, text) in &all {
        let Some(stem) = name.strip_suffix(".generic.mlir") else {
            continue;
        };
        let pretty = all
            .iter()
            .find(|(n, _)| *n == format!("{stem}.mlir"))
            .map(|(_, t)| t)
            .expect("the pretty form beside the generic one");
        let a = ptir_mlir::import(text).unwrap_or_else(|e| panic!("{name}:{e}"));
        let b = ptir_mlir::import(pretty).unwrap_or_else(|e| panic!("{stem}.mlir:{e}"));
        assert_eq!(a, b, "{stem}");
        pairs += 1;
    }
    assert!(pairs >= 2);
}
