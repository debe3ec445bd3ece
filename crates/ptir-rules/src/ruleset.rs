//! [`RuleSet`]: every rule of a set of files, checked together, and filtered as MLIR's
//! `FrozenRewritePatternSet` filters patterns (by name or label; disabled wins).

use crate::ast::{Rule, FAST_MATH};
use crate::error::RuleError;
use crate::parse::{parse_rules, ExternSpec};
use crate::registry::Registry;
use indexmap::IndexMap;

/// The rule files bundled with the library (`rules/*.rules`), as (file name, text).
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "rules/canonicalize.rules",
        include_str!("../../../rules/canonicalize.rules"),
    ),
    (
        "rules/tensor.rules",
        include_str!("../../../rules/tensor.rules"),
    ),
    (
        "rules/algebra.rules",
        include_str!("../../../rules/algebra.rules"),
    ),
    (
        "rules/fusion.rules",
        include_str!("../../../rules/fusion.rules"),
    ),
];

/// A checked set of rules with the registry they were checked against.
#[derive(Clone, Debug)]
pub struct RuleSet {
    rules: Vec<Rule>,
    externs: IndexMap<String, ExternSpec>,
    registry: Registry,
}

/// Which rules to keep: by name or label. An empty `enabled` list keeps everything not
/// disabled; a rule both enabled and disabled is disabled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleFilter {
    /// Names or labels to keep (empty: all).
    pub enabled: Vec<String>,
    /// Names or labels to drop.
    pub disabled: Vec<String>,
}

impl RuleFilter {
    /// The default of both engines: everything but `fast-math` rules.
    pub fn exact() -> Self {
        RuleFilter {
            enabled: Vec::new(),
            disabled: vec![FAST_MATH.to_string()],
        }
    }

    /// Does the filter keep `rule`?
    pub fn keeps(&self, rule: &Rule) -> bool {
        let named = |keys: &[String]| keys.iter().any(|k| *k == rule.name || rule.has_label(k));
        !named(&self.disabled) && (self.enabled.is_empty() || named(&self.enabled))
    }
}

impl RuleSet {
    /// An empty set checked against `registry`.
    pub fn new(registry: Registry) -> Self {
        RuleSet {
            rules: Vec::new(),
            externs: IndexMap::new(),
            registry,
        }
    }

    /// The bundled `rules/` library, checked against [`Registry::standard`].
    ///
    /// ```
    /// let rules = ptir_rules::RuleSet::bundled().unwrap();
    /// assert!(rules.rule("mul-one").is_some());
    /// ```
    pub fn bundled() -> Result<Self, RuleError> {
        let mut set = RuleSet::new(Registry::standard());
        for (file, text) in BUNDLED {
            set.add_source(file, text)?;
        }
        Ok(set)
    }

    /// Parses and checks one rule file's text and adds its rules; `file` names it in errors.
    /// A rule whose name is already in the set is an error.
    pub fn add_source(&mut self, file: &str, text: &str) -> Result<(), RuleError> {
        let contents = parse_rules(file, text, &self.registry)?;
        for e in contents.externs {
            self.externs.insert(e.name.clone(), e);
        }
        for rule in contents.rules {
            self.add_rule(rule)?;
        }
        Ok(())
    }

    /// Adds an already-built rule (e.g. from a `.pat` file), rejecting duplicate names.
    pub fn add_rule(&mut self, rule: Rule) -> Result<(), RuleError> {
        if let Some(prev) = self.rules.iter().find(|r| r.name == rule.name) {
            return Err(RuleError::new(
                &rule.location.file,
                rule.location.line,
                Some(rule.name.clone()),
                format!("duplicate rule name (first defined at {})", prev.location),
            ));
        }
        self.rules.push(rule);
        Ok(())
    }

    /// Declares an extern that rule results may call.
    pub fn add_extern(&mut self, e: ExternSpec) {
        self.externs.insert(e.name.clone(), e);
    }

    /// All rules, in load order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The rule named `name`.
    pub fn rule(&self, name: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.name == name)
    }

    /// The externs rule results may call.
    pub fn externs(&self) -> &IndexMap<String, ExternSpec> {
        &self.externs
    }

    /// The registry the rules were checked against (engines evaluate constraints with it).
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The rules `filter` keeps, in load order.
    pub fn filtered(&self, filter: &RuleFilter) -> RuleSet {
        RuleSet {
            rules: self
                .rules
                .iter()
                .filter(|r| filter.keeps(r))
                .cloned()
                .collect(),
            externs: self.externs.clone(),
            registry: self.registry.clone(),
        }
    }

    /// Names of rules without a doc comment saying why they are true.
    pub fn undocumented(&self) -> Vec<&str> {
        self.rules
            .iter()
            .filter(|r| r.doc.trim().is_empty())
            .map(|r| r.name.as_str())
            .collect()
    }
}
