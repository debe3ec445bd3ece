// Source-written pattern (seed 004) with two roots: the sum and the sum of squares of the
// rows of an f32[4,8] both come out of one moments call, whose two results are defined as
// exactly these reductions (see fusion.rules).
extern @moments(f32[4,8]) -> (f32[4], f32[4]) pure

// the row sums and the row sums of squares of x are the two elements of moments(x), which
// computes exactly these reductions in the same order
func @moments_4x8_pattern(%x: f32[4,8]) -> (f32[4], f32[4]) {
  %s = reduce_sum %x axes=[1] keep_dims=false : f32[4]
  %x2 = mul %x, %x : f32[4,8]
  %q = reduce_sum %x2 axes=[1] keep_dims=false : f32[4]
  return %s, %q
}

func @moments_4x8_replacement(%x: f32[4,8]) -> (f32[4], f32[4]) {
  %m = call @moments(%x) : (f32[4], f32[4])
  %s = tuple_get %m index=0 : f32[4]
  %q = tuple_get %m index=1 : f32[4]
  return %s, %q
}
