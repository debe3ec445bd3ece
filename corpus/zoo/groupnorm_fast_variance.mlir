module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x32x32x128xf32>, %arg1: tensor<128xf32>, %arg2: tensor<128xf32>) -> (tensor<4x32x32x128xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<4x32x32x128xf32>) -> tensor<4x32x32x32x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<4x32x32x32x4xf32>, tensor<f32>) -> tensor<4x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 3] : (tensor<4x32xf32>) -> tensor<4x1x1x32x1xf32>
    %cst_0 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x1x1x32x1xf32>
    %4 = stablehlo.divide %2, %3 : tensor<4x1x1x32x1xf32>
    %5 = chlo.square %0 : tensor<4x32x32x32x4xf32> -> tensor<4x32x32x32x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst_1) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<4x32x32x32x4xf32>, tensor<f32>) -> tensor<4x32xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 3] : (tensor<4x32xf32>) -> tensor<4x1x1x32x1xf32>
    %cst_2 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x1x1x32x1xf32>
    %9 = stablehlo.divide %7, %8 : tensor<4x1x1x32x1xf32>
    %10 = chlo.square %4 : tensor<4x1x1x32x1xf32> -> tensor<4x1x1x32x1xf32>
    %11 = stablehlo.subtract %9, %10 : tensor<4x1x1x32x1xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x1x1x32x1xf32>
    %13 = stablehlo.maximum %12, %11 : tensor<4x1x1x32x1xf32>
    %14 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2, 3, 4] : (tensor<4x1x1x32x1xf32>) -> tensor<4x32x32x32x4xf32>
    %15 = stablehlo.subtract %0, %14 : tensor<4x32x32x32x4xf32>
    %cst_4 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x1x1x32x1xf32>
    %17 = stablehlo.add %13, %16 : tensor<4x1x1x32x1xf32>
    %18 = stablehlo.rsqrt %17 : tensor<4x1x1x32x1xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2, 3, 4] : (tensor<4x1x1x32x1xf32>) -> tensor<4x32x32x32x4xf32>
    %20 = stablehlo.multiply %15, %19 : tensor<4x32x32x32x4xf32>
    %21 = stablehlo.reshape %20 : (tensor<4x32x32x32x4xf32>) -> tensor<4x32x32x128xf32>
    %22 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<128xf32>) -> tensor<1x1x1x128xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2, 3] : (tensor<1x1x1x128xf32>) -> tensor<4x32x32x128xf32>
    %24 = stablehlo.multiply %21, %23 : tensor<4x32x32x128xf32>
    %25 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<128xf32>) -> tensor<1x1x1x128xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1, 2, 3] : (tensor<1x1x1x128xf32>) -> tensor<4x32x32x128xf32>
    %27 = stablehlo.add %24, %26 : tensor<4x32x32x128xf32>
    return %27 : tensor<4x32x32x128xf32>
  }
}
