module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x4096xf32>) -> (tensor<64x4096xf32> {jax.result_info = "result[0]"}, tensor<64x4096xf32> {jax.result_info = "result[1]"}) {
    %0 = call @_roll_static(%arg0) : (tensor<64x4096xf32>) -> tensor<64x4096xf32>
    %cst = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x4096xf32>
    %2 = stablehlo.multiply %1, %0 : tensor<64x4096xf32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64x4096xf32>
    %4 = stablehlo.multiply %3, %arg0 : tensor<64x4096xf32>
    %5 = stablehlo.add %2, %4 : tensor<64x4096xf32>
    %6 = call @_roll_static_0(%arg0) : (tensor<64x4096xf32>) -> tensor<64x4096xf32>
    %cst_1 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x4096xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<64x4096xf32>
    %9 = stablehlo.add %5, %8 : tensor<64x4096xf32>
    %10 = call @_roll_static_0(%9) : (tensor<64x4096xf32>) -> tensor<64x4096xf32>
    %11 = call @_roll_static(%9) : (tensor<64x4096xf32>) -> tensor<64x4096xf32>
    %12 = stablehlo.subtract %10, %11 : tensor<64x4096xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64x4096xf32>
    %14 = stablehlo.multiply %12, %13 : tensor<64x4096xf32>
    return %9, %14 : tensor<64x4096xf32>, tensor<64x4096xf32>
  }
  func.func private @_roll_static(%arg0: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
    %0 = stablehlo.slice %arg0 [0:64, 4095:4096] : (tensor<64x4096xf32>) -> tensor<64x1xf32>
    %1 = stablehlo.slice %arg0 [0:64, 0:4095] : (tensor<64x4096xf32>) -> tensor<64x4095xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 1 : (tensor<64x1xf32>, tensor<64x4095xf32>) -> tensor<64x4096xf32>
    return %2 : tensor<64x4096xf32>
  }
  func.func private @_roll_static_0(%arg0: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
    %0 = stablehlo.slice %arg0 [0:64, 1:4096] : (tensor<64x4096xf32>) -> tensor<64x4095xf32>
    %1 = stablehlo.slice %arg0 [0:64, 0:1] : (tensor<64x4096xf32>) -> tensor<64x1xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 1 : (tensor<64x4095xf32>, tensor<64x1xf32>) -> tensor<64x4096xf32>
    return %2 : tensor<64x4096xf32>
  }
}
