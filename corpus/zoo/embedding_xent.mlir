module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256xi32>, %arg1: tensor<256xi32>, %arg2: tensor<2048x128xf32>, %arg3: tensor<128x2048xf32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = call @_take(%arg2, %arg0) : (tensor<2048x128xf32>, tensor<256xi32>) -> tensor<256x128xf32>
    %1 = stablehlo.tanh %0 : tensor<256x128xf32>
    %2 = stablehlo.dot_general %1, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x128xf32>, tensor<128x2048xf32>) -> tensor<256x2048xf32>
    %3 = call @log_softmax(%2) : (tensor<256x2048xf32>) -> tensor<256x2048xf32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<256xi32>) -> tensor<256x1xi32>
    %5 = call @take_along_axis(%3, %4) : (tensor<256x2048xf32>, tensor<256x1xi32>) -> tensor<256x1xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x1xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %7 = stablehlo.divide %6, %cst_0 : tensor<f32>
    %8 = stablehlo.negate %7 : tensor<f32>
    return %8 : tensor<f32>
  }
  func.func private @_take(%arg0: tensor<2048x128xf32>, %arg1: tensor<256xi32>) -> tensor<256x128xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<256xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi1>
    %c_0 = stablehlo.constant dense<2048> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<256xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<256xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<256xi1>, tensor<256xi32>, tensor<256xi32>) -> tensor<256xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<256xi32>) -> tensor<256x1xi32>
    %c_1 = stablehlo.constant dense<2047> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<256x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<256x1xi32>, tensor<256x1xi32>) -> tensor<256x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<256x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<256x1xi32>, tensor<256x1xi32>) -> tensor<256x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<256x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [1] : (tensor<256x1xi1>, tensor<i1>) -> tensor<256xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 128>}> : (tensor<2048x128xf32>, tensor<256x1xi32>) -> tensor<256x128xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<256xi1>) -> tensor<256x128xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x128xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<256x128xi1>, tensor<256x128xf32>
    return %16 : tensor<256x128xf32>
  }
  func.func private @_where(%arg0: tensor<256xi1>, %arg1: tensor<256xi32>, %arg2: tensor<256xi32>) -> tensor<256xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<256xi1>, tensor<256xi32>
    return %0 : tensor<256xi32>
  }
  func.func private @log_softmax(%arg0: tensor<256x2048xf32>) -> tensor<256x2048xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<256x2048xf32>, tensor<f32>) -> tensor<256xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<256xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<256xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<256xf32>) -> tensor<256x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<256x1xf32>) -> tensor<256x2048xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<256x2048xf32>
    %6 = stablehlo.exponential %5 : tensor<256x2048xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<256x2048xf32>, tensor<f32>) -> tensor<256xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<256xf32>) -> tensor<256x1xf32>
    %9 = stablehlo.log %8 : tensor<256x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<256x1xf32>) -> tensor<256x2048xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<256x2048xf32>
    return %11 : tensor<256x2048xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<256x2048xf32>, %arg1: tensor<256x1xi32>) -> tensor<256x1xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<256x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<256x1xi32>, tensor<256x1xi32>) -> tensor<256x1xi1>
    %c_0 = stablehlo.constant dense<2048> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<256x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<256x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<256x1xi1>, tensor<256x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<256x1xi32>) -> tensor<256x1x1xi32>
    %c_1 = stablehlo.constant dense<2047> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<256x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<256x1x1xi32>, tensor<256x1x1xi32>) -> tensor<256x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<256x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<256x1x1xi32>, tensor<256x1x1xi32>) -> tensor<256x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<256x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<256x1x1xi1>, tensor<i1>) -> tensor<256x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<256x2048xf32>, tensor<256x1x1xi32>) -> tensor<256x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<256x1xi1>, tensor<256x1xf32>
    return %15 : tensor<256x1xf32>
  }
}
