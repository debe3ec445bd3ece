// Source-written pattern (seed 004): corpus/softmax.ptir at its own shape, raised to one
// softmax_fused call. softmax_fused is defined as exactly these seven ops (see the
// conventions in fusion.rules), so the call computes the same elements bit for bit.
extern @softmax_fused(f32[4,8]) -> (f32[4,8]) pure

// row-wise softmax of an f32[4,8], stabilized by the row maximum, is softmax_fused(x), which
// runs exactly these ops in this order
func @softmax_4x8_pattern(%x: f32[4,8]) -> (f32[4,8]) {
  %m = reduce_max %x axes=[1] keep_dims=true : f32[4,1]
  %mb = broadcast %m dims=[0,1] : f32[4,8]
  %s = sub %x, %mb : f32[4,8]
  %e = exp %s : f32[4,8]
  %z = reduce_sum %e axes=[1] keep_dims=true : f32[4,1]
  %zb = broadcast %z dims=[0,1] : f32[4,8]
  %y = div %e, %zb : f32[4,8]
  return %y
}

func @softmax_4x8_replacement(%x: f32[4,8]) -> (f32[4,8]) {
  %y = call @softmax_fused(%x) : f32[4,8]
  return %y
}
