//! `compare_cost_models`: several (cost model, extractor) pairs on one saturated e-graph.

use crate::optimize::load_rules_for;
use crate::options::{Cost, Options};
use crate::Error;
use ptir_cost::format_cost;
use ptir_egraph::{Comparison, ExtractorKind};
use ptir_ir::Program;
use std::fmt;

/// The result of [`compare_cost_models`]: one row per (model, extractor) pair.
#[derive(Clone, Debug)]
pub struct CostComparison {
    /// The rows, in the order the pairs were given.
    pub rows: Vec<Comparison>,
    /// The input's cost under each model.
    pub input_costs: Vec<ModelCost>,
}

/// A program's cost under one cost model.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelCost {
    /// The model's name.
    pub model: String,
    /// The cost.
    pub cost: f64,
}

impl CostComparison {
    /// The table as JSON: `input` (the input's cost under each model) and one object per row
    /// (`model`, `extractor`, `costs` under each model, `extract_seconds`, `optimal`,
    /// `instructions`), in the order of the rows.
    pub fn to_json(&self) -> serde_json::Value {
        let costs = |c: &mut dyn Iterator<Item = (&String, f64)>| {
            serde_json::Value::Object(c.map(|(m, v)| (m.clone(), v.into())).collect())
        };
        let rows = self.rows.iter().map(|r| {
            serde_json::json!({
                "model": r.model,
                "extractor": r.extractor.name(),
                "costs": costs(&mut r.costs.iter().map(|(m, c)| (m, *c))),
                "extract_seconds": r.extract_time.as_secs_f64(),
                "optimal": r.optimal,
                "instructions": r.program.num_insts(),
            })
        });
        serde_json::json!({
            "input": costs(&mut self.input_costs.iter().map(|c| (&c.model, c.cost))),
            "rows": rows.collect::<Vec<_>>(),
        })
    }
}

impl fmt::Display for CostComparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:<10} {:<10}", "model", "extractor")?;
        for c in &self.input_costs {
            write!(f, " {:>14}", format!("cost:{}", c.model))?;
        }
        writeln!(f, " {:>12} {:>8} {:>6}", "extract", "optimal", "insts")?;
        write!(f, "{:<10} {:<10}", "(input)", "")?;
        for c in &self.input_costs {
            write!(f, " {:>14}", format_cost(c.cost))?;
        }
        writeln!(f)?;
        for r in &self.rows {
            write!(f, "{:<10} {:<10}", r.model, r.extractor.name())?;
            for (_, c) in &r.costs {
                write!(f, " {:>14}", format_cost(*c))?;
            }
            writeln!(
                f,
                " {:>12} {:>8} {:>6}",
                format!("{:.2?}", r.extract_time),
                r.optimal,
                r.program.num_insts()
            )?;
        }
        Ok(())
    }
}

/// Saturates `program` once (rules and limits from `options`) and extracts with every
/// `(model, extractor)` pair; each row prices its program under every model of `pairs`.
///
/// ```
/// use ptir::{Cost, Options};
/// use ptir::egraph::ExtractorKind;
/// let program = ptir::ir::parse(&std::fs::read_to_string("corpus/softmax.ptir")?)?;
/// let table = ptir::compare_cost_models(&program, &Options::default(), &[
///     (Cost::Ops, ExtractorKind::Tree),
///     (Cost::Tensor, ExtractorKind::Tree),
///     (Cost::Roofline, ExtractorKind::DagGreedy),
/// ])?;
/// assert_eq!(table.rows.len(), 3);
/// println!("{table}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compare_cost_models(
    program: &Program,
    options: &Options,
    pairs: &[(Cost, ExtractorKind)],
) -> Result<CostComparison, Error> {
    ptir_ir::verify(program)?;
    let mut rules = load_rules_for(options, program)?;
    rules.rename_externs_for(program);
    let models: Vec<_> = pairs
        .iter()
        .map(|(c, k)| (c.model(&rules, program, options.runtime), *k))
        .collect();
    let rows = ptir_egraph::compare(program, &rules, &options.saturation(), &models)?;
    let mut input_costs: Vec<ModelCost> = Vec::new();
    for (m, _) in &models {
        if !input_costs.iter().any(|c| c.model == m.name()) {
            input_costs.push(ModelCost {
                model: m.name().to_string(),
                cost: ptir_cost::program_cost(program, m.as_ref()),
            });
        }
    }
    Ok(CostComparison { rows, input_costs })
}
