module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4096xf32>, %arg1: tensor<4096xf32>) -> (tensor<4096xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<4096xf32>) -> tensor<4096x1xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<4096x1xf32>) -> tensor<4096x4096xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<4096x4096xf32>
    %4 = stablehlo.multiply %2, %3 : tensor<4096x4096xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4096x4096xf32>, tensor<f32>) -> tensor<4096xf32>
    return %5 : tensor<4096xf32>
  }
}
