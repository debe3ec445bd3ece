//! `ptir-opt` on StableHLO: input format by extension or `--input-format`, `--emit`, `-o`,
//! `translate`, `--custom-calls`, and located errors for unsupported ops.

mod support;

use support::ptir_opt;

fn stdout_ok(args: &[&str], stdin: &str) -> String {
    let out = ptir_opt(args, stdin);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn translate_goes_to_the_other_format_and_back() {
    let ptir = stdout_ok(&["translate", "corpus/mlir/softmax.mlir"], "");
    assert!(
        ptir.starts_with("func @main(%0: f32[16,32]) -> (f32[16,32]) {"),
        "{ptir}"
    );
    let mlir = stdout_ok(&["translate", "-", "--input-format", "ptir"], &ptir);
    assert!(
        mlir.starts_with("module {\n  func.func public @main("),
        "{mlir}"
    );
    let again = stdout_ok(&["translate", "-", "--input-format", "mlir"], &mlir);
    assert_eq!(again, ptir);
    let same_format = stdout_ok(
        &["translate", "corpus/mlir/softmax.mlir", "--emit", "mlir"],
        "",
    );
    assert_eq!(same_format, mlir);
}

#[test]
fn optimizing_mlir_emits_mlir_with_extern_bodies_or_custom_calls() {
    let dir = std::env::temp_dir().join(format!("ptir-cli-mlir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("softmax.opt.mlir");
    let out_s = out.to_string_lossy().into_owned();
    assert_eq!(
        stdout_ok(&["corpus/mlir/softmax.mlir", "-o", &out_s], ""),
        ""
    );
    let text = std::fs::read_to_string(&out).expect("-o wrote the file");
    assert!(text.contains("func.call @softmax_fused(%0)"), "{text}");
    assert!(text.contains("func.func private @softmax_fused("), "{text}");
    let kept = stdout_ok(&["corpus/mlir/softmax.mlir", "--custom-calls"], "");
    assert!(
        kept.contains("stablehlo.custom_call @softmax_fused(%0)"),
        "{kept}"
    );
    assert!(!kept.contains("func.func private"), "{kept}");
    let ptir = stdout_ok(&["corpus/mlir/softmax.mlir", "--emit", "ptir"], "");
    assert!(
        ptir.contains("call @softmax_fused(%0) : f32[16,32]"),
        "{ptir}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unsupported_ops_are_one_located_message() {
    let src = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.fft %a, type = FFT, length = [4] : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n";
    for args in [
        &["-", "--input-format", "mlir"][..],
        &["translate", "-", "--input-format", "mlir"],
    ] {
        let out = ptir_opt(args, src);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr, "error: -:2:8: unsupported op 'stablehlo.fft'\n");
    }
}
