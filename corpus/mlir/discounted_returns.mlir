module @jit_discounted_returns attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x64xf32>, %arg1: tensor<16x64xf32>) -> (tensor<16x64xf32> {jax.result_info = "result[0]"}, tensor<16xf32> {jax.result_info = "result[1]"}, tensor<16x64xf32> {jax.result_info = "result[2]"}) {
    %0 = call @cumprod(%arg1) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<16x64xf32>
    %2 = stablehlo.reverse %1, dims = [1] : tensor<16x64xf32>
    %3 = call @cumsum(%2) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %4 = stablehlo.reverse %3, dims = [1] : tensor<16x64xf32>
    %5 = stablehlo.divide %4, %0 : tensor<16x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.multiply across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %7 = stablehlo.reduce_precision %5, format = e8m7 : tensor<16x64xf32>
    return %5, %6, %7 : tensor<16x64xf32>, tensor<16xf32>, tensor<16x64xf32>
  }
  func.func private @cumprod(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %0 = call @cumprod_0(%arg0) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    return %0 : tensor<16x64xf32>
  }
  func.func private @cumprod_0(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [63, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 64>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.multiply %arg1, %arg2 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<16x64xf32>, tensor<f32>) -> tensor<16x64xf32>
    return %0 : tensor<16x64xf32>
  }
  func.func private @cumsum(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %0 = call @cumsum_1(%arg0) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    return %0 : tensor<16x64xf32>
  }
  func.func private @cumsum_1(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [63, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 64>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<16x64xf32>, tensor<f32>) -> tensor<16x64xf32>
    return %1 : tensor<16x64xf32>
  }
}
