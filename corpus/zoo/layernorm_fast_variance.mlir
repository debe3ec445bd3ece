module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2048x768xf32>, %arg1: tensor<768xf32>, %arg2: tensor<768xf32>) -> (tensor<2048x768xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2048x768xf32>, tensor<f32>) -> tensor<2048xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %cst_0 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2048x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<2048x1xf32>
    %4 = chlo.square %arg0 : tensor<2048x768xf32> -> tensor<2048x768xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<2048x768xf32>, tensor<f32>) -> tensor<2048xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %cst_2 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2048x1xf32>
    %8 = stablehlo.divide %6, %7 : tensor<2048x1xf32>
    %9 = chlo.square %3 : tensor<2048x1xf32> -> tensor<2048x1xf32>
    %10 = stablehlo.subtract %8, %9 : tensor<2048x1xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2048x1xf32>
    %12 = stablehlo.maximum %11, %10 : tensor<2048x1xf32>
    %13 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<2048x1xf32>) -> tensor<2048x768xf32>
    %14 = stablehlo.subtract %arg0, %13 : tensor<2048x768xf32>
    %cst_4 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2048x1xf32>
    %16 = stablehlo.add %12, %15 : tensor<2048x1xf32>
    %17 = stablehlo.rsqrt %16 : tensor<2048x1xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<2048x1xf32>) -> tensor<2048x768xf32>
    %19 = stablehlo.multiply %14, %18 : tensor<2048x768xf32>
    %20 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<2048x768xf32>
    %22 = stablehlo.multiply %19, %21 : tensor<2048x768xf32>
    %23 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<2048x768xf32>
    %25 = stablehlo.add %22, %24 : tensor<2048x768xf32>
    return %25 : tensor<2048x768xf32>
  }
}
