//! `ptir-opt` on StableHLO: input format by extension or `--input-format`, `--emit`, `-o`,
//! `translate`, `--custom-calls`, located errors for unsupported ops, `--allow-opaque`, and
//! value names that survive translation and optimization.

use crate::support::ptir_opt;

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
    // MLIR to MLIR keeps the text's names (`%arg0`), PTIR has only numbers: the same program.
    let same_format = stdout_ok(
        &["translate", "corpus/mlir/softmax.mlir", "--emit", "mlir"],
        "",
    );
    assert_ne!(same_format, mlir);
    let again = stdout_ok(&["translate", "-", "--input-format", "mlir"], &same_format);
    assert_eq!(again, ptir);
}

#[test]
fn optimizing_mlir_emits_mlir_with_extern_bodies_or_custom_calls() {
    let dir = std::env::temp_dir().join(format!("ptir-cli-mlir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("softmax.opt.mlir");
    let out_s = out.to_string_lossy().into_owned();
    assert_eq!(
        stdout_ok(
            &["corpus/mlir/softmax.mlir", "--cost", "tensor", "-o", &out_s],
            ""
        ),
        ""
    );
    let text = std::fs::read_to_string(&out).expect("-o wrote the file");
    assert!(text.contains("func.call @softmax_fused(%arg0)"), "{text}");
    assert!(text.contains("func.func private @softmax_fused("), "{text}");
    let kept = stdout_ok(
        &[
            "corpus/mlir/softmax.mlir",
            "--cost",
            "tensor",
            "--custom-calls",
        ],
        "",
    );
    assert!(
        kept.contains("stablehlo.custom_call @softmax_fused(%arg0)"),
        "{kept}"
    );
    assert!(!kept.contains("func.func private"), "{kept}");
    let ptir = stdout_ok(
        &[
            "corpus/mlir/softmax.mlir",
            "--cost",
            "tensor",
            "--emit",
            "ptir",
        ],
        "",
    );
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
        assert_eq!(stderr, "error: -:2:8: unsupported op 'stablehlo.fft' (--allow-opaque keeps it as an opaque call)\n");
    }
}

/// An fft and a sort (generic form, with a region) between pairs of negations.
const OPAQUE: &str = r#"func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %a : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  %2 = stablehlo.fft %1, type = FFT, length = [4] : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "stablehlo.sort"(%2) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = stablehlo.compare GT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = stablehlo.negate %3 : tensor<4xf32>
  %5 = stablehlo.negate %4 : tensor<4xf32>
  return %5 : tensor<4xf32>
}
"#;

/// The sort of [`OPAQUE`] as written, from its name on.
const SORT: &str = r#""stablehlo.sort"(%7) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = stablehlo.compare GT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>"#;

#[test]
fn unsupported_ops_are_opaque_with_allow_opaque_and_print_back_as_they_came() {
    let mlir = ["-", "--input-format", "mlir"];
    let out = ptir_opt(&mlir, OPAQUE);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: -:4:8: unsupported op 'stablehlo.fft' (--allow-opaque keeps it as an opaque call)\n"
    );
    // Translated: every line of the input comes back as it was.
    let back = stdout_ok(
        &[
            "translate",
            "-",
            "--input-format",
            "mlir",
            "--emit",
            "mlir",
            "--allow-opaque",
        ],
        OPAQUE,
    );
    for line in OPAQUE.lines().skip(1).filter(|l| !l.starts_with('}')) {
        let line = line.trim();
        let line = match line.strip_prefix("return") {
            Some(rest) => format!("func.return{rest}"),
            None => line.to_string(),
        };
        assert!(back.contains(&line), "{line:?} is not in\n{back}");
    }
    // Optimized by either engine: the negations around the opaque ops go, the ops stay as
    // they came (the fft now reads the parameter itself).
    for engine in ["greedy", "eqsat"] {
        let out = stdout_ok(
            &[&mlir[..], &["--allow-opaque", "--engine", engine]].concat(),
            OPAQUE,
        );
        assert!(!out.contains("negate"), "{engine}:\n{out}");
        assert!(
            out.contains("%7 = stablehlo.fft %a, type = FFT, length = [4] : (tensor<4xf32>) -> tensor<4xf32>\n"),
            "{engine}:\n{out}"
        );
        assert!(out.contains(&format!("%8 = {SORT}\n")), "{engine}:\n{out}");
        assert!(
            out.contains("func.return %8 : tensor<4xf32>"),
            "{engine}:\n{out}"
        );
        // The output reads back, with the same opaque ops.
        let again = stdout_ok(
            &[&mlir[..], &["--allow-opaque", "--engine", engine]].concat(),
            &out,
        );
        assert_eq!(again, out, "{engine}");
    }
    // PTIR shows an opaque op as a call of an impure extern.
    let ptir = stdout_ok(
        &["translate", "-", "--input-format", "mlir", "--allow-opaque"],
        OPAQUE,
    );
    assert!(
        ptir.contains("extern @opaque.stablehlo.fft.0(f32[4]) -> (f32[4]) impure"),
        "{ptir}"
    );
    assert!(
        ptir.contains("call @opaque.stablehlo.sort.0(%3) : f32[4]"),
        "{ptir}"
    );
}

#[test]
fn an_opaque_op_whose_region_uses_an_outer_value_is_an_error() {
    let src = OPAQUE.replace(
        "%c = stablehlo.compare GT, %p, %q",
        "%c = stablehlo.compare GT, %p, %a",
    );
    let out = ptir_opt(&["-", "--input-format", "mlir", "--allow-opaque"], &src);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: -:7:36: unsupported use of %a from outside the regions of opaque op 'stablehlo.sort'\n"
    );
}

/// The names an MLIR text defines (results, function and block parameters), in order.
fn defined_names(mlir: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in mlir.lines().map(str::trim) {
        if line.starts_with('%') {
            if let Some((lhs, _)) = line.split_once(" = ") {
                names.push(lhs.split(':').next().unwrap_or(lhs).to_string());
            }
        } else if line.starts_with("func.func") || line.starts_with("^bb") {
            for part in line.split('%').skip(1) {
                if let Some((name, _)) = part.split_once(": ") {
                    names.push(format!("%{name}"));
                }
            }
        }
    }
    names
}

/// The names of the first function of an MLIR text.
fn main_names(mlir: &str) -> Vec<String> {
    let main = mlir.split("func.func private").next().unwrap_or(mlir);
    defined_names(main)
}

#[test]
fn value_names_survive_translation_and_unchanged_values() {
    // Translation keeps every name: of constants where they are first used (a reduction's
    // identity init is not used), temporaries of the export (`%t1`: inits) aside.
    for fixture in ["mlp", "gpt2_block", "attention"] {
        let path = format!("corpus/mlir/{fixture}.mlir");
        let input = main_names(&std::fs::read_to_string(&path).expect("fixture"));
        let out = main_names(&stdout_ok(&["translate", &path, "--emit", "mlir"], ""));
        let values: Vec<&String> = input.iter().filter(|n| !n.starts_with("%cst")).collect();
        let kept: Vec<&String> = out.iter().filter(|n| input.contains(n)).collect();
        assert_eq!(
            kept.len(),
            out.iter().filter(|n| !n.starts_with("%t")).count(),
            "{fixture}"
        );
        assert!(values.iter().all(|n| out.contains(n)), "{fixture}: {out:?}");
        assert!(
            input
                .iter()
                .any(|n| n.starts_with("%cst") && out.contains(n)),
            "{fixture}"
        );
        let mut unique = out.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), out.len(), "{fixture}: a name twice");
    }
    // A program no rule changes comes out with its names, under either engine.
    let plain = "func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {\n  %e = stablehlo.exponential %x : tensor<4xf32>\n  %s = stablehlo.add %e, %y : tensor<4xf32>\n  return %s : tensor<4xf32>\n}\n";
    for engine in ["greedy", "eqsat"] {
        let out = stdout_ok(&["-", "--input-format", "mlir", "--engine", engine], plain);
        assert_eq!(
            main_names(&out),
            ["%x", "%y", "%e", "%s"],
            "{engine}:\n{out}"
        );
        assert!(
            out.contains("%e = stablehlo.exponential %x"),
            "{engine}:\n{out}"
        );
    }
    // A changed program: unchanged values keep their names, new ones get names of their own.
    for engine in ["greedy", "eqsat"] {
        let out = stdout_ok(&["corpus/mlir/mlp.mlir", "--engine", engine], "");
        let names = main_names(&out);
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(
            unique.len(),
            names.len(),
            "{engine}: a name twice in\n{out}"
        );
        assert_eq!(
            names[..5],
            ["%arg0", "%arg1", "%arg2", "%arg3", "%arg4"],
            "{engine}"
        );
        let input = main_names(&std::fs::read_to_string("corpus/mlir/mlp.mlir").unwrap());
        assert!(
            names.iter().any(|n| !input.contains(n)),
            "{engine}: the optimizer's values have new names:\n{out}"
        );
    }
    let greedy = stdout_ok(&["corpus/mlir/mlp.mlir", "--engine", "greedy"], "");
    assert!(
        greedy.contains("%0 = \"stablehlo.dot_general\"(%arg0, %arg1)"),
        "{greedy}"
    );
}

#[test]
fn ptir_value_numbers_survive_optimization_where_the_program_did_not_change() {
    let src = "func @main(%0: f32[4], %1: f32[4]) -> (f32[4], f32[4]) {\n  %5 = exp %0 : f32[4]\n  %7 = add %5, %1 : f32[4]\n  %8 = neg %7 : f32[4]\n  %9 = neg %8 : f32[4]\n  %10 = mul %9, %5 : f32[4]\n  return %10, %7\n}\n";
    // Saturation rebuilds every value (and may commute `add`): the unchanged ones get their
    // numbers back, the new `mul` a number no input value has.
    let eqsat = stdout_ok(&["-", "--input-format", "ptir", "--engine", "eqsat"], src);
    assert!(eqsat.contains("  %5 = exp %0 : f32[4]\n"), "{eqsat}");
    assert!(eqsat.contains("  %7 = add "), "{eqsat}");
    assert!(eqsat.contains("  %11 = mul "), "{eqsat}");
    assert!(eqsat.ends_with("  return %11, %7\n}\n"), "{eqsat}");
    let greedy = stdout_ok(&["-", "--input-format", "ptir", "--engine", "greedy"], src);
    assert!(
        greedy.contains("  %5 = exp %0 : f32[4]\n  %7 = add %5, %1 : f32[4]\n"),
        "{greedy}"
    );
}

/// Layernorm and both GELUs as JAX emits them (`jnp.var` in a private `@_var`, `chlo.erfc`,
/// the tanh form's `x * (0.5 * ..)`) are raised to fused calls by the bundled rules once the
/// helpers are inlined, under the FLOP-counting model (where a fused call is cheaper than its
/// body), beside softmax and the projections. Each expected call is one the bundled
/// idioms written by hand (`layernorm_fused`, `gelu_fused`) do not match.
#[test]
fn layernorm_and_gelu_as_jax_emits_them_are_fused() {
    let zoo = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/zoo");
    let cases: [(&str, &[&str]); 4] = [
        ("layernorm_var", &["layernorm_jax_fused"]),
        ("gelu_erf_elementwise", &["gelu_erfc_fused"]),
        (
            "gpt2_block_gelu_exact",
            &[
                "layernorm_jax_fused",
                "gelu_erfc_fused",
                "softmax_fused",
                "linear",
            ],
        ),
        (
            "gpt2_block_gelu_tanh",
            &[
                "layernorm_jax_fused",
                "gelu_tanh_jax_fused",
                "softmax_fused",
            ],
        ),
    ];
    for (model, calls) in cases {
        let file = format!("{zoo}/{model}.mlir");
        let args = [
            "--cost",
            "tensor",
            "--inline-calls",
            "--emit",
            "ptir",
            &file,
        ];
        let out = stdout_ok(&args, "");
        for call in calls {
            assert!(
                out.contains(&format!("call @{call}(")),
                "{model}: no {call}\n{out}"
            );
        }
        // Without the inlining, `@_var` hides the variance from the layernorm rule.
        if model == "layernorm_var" {
            let out = stdout_ok(&["--cost", "tensor", "--emit", "ptir", &file], "");
            assert!(!out.contains("layernorm_jax_fused"), "{out}");
        }
    }
}

/// Text the importer must refuse, each with a located message: a generic form whose declared
/// operand types contradict the values' own, and MLIR read as PTIR (stdin, no extension)
/// says how to read it as MLIR.
#[test]
fn contradictory_types_and_mlir_on_stdin_are_clear_errors() {
    let lying = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = \"stablehlo.add\"(%a, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n";
    let out = ptir_opt(&["translate", "-", "--input-format", "mlir"], lying);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: -:2:24: operand 1 of `stablehlo.add` is declared `tensor<4xi32>`, but %a is \
         `tensor<4xf32>`\n"
    );
    let ok = "// a comment\nfunc.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n";
    let out = ptir_opt(&["-"], ok);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).ends_with(
            "(this looks like MLIR: pass `--input-format mlir`, or name the file `*.mlir`)\n"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // PTIR with a syntax error gets no such hint.
    let out = ptir_opt(&["-"], "func @f() -> () {\n  oops\n}\n");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("looks like MLIR"));
}

/// `--split-input-file` with a bad chunk: the good chunks' output is written and the run
/// fails with the bad chunk's located error, as mlir-opt does.
#[test]
fn a_bad_chunk_does_not_suppress_the_good_ones() {
    let good =
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n";
    let bad = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.bogus %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n";
    let input = format!("{good}// -----\n{bad}// -----\n{good}");
    let out = ptir_opt(
        &["-", "--input-format", "mlir", "--split-input-file"],
        &input,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stdout.matches("func.func public @main").count(),
        2,
        "{stdout}"
    );
    assert_eq!(stdout.matches("// -----").count(), 1, "{stdout}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: -:6:8: unsupported op 'stablehlo.bogus' (--allow-opaque keeps it as an opaque call)\n"
    );
}

/// A `custom_call` prints back exactly as it came, every attribute verbatim (a Cholesky's
/// `uplo` in `backend_config` and `mhlo.backend_config`, `api_version`, layouts,
/// `has_side_effect = false`), and one target called at two signatures or with two sets of
/// attributes is two externs of the program, not a refusal.
#[test]
fn custom_calls_print_back_with_every_attribute() {
    let calls = [
        "stablehlo.custom_call @lapack_spotrf(%a) {api_version = 2 : i32, backend_config = \"uplo=L\", mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>",
        "stablehlo.custom_call @lapack_spotrf(%b) {api_version = 2 : i32, backend_config = \"uplo=L\"} : (tensor<8x8xf32>) -> tensor<8x8xf32>",
        "stablehlo.custom_call @lapack_spotrf(%0) {backend_config = \"uplo=U\", has_side_effect = false} : (tensor<4x4xf32>) -> tensor<4x4xf32>",
    ];
    let module = format!(
        "func.func @main(%a: tensor<4x4xf32>, %b: tensor<8x8xf32>) -> (tensor<4x4xf32>, tensor<8x8xf32>, tensor<4x4xf32>) {{\n  \
         %0 = {}\n  %1 = {}\n  %2 = {}\n  return %0, %1, %2 : tensor<4x4xf32>, tensor<8x8xf32>, tensor<4x4xf32>\n}}\n",
        calls[0], calls[1], calls[2]
    );
    for args in [
        &["-", "--input-format", "mlir"][..],
        &["translate", "-", "--input-format", "mlir", "--emit", "mlir"],
    ] {
        let out = stdout_ok(args, &module);
        for call in calls {
            assert!(out.contains(call), "{args:?}: {call}\n{out}");
        }
    }
    // Attributes the importer does not interpret, told apart by their text.
    let opaque_attrs = "func.func @main(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {\n  \
        %0 = stablehlo.custom_call @k(%a) {my.attr = #my.attr<1>} : (tensor<4xf32>) -> tensor<4xf32>\n  \
        %1 = stablehlo.custom_call @k(%0) {my.attr = #my.attr<2>} : (tensor<4xf32>) -> tensor<4xf32>\n  \
        return %0, %1 : tensor<4xf32>, tensor<4xf32>\n}\n";
    let out = stdout_ok(&["-", "--input-format", "mlir"], opaque_attrs);
    assert!(out.contains("@k(%a) {my.attr = #my.attr<1>}"), "{out}");
    assert!(out.contains("@k(%0) {my.attr = #my.attr<2>}"), "{out}");
    let ptir = stdout_ok(&["translate", "-", "--input-format", "mlir"], &module);
    for decl in [
        "extern @lapack_spotrf(f32[4,4]) -> (f32[4,4]) impure",
        "extern @lapack_spotrf.1(f32[8,8]) -> (f32[8,8]) impure",
        "extern @lapack_spotrf.2(f32[4,4]) -> (f32[4,4]) impure",
    ] {
        assert!(ptir.contains(decl), "{decl}\n{ptir}");
    }
}

/// `precision_config` of a `dot_general` (pretty `precision = [...]` or generic) is kept
/// through translation both ways and optimization: a GPU or TPU backend computes `DEFAULT`
/// f32 products in fewer bits, so dropping `HIGHEST` would change the results there.
#[test]
fn dot_precision_survives_translation_and_optimization() {
    let module = "func.func @main(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {\n  \
        %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [HIGHEST, HIGH] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>\n  \
        return %0 : tensor<4x4xf32>\n}\n";
    let kept = "precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGH>]";
    let ptir = stdout_ok(&["translate", "-", "--input-format", "mlir"], module);
    assert!(
        ptir.contains("lhs_precision=highest rhs_precision=high"),
        "{ptir}"
    );
    for args in [&["-", "--input-format", "mlir"][..], &["translate", "-"]] {
        let input = if args[0] == "translate" {
            &ptir
        } else {
            module
        };
        let out = stdout_ok(args, input);
        assert!(out.contains(kept), "{args:?}\n{out}");
    }
    let bad = module.replace("HIGH]", "FAST]");
    let out = ptir_opt(&["translate", "-", "--input-format", "mlir"], &bad);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: -:2:8: unknown precision `FAST`\n"
    );
}

/// JAX's `lax.scan` (a 32-step GRU) and `lax.fori_loop` (16 stencil steps) come out written
/// out by default, the report saying so, with the input's results; `--unroll-limit 0`, or a
/// limit below the trip count, keeps the loop.
#[test]
fn jax_loops_with_static_trip_counts_are_unrolled_unless_told_not_to() {
    for (model, trips) in [("gru_scan", 32), ("heat_fori_loop", 16)] {
        let path = format!("corpus/zoo/{model}.mlir");
        let out = ptir_opt(&[&path, "--report", "--validate=4"], "");
        let (stdout, stderr) = (
            crate::support::text(&out.stdout),
            crate::support::text(&out.stderr),
        );
        assert!(out.status.success(), "{stderr}");
        assert!(!stdout.contains("stablehlo.while"), "{model}:\n{stdout}");
        let note = format!("unrolled 1 loop(s) with a static trip count ({trips} iterations");
        assert!(stderr.contains(&note), "{model}:\n{stderr}");
        for limit in ["0", &(trips - 1).to_string()] {
            let kept = stdout_ok(&[&path, "--unroll-limit", limit], "");
            assert!(
                kept.contains("stablehlo.while"),
                "{model} --unroll-limit {limit}"
            );
        }
    }
}
