module @jit_attention attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x64xf32>, %arg1: tensor<16x64xf32>, %arg2: tensor<16x64xf32>) -> (tensor<16x64xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<16x64xf32>) -> tensor<64x16xf32>
    %1 = stablehlo.dot_general %arg0, %0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x16xf32>) -> tensor<16x16xf32>
    %cst = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %2 = stablehlo.sqrt %cst : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %4 = stablehlo.divide %1, %3 : tensor<16x16xf32>
    %5 = stablehlo.iota dim = 0 : tensor<16xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %7 = stablehlo.iota dim = 0 : tensor<16xi32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %10 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %11 = stablehlo.compare LE, %9, %10, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %12 = call @_where(%11, %4, %cst_0) : (tensor<16x16xi1>, tensor<16x16xf32>, tensor<f32>) -> tensor<16x16xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %13 = stablehlo.reduce(%12 init: %cst_1) applies stablehlo.maximum across dimensions = [1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x16xf32>
    %16 = stablehlo.subtract %12, %15 : tensor<16x16xf32>
    %17 = stablehlo.exponential %16 : tensor<16x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.reduce(%17 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x16xf32>
    %21 = stablehlo.divide %17, %20 : tensor<16x16xf32>
    %22 = stablehlo.dot_general %21, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    return %22 : tensor<16x64xf32>
  }
  func.func private @_where(%arg0: tensor<16x16xi1>, %arg1: tensor<16x16xf32>, %arg2: tensor<f32>) -> tensor<16x16xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<16x16xi1>, tensor<16x16xf32>
    return %2 : tensor<16x16xf32>
  }
}
