// Source-written pattern (seed 004): corpus/layernorm.ptir at its own shape, raised to one
// layernorm_fused call (defined as exactly these ops, with n = 8 and eps = 1e-5; see
// fusion.rules).
extern @layernorm_fused(f32[4,8], f32[8], f32[8]) -> (f32[4,8]) pure

// layer normalization of an f32[4,8] over its last axis (size 8, eps 1e-5), scaled by gamma
// and shifted by beta, is layernorm_fused(x, gamma, beta), which runs exactly these ops
func @layernorm_4x8_pattern(%x: f32[4,8], %gamma: f32[8], %beta: f32[8]) -> (f32[4,8]) {
  %n = constant splat(8.0) : f32[4]
  %eps = constant splat(1e-5) : f32[4]
  %sum = reduce_sum %x axes=[1] keep_dims=false : f32[4]
  %mean = div %sum, %n : f32[4]
  %meanb = broadcast %mean dims=[0] : f32[4,8]
  %d = sub %x, %meanb : f32[4,8]
  %d2 = mul %d, %d : f32[4,8]
  %ss = reduce_sum %d2 axes=[1] keep_dims=false : f32[4]
  %var = div %ss, %n : f32[4]
  %ve = add %var, %eps : f32[4]
  %r = rsqrt %ve : f32[4]
  %rb = broadcast %r dims=[0] : f32[4,8]
  %xn = mul %d, %rb : f32[4,8]
  %gb = broadcast %gamma dims=[1] : f32[4,8]
  %bb = broadcast %beta dims=[1] : f32[4,8]
  %xg = mul %xn, %gb : f32[4,8]
  %y = add %xg, %bb : f32[4,8]
  return %y
}

func @layernorm_4x8_replacement(%x: f32[4,8], %gamma: f32[8], %beta: f32[8]) -> (f32[4,8]) {
  %y = call @layernorm_fused(%x, %gamma, %beta) : f32[4,8]
  return %y
}
