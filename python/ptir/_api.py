"""The text API: ``optimize`` and ``compare_cost_models`` on StableHLO or PTIR text."""

import json
import os

from . import _ptir

RUNTIMES = ("xla-cpu", "iree-cpu")
"""The runtimes an output can be optimized for (``runtime=``)."""


def _paths(rules):
    """``rules=``: None, one path, or several (files or directories of rule files)."""
    if rules is None:
        return []
    if isinstance(rules, (str, os.PathLike)):
        rules = [rules]
    return [os.fspath(r) for r in rules]


def _names(names):
    """``enable=`` / ``disable=``: None, one rule name or label, or several."""
    if names is None:
        return []
    if isinstance(names, str):
        return [names]
    return list(names)


def _options(*, engine="eqsat", fast_math=False, cost="roofline", runtime=None, rules=None,
             bundled_rules=True, enable=None, disable=None, time_limit=None, unroll_limit=None,
             iter_limit=None, node_limit=None, validate=None, format=None, allow_opaque=False,
             inline_calls=False, custom_calls=False):
    """The options dict the native calls read: every key, lists normalized."""
    return dict(engine=engine, fast_math=fast_math, cost=cost, runtime=runtime,
                rules=_paths(rules), bundled_rules=bundled_rules, enable=_names(enable),
                disable=_names(disable), time_limit=time_limit, unroll_limit=unroll_limit,
                iter_limit=iter_limit, node_limit=node_limit, validate=validate, format=format,
                allow_opaque=allow_opaque, inline_calls=inline_calls, custom_calls=custom_calls)


class Result:
    """What :func:`optimize` returns.

    Attributes:
        text: the optimized module, in the input's format.
        format: ``"mlir"`` or ``"ptir"``.
        report: the report as Python data (the fields of ``ptir-opt --report-json``).

    ``str(result)`` is the report as ``ptir-opt --report`` prints it.
    """

    __slots__ = ("text", "format", "report", "_report_text")

    def __init__(self, text, format, report, report_text):
        self.text = text
        self.format = format
        self.report = report
        self._report_text = report_text

    @property
    def speedup(self):
        """Predicted speedup: the cost before over the cost after, under the cost model."""
        after = self.report.get("cost_after", 0.0)
        return self.report.get("cost_before", 0.0) / after if after else float("inf")

    def __str__(self):
        return self._report_text

    def __repr__(self):
        counts = self.report.get("instructions", {})
        return (
            f"<ptir.Result {self.format}: {counts.get('before')} -> {counts.get('after')} "
            f"instructions, predicted {self.speedup:.2f}x>"
        )


def optimize(
    text,
    *,
    engine="eqsat",
    fast_math=False,
    cost="roofline",
    runtime=None,
    rules=None,
    bundled_rules=True,
    enable=None,
    disable=None,
    time_limit=None,
    unroll_limit=None,
    iter_limit=None,
    node_limit=None,
    validate=None,
    format=None,
    allow_opaque=False,
    inline_calls=False,
    custom_calls=False,
):
    """Optimizes a StableHLO MLIR (or PTIR) text; returns a :class:`Result`.

    The options are the command line's: ``engine`` (``"eqsat"`` or ``"greedy"``),
    ``fast_math`` (rules exact only over the reals), ``cost`` (``"roofline"``, ``"tensor"``,
    ``"ops"`` or ``"measured=FILE"``), ``runtime`` (one of :data:`RUNTIMES`; None is the
    library's default), ``rules`` (extra rule files or directories), ``bundled_rules``,
    ``enable``/``disable`` (rule names or labels), ``time_limit`` (seconds, the whole
    program), ``unroll_limit`` (0 unrolls nothing), ``iter_limit``, ``node_limit``,
    ``validate`` (run input and output on that many random input sets and refuse a
    difference), ``format`` (``"mlir"``/``"ptir"``, None: from the text), ``allow_opaque``,
    ``inline_calls``, ``custom_calls``. The GIL is released while it runs.

    Raises :class:`ptir.Error` (a subclass naming the kind) with the command line's message.
    """
    if not isinstance(text, str):
        raise TypeError(f"ptir.optimize takes the module as text (str), not {type(text).__name__}")
    options = _options(engine=engine, fast_math=fast_math, cost=cost, runtime=runtime,
                       rules=rules, bundled_rules=bundled_rules, enable=enable, disable=disable,
                       time_limit=time_limit, unroll_limit=unroll_limit, iter_limit=iter_limit,
                       node_limit=node_limit, validate=validate, format=format,
                       allow_opaque=allow_opaque, inline_calls=inline_calls,
                       custom_calls=custom_calls)
    out, fmt, report, report_text = _ptir.optimize(text, options)
    return Result(out, fmt, json.loads(report), report_text)


class CostComparison:
    """What :func:`compare_cost_models` returns: ``input`` (the input's cost under each model)
    and ``rows`` (one dict per (model, extractor) pair: ``model``, ``extractor``, ``costs``,
    ``extract_seconds``, ``optimal``, ``instructions``). ``str()`` is the table ``ptir-opt
    compare`` prints."""

    __slots__ = ("input", "rows", "_text")

    def __init__(self, data, text):
        self.input = data["input"]
        self.rows = data["rows"]
        self._text = text

    def __iter__(self):
        return iter(self.rows)

    def __len__(self):
        return len(self.rows)

    def __str__(self):
        return self._text

    def __repr__(self):
        return f"<ptir.CostComparison of {len(self.rows)} rows>"


def compare_cost_models(
    text,
    *,
    costs=("ops", "tensor", "roofline"),
    extractors=("tree", "dag-greedy", "exact"),
    fast_math=False,
    rules=None,
    bundled_rules=True,
    time_limit=None,
    iter_limit=None,
    node_limit=None,
    format=None,
):
    """Saturates ``text`` once and extracts with every (cost model, extractor) pair of
    ``costs`` x ``extractors``; each row prices its program under every model. Returns a
    :class:`CostComparison` (the table ``ptir-opt compare`` prints, as data)."""
    options = _options(fast_math=fast_math, rules=rules, bundled_rules=bundled_rules,
                       time_limit=time_limit, iter_limit=iter_limit, node_limit=node_limit,
                       format=format)
    data, table = _ptir.compare_cost_models(text, _names(costs), _names(extractors), options)
    return CostComparison(json.loads(data), table)
