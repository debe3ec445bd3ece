module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x64x32x32xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64xf32>, %arg4: tensor<64xf32>) -> (tensor<8x64x32x32xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg3 : (tensor<64xf32>) -> tensor<1x64x1x1xf32>
    %1 = stablehlo.reshape %arg2 : (tensor<64xf32>) -> tensor<1x64x1x1xf32>
    %cst = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x64x1x1xf32>
    %3 = stablehlo.add %1, %2 : tensor<1x64x1x1xf32>
    %4 = stablehlo.rsqrt %3 : tensor<1x64x1x1xf32>
    %5 = stablehlo.multiply %0, %4 : tensor<1x64x1x1xf32>
    %6 = stablehlo.reshape %arg1 : (tensor<64xf32>) -> tensor<1x64x1x1xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1, 2, 3] : (tensor<1x64x1x1xf32>) -> tensor<8x64x32x32xf32>
    %8 = stablehlo.subtract %arg0, %7 : tensor<8x64x32x32xf32>
    %9 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2, 3] : (tensor<1x64x1x1xf32>) -> tensor<8x64x32x32xf32>
    %10 = stablehlo.multiply %8, %9 : tensor<8x64x32x32xf32>
    %11 = stablehlo.reshape %arg4 : (tensor<64xf32>) -> tensor<1x64x1x1xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2, 3] : (tensor<1x64x1x1xf32>) -> tensor<8x64x32x32xf32>
    %13 = stablehlo.add %10, %12 : tensor<8x64x32x32xf32>
    return %13 : tensor<8x64x32x32xf32>
  }
}
