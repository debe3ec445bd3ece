module @jit_chain4 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x512xi32>, %arg1: tensor<512x32xi32>, %arg2: tensor<32x512xi32>, %arg3: tensor<512x8xi32>) -> (tensor<64x8xi32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x512xi32>, tensor<512x32xi32>) -> tensor<64x32xi32>
    %1 = stablehlo.dot_general %0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x32xi32>, tensor<32x512xi32>) -> tensor<64x512xi32>
    %2 = stablehlo.dot_general %1, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x512xi32>, tensor<512x8xi32>) -> tensor<64x8xi32>
    return %2 : tensor<64x8xi32>
  }
}
