module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x256xf32>, %arg1: tensor<256x8xf32>, %arg2: tensor<8x256x256xf32>) -> (tensor<128x256xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x8xf32>) -> tensor<128x8xf32>
    %values, %indices = chlo.top_k(%0, k = 2) : tensor<128x8xf32> -> (tensor<128x2xf32>, tensor<128x2xi32>)
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%values init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<128x2xf32>, tensor<f32>) -> tensor<128xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %3 = stablehlo.maximum %2, %1 : tensor<128xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x2xf32>
    %6 = stablehlo.subtract %values, %5 : tensor<128x2xf32>
    %7 = stablehlo.exponential %6 : tensor<128x2xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<128x2xf32>, tensor<f32>) -> tensor<128xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x2xf32>
    %11 = stablehlo.divide %7, %10 : tensor<128x2xf32>
    %12 = call @_one_hot(%indices) : (tensor<128x2xi32>) -> tensor<128x2x8xf32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<128x2xf32>) -> tensor<128x2x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<128x2x1xf32>) -> tensor<128x2x8xf32>
    %15 = stablehlo.multiply %12, %14 : tensor<128x2x8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%15 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<128x2x8xf32>, tensor<f32>) -> tensor<128x8xf32>
    %17 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<8x256x256xf32>) -> tensor<128x8x256xf32>
    %18 = stablehlo.dot_general %16, %17, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<128x8xf32>, tensor<128x8x256xf32>) -> tensor<128x256xf32>
    %19 = call @argmax(%0) : (tensor<128x8xf32>) -> tensor<128xi32>
    %20 = call @_one_hot_0(%19) : (tensor<128xi32>) -> tensor<128x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.reduce(%20 init: %cst_3) applies stablehlo.add across dimensions = [0] : (tensor<128x8xf32>, tensor<f32>) -> tensor<8xf32>
    return %18, %21 : tensor<128x256xf32>, tensor<8xf32>
  }
  func.func private @_one_hot(%arg0: tensor<128x2xi32>) -> tensor<128x2x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<128x2xi32>) -> tensor<128x2x1xi32>
    %1 = stablehlo.iota dim = 2 : tensor<1x1x8xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<128x2x1xi32>) -> tensor<128x2x8xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x8xi32>) -> tensor<128x2x8xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<128x2x8xi32>, tensor<128x2x8xi32>) -> tensor<128x2x8xi1>
    %5 = stablehlo.convert %4 : (tensor<128x2x8xi1>) -> tensor<128x2x8xf32>
    return %5 : tensor<128x2x8xf32>
  }
  func.func private @argmax(%arg0: tensor<128x8xf32>) -> tensor<128xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<128x8xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<128x8xf32>, tensor<128x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<128xf32>, tensor<128xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<128xi32>
  }
  func.func private @_one_hot_0(%arg0: tensor<128xi32>) -> tensor<128x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<128xi32>) -> tensor<128x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x8xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<128x1xi32>) -> tensor<128x8xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x8xi32>) -> tensor<128x8xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<128x8xi32>, tensor<128x8xi32>) -> tensor<128x8xi1>
    %5 = stablehlo.convert %4 : (tensor<128x8xi1>) -> tensor<128x8xf32>
    return %5 : tensor<128x8xf32>
  }
}
