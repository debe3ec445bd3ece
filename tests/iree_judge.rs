//! IREE as the independent judge of the MLIR path: for every JAX fixture in `corpus/mlir/`,
//! `translate` (import, export) and the default optimization (import, optimize, export) must
//! give modules that IREE compiles (llvm-cpu) and runs with the same results as the input,
//! on seeded random inputs (`scripts/iree_check.py`).
//!
//! The tools come from a Python venv with `scripts/requirements.txt` installed: `$PTIR_VENV`,
//! else `.venv` in the repository. When it is missing the test prints a notice and passes,
//! except under `CI=true`, where it fails (`.ci/run` installs the venv).

use ptir::format::{read_program, write_program, Format, WriteOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The venv's python, if it has the IREE compiler.
fn venv_python() -> Option<PathBuf> {
    let venv = std::env::var_os("PTIR_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(".venv"));
    let python = venv.join("bin/python");
    (python.exists() && venv.join("bin/iree-compile").exists()).then_some(python)
}

/// Runs the check of `candidates` against `reference`; its report on success, else an error.
fn check(python: &Path, reference: &Path, candidates: &[PathBuf]) -> Result<String, String> {
    let out = Command::new(python)
        .arg(root().join("scripts/iree_check.py"))
        .arg(reference)
        .args(candidates)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(text)
    } else {
        Err(text)
    }
}

#[test]
fn iree_runs_translated_and_optimized_fixtures_with_the_inputs_results() {
    let Some(python) = venv_python() else {
        let msg = "NOTICE: no venv with IREE ($PTIR_VENV or .venv; see scripts/requirements.txt); \
                   skipping the IREE judge";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg} (required under CI=true)");
        }
        // Straight to the stderr handle: the harness captures `println!`/`eprintln!` of
        // passing tests, and this notice must show in normal test output.
        let _ = writeln!(std::io::stderr(), "{msg}");
        return;
    };
    let dir = root().join("corpus/mlir");
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus/mlir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        // The generic twins import to the same programs (tests in ptir-mlir).
        .filter(|p| !p.to_string_lossy().ends_with(".generic.mlir"))
        .collect();
    fixtures.sort();
    let tmp = std::env::temp_dir().join(format!("ptir-iree-judge-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut failures = Vec::new();
    for fixture in &fixtures {
        let name = fixture.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(fixture).expect("fixture");
        let program = read_program(&text, Format::Mlir).expect("fixture imports");
        let optimized = ptir::optimize(&program, &ptir::Options::default())
            .expect("fixture optimizes")
            .program;
        let mut candidates = Vec::new();
        for (what, p) in [("translated", &program), ("optimized", &optimized)] {
            let out = write_program(p, Format::Mlir, &WriteOptions::default()).expect("exports");
            let path = tmp.join(format!("{name}.{what}.mlir"));
            std::fs::write(&path, out).expect("write");
            candidates.push(path);
        }
        match check(&python, fixture, &candidates) {
            Ok(report) => print!("{name}: IREE agrees\n{report}"),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
