"""The text API: `ptir.optimize` and `ptir.compare_cost_models` on the corpus, errors as
exceptions with locations, options checked."""

import glob
import os
import threading

import pytest

import ptir
from conftest import ROOT, read

CORPUS = sorted(glob.glob(os.path.join(ROOT, "corpus", "*.ptir"))) + sorted(
    glob.glob(os.path.join(ROOT, "corpus", "mlir", "*.mlir"))
)


@pytest.mark.parametrize("path", CORPUS, ids=os.path.basename)
def test_the_corpus_optimizes_and_the_output_reads_back(path):
    with open(path) as fh:
        text = fh.read()
    result = ptir.optimize(text, time_limit=10)
    assert result.format == ("mlir" if path.endswith(".mlir") else "ptir")
    counts = result.report["instructions"]
    assert counts["after"] <= counts["before"] or result.report["rules_fired"]
    assert result.report["cost_after"] <= result.report["cost_before"] * 1.0001
    assert str(result).startswith("engine: eqsat (for iree-cpu)\n")
    # The output is a program the optimizer reads again.
    again = ptir.optimize(result.text, time_limit=10)
    assert again.format == result.format


def test_the_report_has_the_json_reports_fields():
    result = ptir.optimize(read("corpus", "softmax.ptir"))
    for field in ("engine", "runtime", "instructions", "cost_model", "cost_before",
                  "cost_after", "stops", "phases", "rules_fired"):
        assert field in result.report, field
    assert result.report["runtime"] == "iree-cpu"
    assert result.speedup >= 1.0
    assert "instructions" in repr(result)


def test_the_runtime_decides_the_loops():
    # The zoo's scan: written out for IREE, kept a loop for XLA.
    text = read("corpus", "zoo", "gru_scan.mlir")
    iree = ptir.optimize(text, runtime="iree-cpu")
    xla = ptir.optimize(text, runtime="xla-cpu")
    assert "stablehlo.while" not in iree.text
    assert "stablehlo.while" in xla.text
    assert xla.report["runtime"] == "xla-cpu"
    # An explicit limit wins over the runtime's.
    assert "stablehlo.while" not in ptir.optimize(text, runtime="xla-cpu", unroll_limit=256).text


def test_parse_errors_are_located():
    with pytest.raises(ptir.ParseError) as e:
        ptir.optimize("func @f() -> () {\n  %1 = frob : f32[]\n}")
    assert str(e.value) == "2:8: unknown op `frob`"
    assert (e.value.line, e.value.column) == (2, 8)
    assert isinstance(e.value, ptir.Error)
    with pytest.raises(ptir.ParseError) as e:
        ptir.optimize("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 stablehlo.add %a, %a : tensor<4xf32>\n")
    assert (e.value.line, e.value.column) == (2, 6), str(e.value)
    with pytest.raises(ptir.VerifyError) as e:
        ptir.optimize("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}")
    assert (e.value.line, e.value.column) == (2, 8), str(e.value)
    assert repr(e.value).startswith("VerifyError(") and type(e.value).__module__ == "ptir"


def test_an_unsupported_op_is_named_with_its_location():
    text = (
        "func.func @main(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {\n"
        "  %0 = stablehlo.fft %a, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>\n"
        "  return %0 : tensor<4xcomplex<f32>>\n}\n"
    )
    with pytest.raises(ptir.UnsupportedOp) as e:
        ptir.optimize(text)
    assert e.value.line is not None and str(e.value).startswith(f"{e.value.line}:")


def test_an_invalid_program_is_a_verify_error():
    with pytest.raises(ptir.VerifyError) as e:
        ptir.optimize("func @f(%x: f32[2]) -> (f32[3]) {\n  return %x\n}")
    assert "does not verify" in str(e.value)


def test_empty_text_is_refused():
    with pytest.raises(ptir.ParseError, match="defines no function"):
        ptir.optimize("// nothing here\n")
    with pytest.raises(TypeError):
        ptir.optimize(b"func @f() -> () {\n  return\n}")


def test_rule_errors_name_the_file(tmp_path):
    with pytest.raises(ptir.RuleError, match="no-such.rules"):
        ptir.optimize(read("corpus", "softmax.ptir"), rules=str(tmp_path / "no-such.rules"))
    bad = tmp_path / "bad.rules"
    bad.write_text("(rule broken (add ?x) =>\n")
    with pytest.raises(ptir.RuleError, match="bad.rules:1"):
        ptir.optimize(read("corpus", "softmax.ptir"), rules=bad)
    with pytest.raises(ptir.RuleError, match="no-such-rule"):
        ptir.optimize(read("corpus", "softmax.ptir"), disable="no-such-rule")


def test_user_rules_apply(tmp_path):
    mine = tmp_path / "mine.rules"
    mine.write_text("(rule my-neg-neg (neg (neg ?x)) => ?x)\n")
    text = "func @f(%x: f32[4]) -> (f32[4]) {\n  %a = neg %x : f32[4]\n  %b = neg %a : f32[4]\n  return %b\n}"
    result = ptir.optimize(text, rules=[mine], bundled_rules=False)
    assert [r["rule"] for r in result.report["rules_fired"]] == ["my-neg-neg"]
    assert result.report["instructions"]["after"] == 0


@pytest.mark.parametrize(
    "kwargs",
    [dict(time_limit=-1.0), dict(time_limit=float("nan")), dict(unroll_limit=-1),
     dict(iter_limit=0), dict(node_limit=0), dict(validate=0)],
    ids=str,
)
def test_impossible_limits_are_limit_errors(kwargs):
    with pytest.raises(ptir.LimitError, match=next(iter(kwargs))):
        ptir.optimize(read("corpus", "softmax.ptir"), **kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [dict(engine="fast"), dict(cost="flops"), dict(runtime="tpu"), dict(format="hlo"),
     dict(cost="measured")],
    ids=str,
)
def test_unknown_options_are_options_errors(kwargs):
    with pytest.raises(ptir.OptionsError):
        ptir.optimize(read("corpus", "softmax.ptir"), **kwargs)


def test_a_time_limit_of_zero_is_honored():
    result = ptir.optimize(read("corpus", "mlir", "gpt2_small.mlir"), time_limit=0)
    stops = [s["reason"] for s in result.report["stops"]]
    assert stops and all(s == "time-limit" for s in stops), stops


def test_validation_runs_when_asked():
    result = ptir.optimize(read("corpus", "softmax.ptir"), validate=4)
    assert result.report["validation"]["seeds"] == 4


def test_the_greedy_engine():
    result = ptir.optimize(read("corpus", "softmax.ptir"), engine="greedy")
    assert result.report["engine"] == "greedy"


def test_the_gil_is_released_while_optimizing():
    text = read("corpus", "mlir", "gpt2_small.mlir")
    done = threading.Event()
    ticks = 0

    def work():
        ptir.optimize(text, time_limit=30)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        ticks += 1
        done.wait(0.001)
    worker.join()
    # With the GIL held for the whole optimization this thread could not have looped.
    assert ticks > 10, ticks


def test_compare_cost_models_returns_the_table_as_data():
    table = ptir.compare_cost_models(read("corpus", "softmax.ptir"), costs=["ops", "roofline"],
                                     extractors=["tree", "exact"])
    assert [(r["model"], r["extractor"]) for r in table] == [
        ("ops", "tree"), ("ops", "exact"), ("roofline", "tree"), ("roofline", "exact")]
    assert set(table.input) == {"ops", "roofline"}
    for row in table:
        assert set(row["costs"]) == {"ops", "roofline"}
        assert row["costs"]["ops"] <= table.input["ops"]
    assert str(table).startswith("model")
    with pytest.raises(ptir.OptionsError):
        ptir.compare_cost_models(read("corpus", "softmax.ptir"), extractors=["chaos"])
    with pytest.raises(ptir.OptionsError):
        ptir.compare_cost_models(read("corpus", "softmax.ptir"), costs=[])
    # Read as ptir.optimize reads: an empty text is refused, errors are located.
    with pytest.raises(ptir.ParseError, match="defines no function"):
        ptir.compare_cost_models("// nothing here\n")
    with pytest.raises(ptir.ParseError) as e:
        ptir.compare_cost_models("func @f() -> () {\n  %1 = frob : f32[]\n}")
    assert (e.value.line, e.value.column) == (2, 8)
