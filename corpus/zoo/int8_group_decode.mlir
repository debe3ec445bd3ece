module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x2048xf32>, %arg1: tensor<2048x2048xi8>, %arg2: tensor<16x2048xf32>) -> (tensor<4x2048xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg1 : (tensor<2048x2048xi8>) -> tensor<16x128x2048xi8>
    %1 = stablehlo.convert %0 : (tensor<16x128x2048xi8>) -> tensor<16x128x2048xf32>
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [0, 2] : (tensor<16x2048xf32>) -> tensor<16x1x2048xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1, 2] : (tensor<16x1x2048xf32>) -> tensor<16x128x2048xf32>
    %4 = stablehlo.multiply %1, %3 : tensor<16x128x2048xf32>
    %5 = stablehlo.reshape %4 : (tensor<16x128x2048xf32>) -> tensor<2048x2048xf32>
    %6 = stablehlo.dot_general %arg0, %5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x2048xf32>, tensor<2048x2048xf32>) -> tensor<4x2048xf32>
    return %6 : tensor<4x2048xf32>
  }
}
