//! A 100,000-instruction chain through the printer, the parser, the verifier and the
//! interpreter on a 2 MiB stack (no recursion whose depth follows the input size).
//!
//! The printer and the interpreter walk a block's instructions in a loop and recurse only into
//! nested regions (bounded by the parser's `NESTING_LIMIT`) and calls (bounded by the
//! interpreter's call depth limit); this test keeps it that way.

use ptir_ir::generate::{generate_chain, random_inputs};

const CHAIN: usize = 100_000;

fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("a thread starts")
        .join()
        .expect("no panic, no stack overflow");
}

#[test]
fn a_100k_chain_prints_and_parses_back() {
    on_small_stack(|| {
        let program = generate_chain(CHAIN);
        let text = ptir_ir::print(&program);
        assert_eq!(text.lines().count(), CHAIN + 3);
        let parsed = ptir_ir::parse(&text).expect("the printed chain parses");
        assert_eq!(parsed, program);
        ptir_ir::verify(&parsed).expect("the chain verifies");
    });
}

#[test]
fn a_100k_chain_runs_in_the_interpreter() {
    on_small_stack(|| {
        let program = generate_chain(CHAIN);
        let f = &program.functions[0];
        let inputs = random_inputs(f, 7);
        let out = ptir_ir::run(&program, &f.name, &inputs).expect("the chain runs");
        assert_eq!(out.len(), 1);
    });
}
