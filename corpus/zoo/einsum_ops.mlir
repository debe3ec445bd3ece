module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x128xf32>, %arg1: tensor<128x128xf32>, %arg2: tensor<32x128xf32>, %arg3: tensor<8x64x64xf32>, %arg4: tensor<8x64x64xf32>, %arg5: tensor<64x256xf32>, %arg6: tensor<256x16xf32>, %arg7: tensor<16x64xf32>) -> (tensor<32xf32> {jax.result_info = "result[0]"}, tensor<8x64x64xf32> {jax.result_info = "result[1]"}, tensor<64x64xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [0] x [1], precision = [DEFAULT, DEFAULT] : (tensor<128x128xf32>, tensor<32x128xf32>) -> tensor<128x32xf32>
    %1 = stablehlo.dot_general %arg2, %0, batching_dims = [0] x [1], contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x128xf32>, tensor<128x32xf32>) -> tensor<32xf32>
    %2 = stablehlo.dot_general %arg3, %arg4, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x64xf32>, tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
    %3 = stablehlo.dot_general %arg6, %arg5, contracting_dims = [0] x [1], precision = [DEFAULT, DEFAULT] : (tensor<256x16xf32>, tensor<64x256xf32>) -> tensor<16x64xf32>
    %4 = stablehlo.dot_general %3, %arg7, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<64x64xf32>
    %5 = stablehlo.slice %arg5 [0:64, 0:64] : (tensor<64x256xf32>) -> tensor<64x64xf32>
    %6 = stablehlo.iota dim = 0 : tensor<64x64xui32>
    %7 = stablehlo.iota dim = 1 : tensor<64x64xui32>
    %8 = stablehlo.compare EQ, %6, %7, UNSIGNED : (tensor<64x64xui32>, tensor<64x64xui32>) -> tensor<64x64xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %10 = stablehlo.select %8, %5, %9 : tensor<64x64xi1>, tensor<64x64xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x64xf32>, tensor<f32>) -> tensor<f32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %13 = stablehlo.add %4, %12 : tensor<64x64xf32>
    %14 = stablehlo.transpose %13, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>
    return %1, %2, %14 : tensor<32xf32>, tensor<8x64x64xf32>, tensor<64x64xf32>
  }
}
