//! Outlining: every fused library call becomes a call of a function defined in the program.
//!
//! The details are on [`outline_fused_calls`].

use ptir_ir::{Function, Op, Program, Type};

/// What outlining did: the function defined for each (extern, operand types), in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outlined {
    /// `(extern, function)` per defined function, in order of first use.
    pub functions: Vec<(String, String)>,
    /// Calls redirected.
    pub calls: usize,
}

/// Outlines every fused library call of `program`.
///
/// Raising rules replace an idiom by a call of a fused library extern (`@linear`,
/// `@layernorm_fused`, ...). Outlining makes such a program self-contained: each distinct
/// (extern, operand types) pair becomes a function `@NAME_K` (`K` = 0, 1, ... per extern, in
/// order of first use) whose body is the extern's idiom at those types, and every call is
/// redirected to it. The output runs with no registered externs, and the call-prefix rule
/// (`@linear` matches `@linear_0`) lets rules compose over the outlined calls when the program
/// is optimized again: such a function is recognized as the extern's definition
/// ([`ptir_rules::externs::defined_by`]), not as a user's function of the same name.
///
/// Calls of a function the program already defines are left alone, and an existing
/// definition with the same idiom and types is reused.
///
/// ```
/// let mut p = ptir_ir::parse(
///     "extern @gelu_fused pure\n\
///      func @f(%x: f32[4]) -> (f32[4]) {\n  %y = call @gelu_fused(%x) : f32[4]\n  \
///      %z = call @gelu_fused(%y) : f32[4]\n  return %z\n}",
/// )?;
/// let done = ptir_convert::outline_fused_calls(&mut p)?;
/// assert_eq!(done.functions, [("gelu_fused".to_string(), "gelu_fused_0".to_string())]);
/// assert_eq!(done.calls, 2);
/// assert!(p.externs.is_empty() && p.function("gelu_fused_0").is_some());
/// ptir_ir::verify(&p)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn outline_fused_calls(program: &mut Program) -> Result<Outlined, String> {
    let mut done = Outlined::default();
    // (extern base name, operand types) -> the function defined for it.
    let mut defined: Vec<(String, Vec<Type>, String)> = Vec::new();
    for f in &program.functions {
        if let Some(base) = ptir_rules::externs::defined_by(f) {
            defined.push((base.to_string(), f.param_types(), f.name.clone()));
        }
    }
    let mut new_functions: Vec<Function> = Vec::new();
    for fi in 0..program.functions.len() {
        let types = value_types(&program.functions[fi]);
        let mut redirects = Vec::new();
        program.functions[fi].body.walk(&mut |i, _| {
            let Op::Call { callee } = &i.op else {
                return;
            };
            let is_function = program.function(callee).is_some()
                || new_functions.iter().any(|g| g.name == *callee);
            if is_function || !ptir_rules::externs::has_reference(callee) {
                return;
            }
            let args: Option<Vec<Type>> =
                i.operands.iter().map(|v| types.get(v).cloned()).collect();
            if let Some(args) = args {
                redirects.push((i.result, callee.clone(), args));
            }
        });
        let mut names = Vec::new();
        for (_, callee, args) in &redirects {
            let base = ptir_rules::externs::base_name(callee).to_string();
            let found = defined
                .iter()
                .find(|(b, t, _)| *b == base && t == args)
                .map(|(_, _, n)| n.clone());
            let name = match found {
                Some(n) => n,
                None => {
                    let name = fresh_name(program, &new_functions, &base);
                    let idiom = ptir_rules::externs::idiom_program(&base, args)
                        .ok_or_else(|| format!("@{base} has no definition"))??;
                    let mut body = idiom
                        .functions
                        .into_iter()
                        .next()
                        .ok_or_else(|| format!("@{base}: empty idiom"))?;
                    body.name = name.clone();
                    new_functions.push(body);
                    defined.push((base.clone(), args.clone(), name.clone()));
                    done.functions.push((base.clone(), name.clone()));
                    name
                }
            };
            names.push(name);
        }
        let mut k = 0;
        redirect(&mut program.functions[fi].body, &redirects, &names, &mut k);
        done.calls += redirects.len();
    }
    program.functions.splice(0..0, new_functions);
    let called = program.called_names();
    program
        .externs
        .retain(|e| called.contains(&e.name) || !ptir_rules::externs::has_reference(&e.name));
    Ok(done)
}

/// `NAME_K` for the first `K` that names no function of the program.
fn fresh_name(program: &Program, new: &[Function], base: &str) -> String {
    (0usize..)
        .map(|k| format!("{base}_{k}"))
        .find(|n| program.function(n).is_none() && !new.iter().any(|f| f.name == *n))
        .unwrap_or_else(|| base.to_string())
}

/// The type of every value of `f` (parameters of every block included).
pub(crate) fn value_types(f: &Function) -> rustc_hash::FxHashMap<ptir_ir::ValueId, Type> {
    let mut types: rustc_hash::FxHashMap<_, _> =
        f.body.params.iter().map(|p| (p.id, p.ty.clone())).collect();
    f.body.walk(&mut |i, _| {
        types.insert(i.result, i.ty.clone());
        for r in i.op.regions() {
            for p in &r.params {
                types.insert(p.id, p.ty.clone());
            }
        }
    });
    types
}

/// Renames the callees of the calls in `redirects` (in walk order) to `names`.
fn redirect(
    region: &mut ptir_ir::Region,
    redirects: &[(ptir_ir::ValueId, String, Vec<Type>)],
    names: &[String],
    k: &mut usize,
) {
    for inst in &mut region.insts {
        if let Op::Call { callee } = &mut inst.op {
            if redirects.get(*k).is_some_and(|r| r.0 == inst.result) {
                *callee = names[*k].clone();
                *k += 1;
            }
        }
        for r in inst.op.regions_mut() {
            redirect(r, redirects, names, k);
        }
    }
}
