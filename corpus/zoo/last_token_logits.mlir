module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x128xf32>, %arg1: tensor<128x2048xf32>) -> (tensor<2048xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x128xf32>, tensor<128x2048xf32>) -> tensor<64x2048xf32>
    %1 = stablehlo.slice %0 [63:64, 0:2048] : (tensor<64x2048xf32>) -> tensor<1x2048xf32>
    %2 = stablehlo.reshape %1 : (tensor<1x2048xf32>) -> tensor<2048xf32>
    return %2 : tensor<2048xf32>
  }
}
