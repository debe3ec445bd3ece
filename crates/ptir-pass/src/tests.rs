//! The pipeline text and the pass manager's units, verification and reports.

use crate::explain::Provenance;
use crate::{Pass, PassError, PassOptions, PassRegistry, PassReport, PipelineError};
use ptir_ir::Program;
use std::cell::RefCell;
use std::rc::Rc;

/// Records its name in `log` when it runs; with `nests`, runs the following `Log` passes
/// that nest with itself as one unit.
struct Log {
    name: &'static str,
    nests: bool,
    log: Rc<RefCell<Vec<String>>>,
}

impl Pass for Log {
    fn name(&self) -> &str {
        self.name
    }

    fn run(&self, _: &mut Program) -> Result<PassReport, PassError> {
        self.log.borrow_mut().push(self.name.to_string());
        Ok(PassReport::new(self.name, false, 0))
    }

    fn run_nested(
        &self,
        next: &[Box<dyn Pass>],
        program: &mut Program,
        _: Option<&mut Provenance>,
    ) -> Option<Result<Vec<PassReport>, PassError>> {
        if !self.nests {
            return None;
        }
        let unit: Vec<&dyn Pass> = std::iter::once(self as &dyn Pass)
            .chain(next.iter().map(|p| p.as_ref()).take_while(|p| {
                let any: &dyn std::any::Any = *p;
                any.downcast_ref::<Log>().is_some_and(|l| l.nests)
            }))
            .collect();
        self.log
            .borrow_mut()
            .push(format!("unit of {}", unit.len()));
        Some(unit.iter().map(|p| p.run(program)).collect())
    }
}

/// Always fails with an I/O error, its engine's.
struct Fails;

impl Pass for Fails {
    fn name(&self) -> &str {
        "fails"
    }

    fn run(&self, _: &mut Program) -> Result<PassReport, PassError> {
        Err(PassError::failed("fails", std::io::Error::other("no luck")))
    }
}

fn registry(log: &Rc<RefCell<Vec<String>>>) -> PassRegistry {
    let mut r = PassRegistry::new();
    for (name, nests) in [("a", false), ("b", true), ("c", false)] {
        let log = log.clone();
        r.register(name, "logs", move |o: &PassOptions| {
            o.expect_none(name)?;
            Ok(Box::new(Log {
                name,
                nests,
                log: log.clone(),
            }))
        });
    }
    r.register("fails", "fails", |_: &PassOptions| Ok(Box::new(Fails)));
    r
}

#[test]
fn pipeline_text_errors_give_the_column_of_the_pass() {
    let r = registry(&Rc::default());
    let err = |text: &str| r.parse(text).unwrap_err();
    assert!(matches!(err(""), PipelineError::EmptyPass { col: 1, .. }));
    assert!(matches!(
        err("a,,b"),
        PipelineError::EmptyPass { col: 3, .. }
    ));
    assert!(matches!(
        err("a,  zz"),
        PipelineError::UnknownPass { col: 5, .. }
    ));
    for bad in ["a{x}", "a{x=1", "a}", "a{x=1}{y=2}", "a{x=1 x=2}"] {
        assert!(
            matches!(err(bad), PipelineError::Options { col: 1, .. }),
            "{bad}: {}",
            err(bad)
        );
    }
    let e = err("b, a{k=v}");
    assert_eq!(
        e.to_string(),
        "pass pipeline `b, a{k=v}`: pass `a` at column 4: `a` takes no options (got `k`)"
    );
    assert_eq!(r.parse("a , b,c").unwrap().names(), ["a", "b", "c"]);
}

#[test]
fn a_pass_runs_the_passes_it_can_with_itself_and_the_unit_is_verified_once() {
    let log = Rc::default();
    let pm = registry(&log).parse("a,b,b,c,b").unwrap();
    let mut p = Program::default();
    let report = pm.with_verify_each(true).run(&mut p).unwrap();
    assert_eq!(
        *log.borrow(),
        ["a", "unit of 2", "b", "b", "c", "unit of 1", "b"]
    );
    let names: Vec<&str> = report.passes.iter().map(|r| r.pass.as_str()).collect();
    assert_eq!(names, ["a", "b", "b", "c", "b"]);
    // a | b, b | c | b
    assert_eq!(report.verifications, 4);
}

#[test]
fn with_the_ir_after_each_pass_every_pass_runs_alone() {
    let log = Rc::default();
    let pm = registry(&log)
        .parse("b,b")
        .unwrap()
        .with_ir_after_each(true);
    let report = pm.run(&mut Program::default()).unwrap();
    assert_eq!(*log.borrow(), ["b", "b"]);
    assert!(report.passes.iter().all(|r| r.ir_after.is_some()));
    assert_eq!(report.verifications, 0);
}

#[test]
fn an_engine_error_is_the_source_and_the_message() {
    let pm = registry(&Rc::default()).parse("a,fails,c").unwrap();
    let e = pm.run(&mut Program::default()).unwrap_err();
    assert_eq!(e.to_string(), "no luck");
    assert_eq!(e.pass(), "fails");
    assert!(e.downcast_ref::<std::io::Error>().is_some());
    assert!(std::error::Error::source(&e).is_some());
}
