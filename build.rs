//! Compiles the bundled rule library (`rules/*.rules`, `rules/*.pat`, as `ptir-rules`
//! embeds them) into a compiled rule library (`ptir_rules::compiled`) in `OUT_DIR`, which
//! `ptir::load_rules` loads instead of parsing the library's text on every run: the text
//! takes about 1.8 ms to parse and check, the compiled library about 0.5 ms to load (a
//! process on a small program spent a third of its time parsing otherwise).
//!
//! The library is made from the texts the `ptir-rules` this crate links embeds, so it cannot
//! go stale; `load_rules` still parses the text should it fail to load (a test checks that
//! both give the same rules).

use std::error::Error;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo:rerun-if-changed=rules");
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("cargo sets no OUT_DIR")?);
    let library = ptir_rules::RuleSet::bundled()?.to_compiled()?;
    std::fs::write(out.join("bundled.ptrl"), library)?;
    Ok(())
}
