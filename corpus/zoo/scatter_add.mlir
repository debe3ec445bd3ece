module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8192x128xf32>, %arg1: tensor<8192xi32>) -> (tensor<64x128xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8192xi32>
    %2 = stablehlo.compare LT, %arg1, %1, SIGNED : (tensor<8192xi32>, tensor<8192xi32>) -> tensor<8192xi1>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8192xi32>
    %4 = stablehlo.add %arg1, %3 : tensor<8192xi32>
    %5 = stablehlo.select %2, %4, %arg1 : tensor<8192xi1>, tensor<8192xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<8192xi32>) -> tensor<8192x1xi32>
    %7 = "stablehlo.scatter"(%0, %6, %arg0) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %25 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %25 : tensor<f32>
    }) : (tensor<64x128xf32>, tensor<8192x1xi32>, tensor<8192x128xf32>) -> tensor<64x128xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8192xi32>
    %10 = stablehlo.compare LT, %arg1, %9, SIGNED : (tensor<8192xi32>, tensor<8192xi32>) -> tensor<8192xi1>
    %c_3 = stablehlo.constant dense<64> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<8192xi32>
    %12 = stablehlo.add %arg1, %11 : tensor<8192xi32>
    %13 = stablehlo.select %10, %12, %arg1 : tensor<8192xi1>, tensor<8192xi32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<8192xi32>) -> tensor<8192x1xi32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8192xf32>
    %16 = "stablehlo.scatter"(%8, %14, %15) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %25 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %25 : tensor<f32>
    }) : (tensor<64xf32>, tensor<8192x1xi32>, tensor<8192xf32>) -> tensor<64xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %18 = stablehlo.maximum %16, %17 : tensor<64xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<64xf32>) -> tensor<64x1xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<64x1xf32>) -> tensor<64x128xf32>
    %21 = stablehlo.divide %7, %20 : tensor<64x128xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %22 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %24 = "stablehlo.scatter"(%21, %22, %23) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      stablehlo.return %arg3 : tensor<f32>
    }) : (tensor<64x128xf32>, tensor<1xi32>, tensor<128xf32>) -> tensor<64x128xf32>
    return %24 : tensor<64x128xf32>
  }
}
