//! The parser and the verifier never panic: 100k+ random and mutated inputs each give an `Ok`
//! or an `Err`. Mutations start from the corpus, so most inputs are nearly valid programs and
//! reach deep into the parser; those that still parse are verified, and those that verify must
//! print and parse back identical.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Fragments spliced into inputs: every token class of the format, plus troublemakers.
const DICTIONARY: &[&str] = &[
    "%0",
    "%x",
    "%99999999999",
    "@f",
    "@",
    "%",
    "func",
    "extern",
    "pure",
    "impure",
    "return",
    "yield",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "^(",
    "):",
    ",",
    ":",
    "=",
    "->",
    "f32[",
    "i32[]",
    "bool[2,2]",
    "(f32[], (i64[3]))",
    "constant",
    "splat(",
    "dense([",
    "nan",
    "-inf",
    "1e309",
    "-0.0",
    "18446744073709551616",
    "transpose",
    "perm=[1,0]",
    "dims=[",
    "axes=[0]",
    "keep_dims=true",
    "while",
    "cond",
    "scan",
    "num_carry=1",
    "length=0",
    "call @f(",
    "rng normal",
    "tuple_get",
    "index=7",
    "dot_general",
    "lhs_contract=[1]",
    "é",
    "\u{0}",
    "\n",
    "//",
    "  ",
];

fn corpus() -> Vec<String> {
    let texts = ptir_test_support::corpus_texts();
    texts.into_iter().map(|(_, t)| t).collect()
}

fn random_bytes(rng: &mut ChaCha8Rng) -> String {
    let len = rng.gen_range(0..200);
    let bytes: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn random_tokens(rng: &mut ChaCha8Rng) -> String {
    (0..rng.gen_range(0..60))
        .map(|_| *DICTIONARY.choose(rng).unwrap_or(&""))
        .collect::<Vec<_>>()
        .join(" ")
}

fn char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Applies 1 to 4 random edits: delete a span, duplicate a span, insert a dictionary
/// fragment, replace a character, or splice in part of another corpus program.
fn mutate(rng: &mut ChaCha8Rng, base: &str, corpus: &[String]) -> String {
    let mut s = base.to_string();
    for _ in 0..rng.gen_range(1..=4) {
        let a = char_boundary(&s, rng.gen_range(0..=s.len()));
        let b = char_boundary(&s, rng.gen_range(a..=s.len().min(a + 40)));
        match rng.gen_range(0..5) {
            0 => s.replace_range(a..b, ""),
            1 => {
                let span = s[a..b].to_string();
                s.insert_str(b, &span);
            }
            2 => s.insert_str(a, DICTIONARY.choose(rng).unwrap_or(&"")),
            3 => {
                let c = char::from(rng.gen_range(32u8..127));
                let end = char_boundary(&s, (a + 1).min(s.len()));
                s.replace_range(a..end.max(a), &c.to_string());
            }
            _ => {
                let other = corpus.choose(rng).map(String::as_str).unwrap_or("");
                let x = char_boundary(other, rng.gen_range(0..=other.len()));
                let y = char_boundary(other, rng.gen_range(x..=other.len().min(x + 80)));
                s.insert_str(a, &other[x..y]);
            }
        }
    }
    s
}

/// Parses, and verifies what parses; a verified program must round-trip. Returns whether the
/// input parsed.
fn check(input: &str) -> bool {
    let Ok(program) = ptir_ir::parse(input) else {
        return false;
    };
    if ptir_ir::verify(&program).is_ok() {
        let printed = ptir_ir::print(&program);
        let back =
            ptir_ir::parse(&printed).unwrap_or_else(|e| panic!("reprint fails: {e}\n{printed}"));
        assert_eq!(back, program, "round trip of a mutated program:\n{printed}");
    }
    true
}

#[test]
fn parser_never_panics_on_random_or_mutated_input() {
    let corpus = corpus();
    assert!(!corpus.is_empty());
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    let (mut total, mut parsed) = (0, 0);
    for i in 0..120_000 {
        let input = match i % 4 {
            0 => random_bytes(&mut rng),
            1 => random_tokens(&mut rng),
            _ => {
                let base = &corpus[i % corpus.len()];
                mutate(&mut rng, base, &corpus)
            }
        };
        total += 1;
        parsed += check(&input) as usize;
    }
    eprintln!("parser fuzz: {total} inputs, {parsed} parsed");
    assert_eq!(total, 120_000);
    // The mutations must exercise the success path as well as the error paths.
    assert!(
        parsed > 1_000,
        "only {parsed} inputs parsed: mutations are too destructive"
    );
}
