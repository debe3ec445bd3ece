// Source-written pattern (seed 004): a layer of corpus/mlp.ptir's form, a matrix product plus
// a bias broadcast along the rows, raised to one linear call (defined as exactly this
// dot_general and add; see fusion.rules). The shapes are the corpus's f32[4,8] input with a
// square f32[8,8] weight, so every value stays within the proof harness's 64 elements; the
// fusion.rules `linear` rule covers every shape.
extern @linear(f32[4,8], f32[8,8], f32[8]) -> (f32[4,8]) pure

// x w + b for x: f32[4,8], w: f32[8,8], b: f32[8] is linear(x, w, b), which runs exactly
// this dot_general, broadcast and add
func @linear_4x8x8_pattern(%x: f32[4,8], %w: f32[8,8], %b: f32[8]) -> (f32[4,8]) {
  %0 = dot_general %x, %w lhs_contract=[1] rhs_contract=[0] : f32[4,8]
  %1 = broadcast %b dims=[1] : f32[4,8]
  %2 = add %0, %1 : f32[4,8]
  return %2
}

func @linear_4x8x8_replacement(%x: f32[4,8], %w: f32[8,8], %b: f32[8]) -> (f32[4,8]) {
  %0 = call @linear(%x, %w, %b) : f32[4,8]
  return %0
}
