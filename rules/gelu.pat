// Source-written pattern (seed 004): corpus/gelu.ptir at its own shape, raised to one
// gelu_fused call (defined as exactly these ops; see fusion.rules).
extern @gelu_fused(f32[4,8]) -> (f32[4,8]) pure

// GELU in its tanh form on an f32[4,8], with the corpus's constants, is gelu_fused(x), which
// runs exactly these ops in this order
func @gelu_4x8_pattern(%x: f32[4,8]) -> (f32[4,8]) {
  %half = constant splat(0.5) : f32[4,8]
  %one = constant splat(1.0) : f32[4,8]
  %c = constant splat(0.7978846) : f32[4,8]
  %k = constant splat(0.044715) : f32[4,8]
  %x2 = mul %x, %x : f32[4,8]
  %x3 = mul %x2, %x : f32[4,8]
  %kx3 = mul %k, %x3 : f32[4,8]
  %inner = add %x, %kx3 : f32[4,8]
  %scaled = mul %c, %inner : f32[4,8]
  %t = tanh %scaled : f32[4,8]
  %onept = add %one, %t : f32[4,8]
  %hx = mul %half, %x : f32[4,8]
  %y = mul %hx, %onept : f32[4,8]
  return %y
}

func @gelu_4x8_replacement(%x: f32[4,8]) -> (f32[4,8]) {
  %y = call @gelu_fused(%x) : f32[4,8]
  return %y
}
