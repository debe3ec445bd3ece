module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x256xf32>, %arg1: tensor<256x688xf32>, %arg2: tensor<256x688xf32>, %arg3: tensor<688x256xf32>) -> (tensor<128x256xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x688xf32>) -> tensor<128x688xf32>
    %1 = call @silu(%0) : (tensor<128x688xf32>) -> tensor<128x688xf32>
    %2 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x688xf32>) -> tensor<128x688xf32>
    %3 = stablehlo.multiply %1, %2 : tensor<128x688xf32>
    %4 = stablehlo.dot_general %3, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x688xf32>, tensor<688x256xf32>) -> tensor<128x256xf32>
    return %4 : tensor<128x256xf32>
  }
  func.func private @silu(%arg0: tensor<128x688xf32>) -> tensor<128x688xf32> {
    %0 = stablehlo.negate %arg0 : tensor<128x688xf32>
    %1 = stablehlo.exponential %0 : tensor<128x688xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x688xf32>
    %3 = stablehlo.add %2, %1 : tensor<128x688xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x688xf32>
    %5 = stablehlo.divide %4, %3 : tensor<128x688xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<128x688xf32>
    return %6 : tensor<128x688xf32>
  }
}
