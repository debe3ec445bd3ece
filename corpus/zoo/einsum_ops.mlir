module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256x256xf32>, %arg1: tensor<256x256xf32>, %arg2: tensor<256x256xf32>, %arg3: tensor<16x128x128xf32>, %arg4: tensor<16x128x128xf32>, %arg5: tensor<256x1024xf32>, %arg6: tensor<1024x64xf32>, %arg7: tensor<64x256xf32>) -> (tensor<256xf32> {jax.result_info = "result[0]"}, tensor<16x128x128xf32> {jax.result_info = "result[1]"}, tensor<256x256xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [0] x [1], precision = [DEFAULT, DEFAULT] : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %1 = stablehlo.dot_general %arg2, %0, batching_dims = [0] x [1], contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256xf32>
    %2 = stablehlo.dot_general %arg3, %arg4, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x128x128xf32>, tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
    %3 = stablehlo.dot_general %arg6, %arg5, contracting_dims = [0] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1024x64xf32>, tensor<256x1024xf32>) -> tensor<64x256xf32>
    %4 = stablehlo.dot_general %3, %arg7, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<256x256xf32>
    %5 = stablehlo.slice %arg5 [0:256, 0:256] : (tensor<256x1024xf32>) -> tensor<256x256xf32>
    %6 = stablehlo.iota dim = 0 : tensor<256x256xui32>
    %7 = stablehlo.iota dim = 1 : tensor<256x256xui32>
    %8 = stablehlo.compare EQ, %6, %7, UNSIGNED : (tensor<256x256xui32>, tensor<256x256xui32>) -> tensor<256x256xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x256xf32>
    %10 = stablehlo.select %8, %5, %9 : tensor<256x256xi1>, tensor<256x256xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x256xf32>, tensor<f32>) -> tensor<f32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<256x256xf32>
    %13 = stablehlo.add %4, %12 : tensor<256x256xf32>
    %14 = stablehlo.transpose %13, dims = [1, 0] : (tensor<256x256xf32>) -> tensor<256x256xf32>
    return %1, %2, %14 : tensor<256xf32>, tensor<16x128x128xf32>, tensor<256x256xf32>
  }
}
