module @jit_mqa attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x256xf32>, %arg1: tensor<256x256xf32>, %arg2: tensor<256x32xf32>, %arg3: tensor<256x32xf32>, %arg4: tensor<256x256xf32>) -> (tensor<128x256xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
    %1 = stablehlo.reshape %0 : (tensor<128x256xf32>) -> tensor<128x8x32xf32>
    %2 = stablehlo.transpose %1, dims = [1, 0, 2] : (tensor<128x8x32xf32>) -> tensor<8x128x32xf32>
    %3 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x32xf32>) -> tensor<128x32xf32>
    %4 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x32xf32>) -> tensor<128x32xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<128x128xi1>
    %6 = call @tril(%5) : (tensor<128x128xi1>) -> tensor<128x128xi1>
    %7 = stablehlo.dot_general %2, %3, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x128x32xf32>, tensor<128x32xf32>) -> tensor<8x128x128xf32>
    %cst = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %8 = stablehlo.sqrt %cst : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<8x128x128xf32>
    %10 = stablehlo.divide %7, %9 : tensor<8x128x128xf32>
    %11 = stablehlo.broadcast_in_dim %6, dims = [1, 2] : (tensor<128x128xi1>) -> tensor<1x128x128xi1>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %12 = call @_where(%11, %10, %cst_0) : (tensor<1x128x128xi1>, tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128x128xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %13 = stablehlo.reduce(%12 init: %cst_1) applies stablehlo.maximum across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %15 = stablehlo.maximum %14, %13 : tensor<8x128xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %18 = stablehlo.subtract %12, %17 : tensor<8x128x128xf32>
    %19 = stablehlo.exponential %18 : tensor<8x128x128xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.reduce(%19 init: %cst_3) applies stablehlo.add across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %23 = stablehlo.divide %19, %22 : tensor<8x128x128xf32>
    %24 = stablehlo.dot_general %23, %4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128x128xf32>, tensor<128x32xf32>) -> tensor<8x128x32xf32>
    %25 = stablehlo.transpose %24, dims = [1, 0, 2] : (tensor<8x128x32xf32>) -> tensor<128x8x32xf32>
    %26 = stablehlo.reshape %25 : (tensor<128x8x32xf32>) -> tensor<128x256xf32>
    %27 = stablehlo.dot_general %26, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
    return %27 : tensor<128x256xf32>
  }
  func.func private @tril(%arg0: tensor<128x128xi1>) -> tensor<128x128xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<128x128xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<128x128xi32>
    %2 = stablehlo.add %0, %1 : tensor<128x128xi32>
    %3 = stablehlo.iota dim = 1 : tensor<128x128xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<128x128xi32>, tensor<128x128xi32>) -> tensor<128x128xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<128x128xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<128x128xi1>, tensor<128x128xi1>
    return %6 : tensor<128x128xi1>
  }
  func.func private @_where(%arg0: tensor<1x128x128xi1>, %arg1: tensor<8x128x128xf32>, %arg2: tensor<f32>) -> tensor<8x128x128xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<1x128x128xi1>) -> tensor<8x128x128xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x128x128xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<8x128x128xi1>, tensor<8x128x128xf32>
    return %3 : tensor<8x128x128xf32>
  }
}
